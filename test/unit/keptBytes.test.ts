/**
 * What the extension host keeps of calls is bounded in bytes (core/egress/byteBounds.ts): the step journal,
 * time travel's timeline, the panel's store and the rows waiting for a panel, fed as the supervisor feeds
 * them, with the arguments an attacker sends (megabytes, refused) and the ones a long session sends.
 */
import { fakeLiveViewSource } from '../support/liveViewSource';
import * as assert from 'assert';
import * as v8 from 'v8';
import * as vm from 'vm';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Emitter } from '../../src/core/emitter';
import {
  boundValue,
  keptBytes,
  MAX_JOURNAL_BYTES,
  MAX_KEPT_ARGS_BYTES,
  MAX_KEPT_LINE_CHARS,
  MAX_STEP_ROWS_BYTES,
  REFUSED_ARGS_BYTES,
  ROW_BATCH_MAX_BYTES,
  ROW_BATCH_MAX_ROWS,
} from '../../src/core/egress/byteBounds';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { RowBatch } from '../../src/core/liveView/rowBatch';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import { writeSpec } from '../../src/core/testExport/specWriter';
import { Timeline } from '../../src/core/timeTravel/timeline';
import type { BridgeStatus } from '../../src/core/supervision/supervisor';
import type { ToolCallRecord } from '../../src/core/supervision/activityLog';
import type { ObservationEvent } from '../../src/protocol/childMessages';
import type { ConsoleRow, FrameMessage, HostToPanel } from '../../src/protocol/panelMessages';

const MB = 1024 * 1024;
/** Room for the markers a cut leaves (a level's "… (N more entries cut)", a string's "… (N more characters cut)"). */
const MARKER_SLACK = 1024;
/** 3 MB of arguments, as the attack sent them: one text argument. */
const hugeArgs = (i: number) => ({ element: 'Search', target: 'e12', text: `${i} ${'x'.repeat(3 * MB)}` });
/** What the argument check answers such a call (core/pipeline/steps/argumentCheck.ts): the call never reached the browser. */
const refusal = (tool: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `The arguments of ${tool} are 3145780 bytes; the bridge accepts at most 1048576 bytes per call. Nothing ran.` }],
});

/** A supervisor's onToolCall, fired by the test: each call once when it starts and once when it ends. */
function calls() {
  const emitter = new Emitter<ToolCallRecord>();
  let id = 0;
  const fire = (name: string, args: Record<string, unknown>, end: Partial<ToolCallRecord>) => {
    const record: ToolCallRecord = { id: ++id, name, args, door: 'mcp', title: end.title ?? name, startedAt: 1000 * id };
    emitter.fire(record);
    emitter.fire({ ...record, durationMs: 3, ...end });
  };
  const refused = (name: string, args: Record<string, unknown>) => {
    const result = refusal(name);
    fire(name, args, { outcome: 'error', result, error: (result.content[0] as { text: string }).text });
  };
  const ok = (name: string, args: Record<string, unknown>, text = "### Ran Playwright code\n```js\nawait page.getByRole('button').click();\n```") =>
    fire(name, args, { outcome: 'ok', result: { content: [{ type: 'text', text }] } });
  return { emitter, fire, refused, ok };
}

function journalOver(feed: ReturnType<typeof calls>): StepJournal {
  return new StepJournal({ onToolCall: feed.emitter.event, onDidChangeStatus: new Emitter<BridgeStatus>().event }, () => false);
}

function timelineOver(feed: ReturnType<typeof calls>, maxBytes = 1024 * MB) {
  const messages = new Emitter<HostToPanel>();
  const timeline = new Timeline(
    {
      onToolCall: feed.emitter.event,
      onObservation: new Emitter<ObservationEvent>().event,
      onMessage: messages.event,
      onFrame: new Emitter<FrameMessage>().event,
      clientsIsolated: () => false,
      readSnapshot: () => undefined,
      checkpointNow: async () => undefined,
      watchingWindow: () => true,
    },
    () => maxBytes,
  );
  return { timeline, messages };
}

function storeOver(feed: ReturnType<typeof calls>) {
  const { events, observations } = fakeLiveViewSource(feed.emitter);
  return { store: new LiveViewStore(events, () => 'Chromium'), observations };
}

/** V8's gc, turned on here when node was started without --expose-gc. */
function collector(): () => void {
  const given = (globalThis as { gc?: () => void }).gc;
  if (given) return given;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

describe('the byte measure and the cut of kept values', () => {
  it('measures without walking past its cap, and leaves a value that fits as it is', () => {
    let read = 0;
    const wide: Record<string, string> = {};
    for (let i = 0; i < 100_000; i++) Object.defineProperty(wide, `k${i}`, { enumerable: true, get: () => (read++, 'x'.repeat(100)) });
    assert.ok(keptBytes(wide, 64 * 1024) > 64 * 1024);
    assert.ok(read < 1000, `${read} entries read to tell 64 KB`);
    assert.strictEqual(keptBytes('abc'), 6);
    const small = { url: 'http://127.0.0.1/', n: 1 };
    assert.strictEqual(boundValue(small, MAX_KEPT_ARGS_BYTES).value, small, 'no copy of what fits');
  });

  it('cuts strings, wide objects, long arrays and huge keys to the budget, saying so', () => {
    for (const value of [
      { text: 'x'.repeat(3 * MB) },
      Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`key${i}`, 'value'])),
      { values: Array.from({ length: 50_000 }, (_, i) => `option ${i}`) },
      { ['k'.repeat(MB)]: 1, other: 'kept' },
      { a: { b: { c: { d: 'y'.repeat(MB) } } } },
    ]) {
      const { value: cut, cut: wasCut } = boundValue(value, MAX_KEPT_ARGS_BYTES);
      assert.ok(wasCut);
      assert.ok(keptBytes(cut) <= MAX_KEPT_ARGS_BYTES + MARKER_SLACK, `${keptBytes(cut)} bytes`);
      assert.match(JSON.stringify(cut), /more (characters|entries|items) cut/);
    }
  });
});

describe('the step journal keeps a bounded number of bytes', () => {
  it('60 calls refused for their 3 MB arguments keep a short record each: the tool, a few hundred bytes of arguments, the error line', () => {
    const feed = calls();
    const journal = journalOver(feed);
    for (let i = 0; i < 60; i++) feed.refused('browser_type', hugeArgs(i));
    assert.strictEqual(journal.steps.length, 60, 'each refusal is still a step');
    for (const step of journal.steps) {
      assert.ok(keptBytes(step.args) <= REFUSED_ARGS_BYTES + MARKER_SLACK, `a refused step keeps ${keptBytes(step.args)} bytes of arguments`);
      assert.strictEqual(step.tool, 'browser_type');
      assert.strictEqual(step.ok, false);
    }
    const total = keptBytes(journal.steps);
    assert.ok(total <= 60 * 4096, `the journal keeps ${total} bytes for 60 refused calls`);
    assert.match(JSON.stringify(journal.steps[0].args), /more characters cut/);
    // An exported test leaves them out, as any failed step.
    const spec = writeSpec(journal.steps, { title: 't', readSnapshot: () => undefined, readUpload: () => undefined });
    assert.strictEqual(spec.stepLines.length, 0);
    assert.ok(spec.leftOut.every(left => left.why === 'it failed'));
  });

  it('a step that worked keeps at most MAX_KEPT_ARGS_BYTES of its arguments, cut with a marker', () => {
    const feed = calls();
    const journal = journalOver(feed);
    feed.ok('browser_type', hugeArgs(1));
    feed.ok('browser_click', { element: 'Go', target: 'e3' });
    const [big, small] = journal.steps;
    assert.ok(keptBytes(big.args) <= MAX_KEPT_ARGS_BYTES + MARKER_SLACK, `${keptBytes(big.args)} bytes`);
    assert.strictEqual(big.args.target, 'e12', 'small arguments beside the cut one are kept whole');
    assert.match(String(big.args.text), /more characters cut\)$/);
    assert.deepStrictEqual(small.args, { element: 'Go', target: 'e3' });
  });

  it('all its steps together keep to MAX_JOURNAL_BYTES, the oldest dropped first', () => {
    const feed = calls();
    const journal = journalOver(feed);
    for (let i = 0; i < 400; i++) feed.ok('browser_type', { element: 'Notes', target: 'e5', text: `${i} ${'n'.repeat(60_000)}` });
    const total = keptBytes(journal.steps);
    assert.ok(total <= MAX_JOURNAL_BYTES, `${total} bytes kept, bound ${MAX_JOURNAL_BYTES}`);
    assert.ok(journal.dropped > 0, 'the oldest went');
    assert.match(String(journal.steps.at(-1)!.args.text), /^399 /, 'the newest is kept');
  });
});

describe('what is kept holds on to nothing it was cut from', () => {
  it('20 refused and 20 working 3 MB calls leave the heap of the journal, timeline and store under 8 MB larger', () => {
    const gc = collector();
    const feed = calls();
    const journal = journalOver(feed);
    const { timeline } = timelineOver(feed);
    const { store } = storeOver(feed);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20; i++) {
      // Each its own 3 MB, and its error line a view into a 3 MB text, as split and slice make them.
      const long = `${i} `.padEnd(3 * MB, 'e');
      feed.fire(
        'browser_type',
        { text: `${i} `.padEnd(3 * MB, 'x') },
        { outcome: 'error', result: refusal('browser_type'), error: `${long}\nmore`.split('\n')[0] },
      );
      feed.ok('browser_type', { text: `${i} `.padEnd(3 * MB, 'y') });
    }
    gc();
    const grown = (process.memoryUsage().heapUsed - before) / MB;
    assert.strictEqual(journal.steps.length, 40);
    assert.strictEqual(timeline.steps.length, 40);
    assert.ok(grown < 8, `the heap grew by ${grown.toFixed(1)} MB`);
    store.dispose();
    timeline.dispose();
    journal.dispose();
  });
});

describe('the timeline keeps a bounded number of bytes', () => {
  it('60 refused 3 MB calls keep a short record each; a step that worked keeps at most MAX_KEPT_ARGS_BYTES of arguments', () => {
    const feed = calls();
    const { timeline } = timelineOver(feed);
    for (let i = 0; i < 60; i++) feed.refused('browser_type', hugeArgs(i));
    feed.ok('browser_type', hugeArgs(60));
    const steps = timeline.steps;
    assert.strictEqual(steps.length, 61);
    for (const step of steps.slice(0, 60)) {
      assert.ok(keptBytes(step.args) <= REFUSED_ARGS_BYTES + MARKER_SLACK, `a refused step keeps ${keptBytes(step.args)} bytes of arguments`);
      assert.ok((step.error ?? '').length <= MAX_KEPT_LINE_CHARS + 50);
    }
    assert.ok(keptBytes(steps[60].args) <= MAX_KEPT_ARGS_BYTES + MARKER_SLACK, `${keptBytes(steps[60].args)} bytes`);
    assert.ok(timeline.keptBytes <= 60 * 4096 + MAX_KEPT_ARGS_BYTES + MARKER_SLACK, `the timeline counts ${timeline.keptBytes} bytes`);
  });

  it('a long error line and a long title are kept as one short line', () => {
    const feed = calls();
    const { timeline } = timelineOver(feed);
    feed.fire('bridge_restore_step', {}, { outcome: 'error', error: `could not restore: ${'e'.repeat(MB)}`, title: `t${'t'.repeat(MB)}` });
    const [step] = timeline.steps;
    assert.ok(step.error!.length <= MAX_KEPT_LINE_CHARS + 50, `${step.error!.length} characters of error`);
    assert.ok(step.title.length <= MAX_KEPT_LINE_CHARS + 50, `${step.title.length} characters of title`);
  });

  it('the console lines gathered for a step under way keep to MAX_STEP_ROWS_BYTES', () => {
    const feed = calls();
    const { timeline, messages } = timelineOver(feed);
    const text = 'c'.repeat(8000);
    for (let seq = 1; seq <= 2000; seq += 100) {
      const rows: ConsoleRow[] = Array.from({ length: 100 }, (_, k) => ({ seq: seq + k, level: 'info', text, time: seq + k }));
      messages.fire({ type: 'console', rows, dropBefore: 0 });
    }
    feed.ok('browser_snapshot', {});
    const kept = keptBytes(timeline.steps[0].console);
    assert.ok(kept <= MAX_STEP_ROWS_BYTES, `${kept} bytes of console rows kept for one step, bound ${MAX_STEP_ROWS_BYTES}`);
    assert.strictEqual(timeline.steps[0].console.at(-1)!.seq, 2000, 'the newest lines are the ones kept');
  });
});

describe("the panel's store keeps each call row short", () => {
  it('a call whose error and title are megabytes keeps one short line of each', () => {
    const feed = calls();
    const { store, observations } = storeOver(feed);
    for (let i = 0; i < 60; i++) feed.fire('browser_type', hugeArgs(i), { outcome: 'error', error: `refused ${'r'.repeat(MB)}`, title: `T${'t'.repeat(MB)}` });
    observations.fire({ kind: 'sessions', sessions: [{ id: 's1', label: `client ${'l'.repeat(MB)}`, watched: true }] } as ObservationEvent);
    const { activity, console } = store.snapshot();
    for (const row of activity) {
      if (!('id' in row)) continue;
      assert.ok((row.error ?? '').length <= MAX_KEPT_LINE_CHARS + 50, `${row.error?.length} characters of error`);
      assert.ok(row.title.length <= MAX_KEPT_LINE_CHARS + 50, `${row.title.length} characters of title`);
    }
    const marker = console.find(row => 'marker' in row) as { marker: string } | undefined;
    assert.ok(marker && marker.marker.length <= MAX_KEPT_LINE_CHARS + 100, `${marker?.marker.length} characters of marker`);
    assert.ok(store.keptBytes <= 60 * 4096 + 4096, `the store keeps ${store.keptBytes} bytes`);
    store.dispose();
  });
});

describe('the rows waiting for a panel keep to a bound in bytes and in rows', () => {
  it('a burst of long rows goes at once past ROW_BATCH_MAX_BYTES, nothing lost', () => {
    const sent: HostToPanel[] = [];
    const batch = new RowBatch(message => sent.push(message), 60_000);
    const text = 'p'.repeat(4000);
    for (let seq = 1; seq <= 2000; seq++) batch.add({ type: 'console', rows: [{ seq, level: 'info', text, time: seq }], dropBefore: 0 });
    assert.ok(sent.length > 0, 'it did not wait for its delay');
    for (const message of sent) {
      const bytes = keptBytes((message as { rows: unknown[] }).rows);
      assert.ok(bytes <= ROW_BATCH_MAX_BYTES + 2 * 4000 + 200, `${bytes} bytes waited in one batch`);
    }
    batch.flush();
    const seqs = sent.flatMap(message => (message as { rows: { seq: number }[] }).rows.map(row => row.seq));
    assert.deepStrictEqual(
      seqs,
      Array.from({ length: 2000 }, (_, i) => i + 1),
    );
  });

  it('so does a burst of many short rows past ROW_BATCH_MAX_ROWS', () => {
    const sent: HostToPanel[] = [];
    const batch = new RowBatch(message => sent.push(message), 60_000);
    for (let seq = 1; seq <= 5 * ROW_BATCH_MAX_ROWS; seq++) batch.add({ type: 'console', rows: [{ seq, level: 'info', text: 'x', time: seq }], dropBefore: 0 });
    assert.ok(sent.length >= 4, `${sent.length} messages`);
    assert.ok(sent.every(message => (message as { rows: unknown[] }).rows.length <= ROW_BATCH_MAX_ROWS));
    batch.clear();
  });
});
