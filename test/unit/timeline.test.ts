/**
 * The timeline's bookkeeping, fed as the supervisor and the panel's store feed it (a fake is fine here: the
 * subject is the accounting, not the browser; test/real/timeTravel.test.ts drives the real one): what a
 * step holds, what steps share, what the budget drops, and which picture belongs to which step.
 */
import * as assert from 'assert';
import { Emitter } from '../../src/core/emitter';
import { Timeline } from '../../src/core/timeTravel/timeline';
import type { CheckpointFacts, ObservationEvent } from '../../src/protocol/childMessages';
import type { FrameMessage, HostToPanel } from '../../src/protocol/panelMessages';
import type { ToolCallRecord } from '../../src/core/supervision/activityLog';

function feed(maxBytes = 10_000_000, watching = { window: true }) {
  const calls = new Emitter<ToolCallRecord>();
  const observations = new Emitter<ObservationEvent>();
  const messages = new Emitter<HostToPanel>();
  const frames = new Emitter<FrameMessage>();
  const timeline = new Timeline(
    {
      onToolCall: calls.event,
      onObservation: observations.event,
      onMessage: messages.event,
      onFrame: frames.event,
      clientsIsolated: () => true,
      readSnapshot: () => undefined,
      checkpointNow: async () => undefined,
      watchingWindow: () => watching.window,
    },
    () => maxBytes,
  );
  let id = 0;
  /** One call, started and ended; `running` leaves it running. */
  const call = (name: string, over: Partial<ToolCallRecord> = {}, running = false) => {
    const record: ToolCallRecord = { id: ++id, name, args: {}, door: 'tool', title: name, startedAt: 1000 * id, ...over };
    calls.fire(record);
    if (!running) calls.fire({ ...record, outcome: 'ok', durationMs: 10, ...over });
    return record;
  };
  const facts = (url: string, storage?: string): CheckpointFacts => ({ url, title: url, tabCount: 1, ...(storage ? { storage } : {}) });
  const frame = (data: string): FrameMessage => ({ type: 'frame', seq: 1, data, width: 10, height: 10, producedAt: 0 });
  return { timeline, call, facts, frame, calls, observations, messages, frames, watching };
}

describe('time travel timeline', () => {
  it('a step that changed nothing the child saw shares the state before it; a late checkpoint reaches the steps that shared', () => {
    const f = feed();
    f.call('browser_navigate', { checkpointSeq: 1 });
    f.observations.fire({ kind: 'checkpoint', seq: 1, facts: f.facts('http://a.test/', '{"state":{"cookies":[],"origins":[]}}') });
    f.call('browser_snapshot');
    const [first, read] = f.timeline.steps;
    assert.strictEqual(read.page, first.page, 'a read shares the page');
    assert.strictEqual(read.storage, first.storage);
    f.call('browser_click', { checkpointSeq: 2 });
    const click = f.timeline.steps[2];
    assert.strictEqual(click.page, first.page, 'until its checkpoint comes it has the state before it');
    f.call('browser_console_messages');
    f.observations.fire({ kind: 'checkpoint', seq: 2, facts: f.facts('http://a.test/next') });
    assert.strictEqual(click.page?.value.url, 'http://a.test/next');
    assert.strictEqual(f.timeline.steps[3].page, click.page, 'the read after it takes it too');
    assert.strictEqual(click.storage, first.storage, "storage unchanged: still the first step's");
    assert.deepStrictEqual(f.timeline.restoreTarget(4), { url: 'http://a.test/next', storage: '{"state":{"cookies":[],"origins":[]}}' });
    // A checkpoint that arrives before its call's record has ended is kept for it.
    f.observations.fire({ kind: 'checkpoint', seq: 3, facts: f.facts('http://a.test/early') });
    f.call('browser_click', { checkpointSeq: 3 });
    assert.deepStrictEqual([f.timeline.steps[4].page?.value.url, f.timeline.steps[4].awaiting], ['http://a.test/early', undefined]);
  });

  it('keeps within its budget, oldest first, and a part the next step shares is counted there once the first goes', () => {
    const storage = `{"state":{"cookies":[],"origins":[]},"pad":"${'x'.repeat(4000)}"}`;
    const f = feed(20_000);
    f.call('browser_navigate', { checkpoint: f.facts('http://a.test/', storage) });
    f.call('browser_snapshot');
    const before = f.timeline.keptBytes;
    assert.ok(before > storage.length * 2, `the storage is counted once: ${before}`);
    for (let i = 0; i < 3; i++) f.call('browser_snapshot');
    assert.ok(f.timeline.keptBytes < before + 3 * 1000, 'steps that share add only their own bytes');
    f.call('browser_navigate', { checkpoint: f.facts('http://b.test/', storage.replace('x', 'y')) });
    f.call('browser_navigate', { checkpoint: f.facts('http://c.test/', storage.replace('x', 'z')) });
    assert.ok(f.timeline.keptBytes <= 20_000, `within the budget: ${f.timeline.keptBytes}`);
    assert.ok(f.timeline.dropped > 0);
    const oldest = f.timeline.steps[0];
    assert.ok(oldest.storage, 'the oldest kept step still has its (inherited) storage');
    const sum = f.timeline.steps.reduce((total, step) => total + step.bytes, 0);
    assert.strictEqual(f.timeline.keptBytes, sum, 'what is counted is what the kept steps hold');
    assert.match((f.timeline.restoreTarget(1) as { problem: string }).problem, /^Step 1 is no longer kept/);
  });

  it("a picture drawn while a step runs belongs to no step; the last one drawn before the next step is the step's", () => {
    const f = feed();
    f.call('browser_navigate', { checkpoint: f.facts('http://a.test/') });
    f.frames.fire(f.frame('first'));
    f.frames.fire(f.frame('second'));
    const running = f.call('browser_click', { checkpoint: f.facts('http://a.test/clicked') }, true);
    f.frames.fire(f.frame('mid-step'));
    f.calls.fire({ ...running, outcome: 'ok', durationMs: 5, checkpoint: f.facts('http://a.test/clicked') });
    f.call('browser_snapshot');
    const [navigate, click, read] = f.timeline.steps;
    assert.strictEqual(navigate.frame?.value.data, 'second');
    assert.strictEqual(click.frame, undefined);
    assert.deepStrictEqual(
      [f.timeline.view(2, true)?.frame, f.timeline.view(2, true)?.frameFrom],
      [undefined, undefined],
      "a step with a checkpoint of its own never shows another page's picture",
    );
    assert.strictEqual(read.frame, undefined);
    f.frames.fire(f.frame('after the read'));
    assert.deepStrictEqual(
      [f.timeline.view(2, true)?.frame?.data, f.timeline.view(2, true)?.frameFrom],
      ['after the read', 3],
      'the picture drawn after the read that followed it (nothing changed between) is its page, saying whose',
    );
    assert.strictEqual(
      f.timeline.keptBytes,
      f.timeline.steps.reduce((total, step) => total + step.bytes, 0),
      'a replaced picture is not counted',
    );
  });

  it("leaves out the panel's own reads and isolated MCP clients' calls, and takes each step's console lines", () => {
    const f = feed();
    f.messages.fire({ type: 'console', rows: [{ seq: 1, level: 'error', text: 'boom', time: 0 }], dropBefore: 0 });
    f.call('browser_navigate', { checkpoint: f.facts('http://a.test/') });
    f.call('browser_snapshot', { door: 'panel' });
    f.call('browser_click', { door: 'mcp', mcpSession: 'other' });
    assert.deepStrictEqual(
      f.timeline.steps.map(step => [step.tool, step.console.map(row => row.text)]),
      [['browser_navigate', ['boom']]],
    );
    assert.match((f.timeline.viewOfCall(2, true) as { problem: string }).problem, /not a step of this window's browser/);
  });
});

describe('time travel timeline against a page that floods it, or another session', () => {
  it('keeps at most 2,000 console lines a step, does not keep a storage that would take half its budget, and keeps within the budget', () => {
    const f = feed(4 * 1024 * 1024);
    for (let i = 0; i < 5000; i++) f.messages.fire({ type: 'console', rows: [{ seq: i + 1, level: 'info', text: 'x'.repeat(100), time: 0 }], dropBefore: 0 });
    f.call('browser_navigate', { checkpoint: f.facts('http://a.test/', `{"state":{"cookies":[],"origins":[]},"pad":"${'x'.repeat(1024 * 1024 + 10)}"}`) });
    const [step] = f.timeline.steps;
    assert.strictEqual(step.console.length, 2000);
    assert.strictEqual(step.console[0].seq, 3001, 'the newest are kept');
    assert.match((f.timeline.restoreTarget(1) as { problem: string }).problem, /^Step 1 cannot be restored: its page stored 1\.0 M characters/);
    assert.strictEqual(f.timeline.view(1, true)?.restorable, false);
    assert.ok(f.timeline.keptBytes < 4 * 1024 * 1024, `${f.timeline.keptBytes}`);
  });

  it("a step whose storage the child could not read says why, in the panel's view and in the refusal, not a size of 0", () => {
    const f = feed();
    const reason = 'the storage read of http://a.test was stopped: it did not end within 1000 ms';
    f.call('browser_click', { checkpoint: f.facts('http://a.test/', JSON.stringify({ tooLarge: 0, reason })) });
    const problem = (f.timeline.restoreTarget(1) as { problem: string }).problem;
    assert.strictEqual(problem, `Step 1 cannot be restored: its storage was not kept (${reason}).`);
    const view = f.timeline.view(1, true);
    assert.deepStrictEqual({ restorable: view?.restorable, notRestorable: view?.notRestorable }, { restorable: false, notRestorable: problem });
  });

  it("while the panel watches an MCP client's browser, its pictures, rows and the person's input there are not the window's steps", () => {
    const f = feed();
    f.call('browser_navigate', { checkpoint: f.facts('http://a.test/') });
    f.watching.window = false;
    f.frames.fire(f.frame('client B'));
    f.messages.fire({ type: 'console', rows: [{ seq: 1, level: 'info', text: 'client B line', time: 0 }], dropBefore: 0 });
    f.call('panel:clicking', { door: 'person' });
    f.watching.window = true;
    f.call('browser_snapshot');
    assert.deepStrictEqual(
      f.timeline.steps.map(step => step.tool),
      ['browser_navigate', 'browser_snapshot'],
    );
    assert.strictEqual(f.timeline.steps[0].frame, undefined);
    assert.deepStrictEqual(f.timeline.steps[1].console, []);
  });
});
