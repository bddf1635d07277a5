import * as assert from 'assert';
import * as os from 'os';
import * as path from 'path';
import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ScriptedChild } from '../support/scriptedChild';
import { Supervisor, BridgeState } from '../../src/core/supervision/supervisor';
import { CALL_MARKS_META } from '../../src/protocol/callMarks';
import { PersonControl } from '../../src/core/supervision/personControl';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';

const TOOLS: Tool[] = [{ name: 'browser_navigate', inputSchema: { type: 'object' } }];

interface Script {
  /** Per start attempt: 'ok', 'fail' (spawn error), 'badlist' (tools/list fails), or a promise gate. */
  plan: ('ok' | 'fail' | 'badlist' | Promise<void>)[];
}

function harness(script: Script = { plan: [] }) {
  const children: ScriptedChild[] = [];
  let clock = 0;
  let attempts = 0;
  const states: BridgeState[] = [];
  const supervisor = new Supervisor({
    factory: async events => {
      const step = script.plan[attempts++] ?? 'ok';
      if (step instanceof Promise) await step;
      if (step === 'fail') throw new Error('spawn ENOENT');
      // Each child its own copy: a test that changes one child's list must not change the next one's.
      const child = new ScriptedChild(
        events,
        TOOLS.map(tool => ({ ...tool })),
      );
      if (step === 'badlist') child.failListTools = true;
      children.push(child);
      return child;
    },
    log: () => undefined,
    callTimeoutMs: () => 1000,
    backoffMs: [1000, 5000],
    now: () => clock,
  });
  supervisor.onDidChangeStatus(status => states.push(status.state));
  return { supervisor, children, states, attempts: () => attempts, advance: (ms: number) => (clock += ms) };
}

function text(result: CallToolResult): string {
  return result.content.map(part => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}

describe('Supervisor (scripted child)', () => {
  it('starts nothing until the first call, then starts once', async () => {
    const h = harness();
    assert.strictEqual(h.attempts(), 0);
    assert.strictEqual(h.supervisor.status.state, 'idle');
    const [a, b] = await Promise.all([h.supervisor.callTool('browser_navigate', { url: 'x' }), h.supervisor.callTool('browser_snapshot', {})]);
    assert.strictEqual(h.attempts(), 1);
    assert.match(text(a), /browser_navigate done/);
    assert.match(text(b), /browser_snapshot done/);
    assert.deepStrictEqual(h.states, ['starting', 'ready']);
    assert.doesNotMatch(text(a), /fresh browser/, 'a first start is not a loss of state');
    await h.supervisor.dispose();
  });

  it('shares one restart among calls that find the child dead and forwards each exactly once', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_navigate', { url: 'first' });
    h.children[0].die();
    assert.strictEqual(h.supervisor.status.state, 'idle');
    const results = await Promise.all([1, 2, 3, 4, 5].map(i => h.supervisor.callTool('browser_navigate', { url: `page${i}` })));
    assert.strictEqual(h.attempts(), 2, 'five waiting calls, one restart');
    const replacement = h.children[1];
    assert.deepStrictEqual(replacement.calls.map(c => (c.args as { url: string }).url).sort(), ['page1', 'page2', 'page3', 'page4', 'page5']);
    const noticed = results.filter(r => /earlier pages, tabs, form input and login state are gone/.test(text(r)));
    assert.strictEqual(noticed.length, 1, 'exactly the first result after the restart tells the model');
    assert.match(text(noticed[0]), /stopped unexpectedly/);
    assert.strictEqual(h.children[0].disposeCount >= 1, true, 'the dead tree is disposed');
    assert.deepStrictEqual(h.states, ['starting', 'ready', 'idle', 'restarting', 'ready']);
    await h.supervisor.dispose();
  });

  it('does not resend a call that was in flight when the child died', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].holdCalls = true;
    const inFlight = h.supervisor.callTool('browser_navigate', { url: 'slow' });
    await new Promise(resolve => setImmediate(resolve));
    h.children[0].die();
    const result = await inFlight;
    assert.strictEqual(result.isError, true);
    assert.match(text(result), /stopped while running browser_navigate/);
    assert.match(text(result), /may or may not have taken effect/);
    const next = await h.supervisor.callTool('browser_navigate', { url: 'next' });
    assert.deepStrictEqual(
      h.children[1].calls.map(c => (c.args as { url: string }).url),
      ['next'],
      'the in-flight call is not replayed',
    );
    assert.match(text(next), /fresh browser/);
    await h.supervisor.dispose();
  });

  it('sends a call that never left to the replacement, once', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    // The process is gone but its exit has not been reported yet: the call cannot be sent.
    h.children[0].exited = true;
    const result = await h.supervisor.callTool('browser_navigate', { url: 'x' });
    assert.match(text(result), /browser_navigate done by/);
    assert.strictEqual(h.children.length, 2);
    assert.strictEqual(h.children[1].calls.length, 1);
    await h.supervisor.dispose();
  });

  it('forwards nothing when the replacement fails readiness, says why, and backs off', async () => {
    const h = harness({ plan: ['ok', 'badlist'] });
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].die();
    const results = await Promise.allSettled([
      h.supervisor.callTool('browser_navigate', { url: 'a' }),
      h.supervisor.callTool('browser_navigate', { url: 'b' }),
    ]);
    for (const result of results) {
      // A failed start is a result that says so (the one result builder), not a rejection each door words its own way.
      assert.strictEqual(result.status, 'fulfilled');
      const failed = (result as PromiseFulfilledResult<CallToolResult>).value;
      assert.strictEqual(failed.isError, true);
      assert.match(text(failed), /could not start its browser server: tools\/list answered garbage/);
    }
    assert.strictEqual(h.children[1].calls.length, 0, 'no call reaches a child that was not proven ready');
    assert.ok(h.children[1].disposeCount >= 1, 'the half-started child is disposed');
    assert.strictEqual(h.supervisor.status.state, 'failed');

    await failsWith(h.supervisor.callTool('browser_navigate', { url: 'c' }), /tries again in 1 s/);
    assert.strictEqual(h.attempts(), 2, 'no new attempt during the backoff');
    h.advance(1001);
    const ok = await h.supervisor.callTool('browser_navigate', { url: 'd' });
    assert.match(text(ok), /done by/);
    assert.strictEqual(h.attempts(), 3);
    await h.supervisor.dispose();
  });

  it('grows the backoff after repeated failures and resets it after a success', async () => {
    const h = harness({ plan: ['fail', 'fail', 'ok'] });
    await failsWith(h.supervisor.callTool('t', {}), /spawn ENOENT/);
    h.advance(1000);
    await failsWith(h.supervisor.callTool('t', {}), /spawn ENOENT/);
    h.advance(1000);
    await failsWith(h.supervisor.callTool('t', {}), /tries again in 4 s/);
    h.advance(4000);
    await h.supervisor.callTool('t', {});
    assert.strictEqual(h.supervisor.status.state, 'ready');
    await h.supervisor.dispose();
  });

  it('restarts on command with new settings and tells the model', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    let usedNewFactory = false;
    await h.supervisor.restart('Restart Browser command', async events => {
      usedNewFactory = true;
      const child = new ScriptedChild(events, TOOLS);
      h.children.push(child);
      return child;
    });
    assert.ok(usedNewFactory);
    assert.ok(h.children[0].disposeCount >= 1);
    assert.strictEqual(h.supervisor.status.state, 'ready');
    const result = await h.supervisor.callTool('browser_snapshot', {});
    assert.match(text(result), /browser was restarted \(Restart Browser command\)/);
    await h.supervisor.dispose();
  });

  it('disposes idempotently, kills a child that finishes starting afterwards, and refuses later calls', async () => {
    let open!: () => void;
    const gate = new Promise<void>(resolve => (open = resolve));
    const h = harness({ plan: [gate] });
    const call = h.supervisor.callTool('browser_navigate', { url: 'x' });
    const first = h.supervisor.dispose();
    const second = h.supervisor.dispose();
    assert.strictEqual(first, second);
    open();
    await first;
    await failsWith(call, /shut down/);
    assert.strictEqual(h.children.length, 1);
    assert.ok(h.children[0].disposeCount >= 1, 'a child that became ready after dispose is killed');
    await failsWith(h.supervisor.callTool('browser_navigate', {}), /shut down/);
  });

  it('reports changed tool lists', async () => {
    const h = harness();
    const seen: number[] = [];
    h.supervisor.onDidChangeTools(tools => seen.push(tools.length));
    await h.supervisor.listTools();
    h.children[0].tools.push({ name: 'webmcp_tool', inputSchema: { type: 'object' } });
    h.children[0].events.onToolsChanged();
    await new Promise(resolve => setImmediate(resolve));
    assert.deepStrictEqual(seen, [1, 2]);
    await h.supervisor.dispose();
  });

  it('passes on no "changed" for a tool list that did not change (upstream says so at every browser launch)', async () => {
    const h = harness();
    const seen: number[] = [];
    h.supervisor.onDidChangeTools(tools => seen.push(tools.length));
    await h.supervisor.callTool('browser_navigate', { url: 'x' });
    assert.deepStrictEqual(seen, [1], 'the first start reports the list');
    h.children[0].events.onToolsChanged();
    await new Promise(resolve => setImmediate(resolve));
    assert.deepStrictEqual(seen, [1], 'the same list again is no change');
    h.children[0].tools[0] = { ...h.children[0].tools[0], description: 'new text' };
    h.children[0].events.onToolsChanged();
    await new Promise(resolve => setImmediate(resolve));
    assert.deepStrictEqual(seen, [1, 1], 'a changed schema or text is a change');
    await h.supervisor.restart('test');
    assert.deepStrictEqual(seen, [1, 1, 1], 'a restart with the same list as before the change reports it back');
    await h.supervisor.restart('test');
    assert.deepStrictEqual(seen, [1, 1, 1], 'a restart with the same list is no change');
    await h.supervisor.dispose();
  });
});

describe('Supervisor: telling the model its browser state was lost', () => {
  it('sets the note off from the result by a blank line, inside its first text part', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    await h.supervisor.restart('Restart Browser command');
    const result = await h.supervisor.callTool('browser_snapshot', {});
    assert.strictEqual(result.content.length, 1);
    const first = result.content[0] as { text: string };
    assert.match(first.text, /^Note: the browser was restarted \(Restart Browser command\)\. .*earlier element references\.\n\nbrowser_snapshot done by \d+$/s);
    await h.supervisor.dispose();
  });

  it('leaves the note for the model when the panel starts the browser (Start Browser after a restart)', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    await h.supervisor.restart('Restart Browser command');
    const panel = await h.supervisor.callTool('browser_navigate', { url: 'about:blank' }, { door: 'panel' });
    assert.doesNotMatch(text(panel), /Note:/);
    const model = await h.supervisor.callTool('browser_snapshot', {}, { door: 'mcp' });
    assert.match(text(model), /^Note: the browser was restarted/);
    const later = await h.supervisor.callTool('browser_snapshot', {});
    assert.doesNotMatch(text(later), /Note:/, 'once only');
    await h.supervisor.dispose();
  });

  it('turns the child\'s "browser lost before this call" mark into the note, once, and never shows the mark', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].nextMeta = { [CALL_MARKS_META]: { lostBefore: 'before this call, the browser exited unexpectedly.' } };
    const panel = await h.supervisor.callTool('browser_navigate', { url: 'about:blank' }, { door: 'panel' });
    assert.doesNotMatch(text(panel), /Note:/);
    assert.strictEqual(panel._meta, undefined, "the mark is ours, not the client's");
    const model = await h.supervisor.callTool('browser_snapshot', {});
    assert.match(text(model), /^Note: before this call, the browser exited unexpectedly\. This call ran in a fresh browser/);
    h.children[0].nextMeta = { [CALL_MARKS_META]: { lostBefore: 'before this call, it crashed.' } };
    const direct = await h.supervisor.callTool('browser_snapshot', {});
    assert.match(text(direct), /^Note: before this call, it crashed\.[^]*\n\nbrowser_snapshot done/);
    assert.strictEqual(direct._meta, undefined);
    await h.supervisor.dispose();
  });
});

describe('Supervisor activity and live view', () => {
  it('reports each call twice, when it starts and when it ends, with its door and outcome', async () => {
    const h = harness();
    const seen: { id: number; name: string; door: string; outcome?: string; durationMs?: number }[] = [];
    h.supervisor.onToolCall(record =>
      seen.push({ id: record.id, name: record.name, door: record.door, outcome: record.outcome, durationMs: record.durationMs }),
    );
    await h.supervisor.callTool('browser_navigate', { url: 'x' }, { door: 'mcp' });
    assert.strictEqual(seen.length, 2);
    assert.deepStrictEqual([seen[0].name, seen[0].door, seen[0].outcome], ['browser_navigate', 'mcp', undefined]);
    assert.strictEqual(seen[1].id, seen[0].id);
    assert.strictEqual(seen[1].outcome, 'ok');
    assert.ok(seen[1].durationMs !== undefined);
    await h.supervisor.dispose();
  });

  it('hands the live-view wish to the running child and to every later one', async () => {
    const h = harness();
    const wish = { enabled: true, maxWidth: 800, maxHeight: 450 };
    h.supervisor.setLiveView(wish);
    await h.supervisor.callTool('browser_snapshot', {});
    assert.deepStrictEqual(h.children[0].liveViews, [wish], 'a child started after the wish gets it');
    h.children[0].die();
    await h.supervisor.callTool('browser_snapshot', {});
    assert.deepStrictEqual(h.children[1].liveViews, [wish], 'and so does its replacement');
    await h.supervisor.dispose();
  });
});

describe('Supervisor: arguments it refuses before they reach the browser', () => {
  it('names an argument the tool does not take, and what it takes; nothing is sent', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_navigate', { url: 'x' });
    h.children[0].tools[0] = { name: 'browser_navigate', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } };
    h.children[0].events.onToolsChanged();
    await new Promise(resolve => setImmediate(resolve));
    const result = await h.supervisor.callTool('browser_navigate', { url: 'x', ulr: 'y' });
    assert.strictEqual(result.isError, true);
    assert.strictEqual(text(result), 'browser_navigate does not take the argument "ulr". It takes: url. Nothing ran.');
    assert.strictEqual(h.children[0].calls.length, 1, 'only the first, well-formed call was sent');
    await h.supervisor.dispose();
  });

  it('refuses arguments over 1 MB with their size', async () => {
    const h = harness();
    const result = await h.supervisor.callTool('browser_type', { text: 'x'.repeat(1_100_000) });
    assert.strictEqual(result.isError, true);
    assert.match(text(result), /^The arguments of this call are 1100\d+ bytes; the bridge accepts at most 1048576 bytes per call\. Nothing ran\.$/);
    assert.strictEqual(h.children[0].calls.length, 0);
    await h.supervisor.dispose();
  });
});

describe('Supervisor: Restart Browser and calls made meanwhile', () => {
  it('starts the new child only after the old one is gone, and a call made meanwhile waits for it and succeeds', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    let release!: () => void;
    h.children[0].disposeGate = new Promise<void>(resolve => (release = resolve));
    const restarting = h.supervisor.restart('Restart Browser command');
    await new Promise(resolve => setImmediate(resolve));
    const call = h.supervisor.callTool('browser_navigate', { url: 'during' });
    await new Promise(resolve => setTimeout(resolve, 20));
    assert.strictEqual(h.attempts(), 1, 'no second browser while the first still holds the profile');
    release();
    await restarting;
    const result = await call;
    assert.strictEqual(h.attempts(), 2, 'one new child for the restart and the call');
    assert.match(text(result), /^Note: the browser was restarted[^]*browser_navigate done by/);
    assert.deepStrictEqual(
      h.children[1].calls.map(c => c.name),
      ['browser_navigate'],
    );
    await h.supervisor.dispose();
  });
});

describe('Supervisor: the finished record', () => {
  const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('makes a thumbnail of an image result only while someone shows thumbnails', async () => {
    const h = harness();
    const ended: (string | undefined)[] = [];
    h.supervisor.onToolCall(record => {
      if (record.outcome) ended.push(record.thumbnail);
    });
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].respond = () => ({ content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }] });
    await h.supervisor.callTool('browser_take_screenshot', {});
    const reader = h.supervisor.wantThumbnails();
    await h.supervisor.callTool('browser_take_screenshot', {});
    reader.dispose();
    await h.supervisor.callTool('browser_take_screenshot', {});
    assert.strictEqual(ended[1], undefined, 'no panel: no thumbnail work');
    assert.match(ended[2] ?? '', /^data:image\/(png|jpeg);base64,/);
    assert.strictEqual(ended[3], undefined);
    await h.supervisor.dispose();
  });
});

describe('Supervisor: the person takes the browser and hands it back', () => {
  const tabs = (url: string, title: string) => ({ kind: 'tabs' as const, tabs: [{ id: 'p1', url, title, current: true }] });

  it('makes agent calls wait while the person drives, then runs them and says what changed', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].events.onObservation(tabs('http://x/login', 'Login'));
    const control: boolean[] = [];
    h.supervisor.onDidChangeControl(value => control.push(value));
    void h.supervisor.takeControl();
    const progress: string[] = [];
    const waiting = h.supervisor.callTool('browser_click', { target: 'e1' }, { door: 'mcp', onProgress: p => progress.push(p.message ?? '') });
    await new Promise(resolve => setTimeout(resolve, 20));
    assert.strictEqual(h.children[0].calls.length, 1, "the agent's call waits");
    assert.match(progress[0], /Waiting: the person has the browser/);
    const panel = await h.supervisor.callTool('browser_snapshot', {}, { door: 'panel' });
    assert.doesNotMatch(text(panel), /Note/, "the panel's own calls do not wait");
    h.children[0].events.onObservation(tabs('http://x/home', 'Home'));
    await h.supervisor.handBack();
    const result = await waiting;
    assert.match(
      text(result),
      /^Note: the person drove the browser for \d+ s while this call waited\. Now the current tab is "Home" at http:\/\/x\/home \(it was "Login" at http:\/\/x\/login\)\. Take a snapshot/,
    );
    assert.match(text(result), /browser_click done by/);
    assert.deepStrictEqual(control, [true, false]);
    assert.doesNotMatch(text(await h.supervisor.callTool('browser_snapshot', {})), /Note/, 'once');
    await h.supervisor.dispose();
  });

  it('gives up with a clear error when the browser is not handed back in time', async () => {
    const children: ScriptedChild[] = [];
    const supervisor = new Supervisor({
      factory: async events => {
        const child = new ScriptedChild(events, TOOLS);
        children.push(child);
        return child;
      },
      log: () => undefined,
      callTimeoutMs: () => 1000,
      handBackTimeoutMs: () => 50,
    });
    void supervisor.takeControl();
    const result = await supervisor.callTool('browser_navigate', { url: 'x' });
    assert.strictEqual(result.isError, true);
    assert.match(
      text(result),
      /did not run: the person has had control of the browser for \d+ s and has not handed it back \(the limit is 0 s\)\. Ask them to press Hand back/,
    );
    assert.strictEqual(children.length, 0, 'nothing was sent');
    await supervisor.dispose();
  });

  it('checks the tool policy again after waiting for the person: readonly turned on meanwhile refuses the call', async () => {
    const children: ScriptedChild[] = [];
    let readonly = false;
    const supervisor = new Supervisor({
      factory: async events => {
        const child = new ScriptedChild(events, TOOLS);
        children.push(child);
        return child;
      },
      log: () => undefined,
      callTimeoutMs: () => 1000,
      toolPolicy: () => ({ readonly, allow: [], deny: [] }),
    });
    void supervisor.takeControl();
    const waiting = supervisor.callTool('browser_navigate', { url: 'x' });
    readonly = true;
    await supervisor.handBack();
    const result = await waiting;
    assert.strictEqual(result.isError, true, text(result));
    assert.match(text(result), /readonly/i);
    assert.strictEqual(
      children.reduce((n, c) => n + c.calls.length, 0),
      0,
      'nothing was sent',
    );
    await supervisor.dispose();
  });

  it("lists the person's navigation under their own door", async () => {
    const h = harness();
    const records: { door: string; title: string; outcome?: string }[] = [];
    h.supervisor.onToolCall(record => records.push({ door: record.door, title: record.title, outcome: record.outcome }));
    await h.supervisor.pageAction({ action: 'navigate', url: 'http://x/' });
    await h.supervisor.pageAction({ action: 'reload' });
    assert.deepStrictEqual(
      records.filter(r => r.outcome),
      [
        { door: 'person', title: 'Opening http://x/', outcome: 'ok' },
        { door: 'person', title: 'Reloading the page', outcome: 'ok' },
      ],
    );
    assert.deepStrictEqual(h.children[0].pageActions, [{ action: 'navigate', url: 'http://x/' }, { action: 'reload' }]);
    h.supervisor.sendInput({ kind: 'text', text: 'hi' });
    assert.deepStrictEqual(h.children[0].inputs, [{ kind: 'text', text: 'hi' }]);
    records.length = 0;
    h.advance(5000);
    for (const key of ['a', 'b', 'c']) h.supervisor.sendInput({ kind: 'key', action: 'down', key, modifiers: [] });
    h.supervisor.sendInput({ kind: 'mouse', action: 'move', x: 0.1, y: 0.1, button: 'left', clickCount: 1 });
    h.supervisor.sendInput({ kind: 'mouse', action: 'down', x: 0.1, y: 0.1, button: 'left', clickCount: 1 });
    assert.deepStrictEqual(
      records.filter(r => r.outcome).map(r => [r.door, r.title]),
      [
        ['person', 'Typing on the page'],
        ['person', 'Clicking on the page'],
      ],
      'one row per burst of typing, one per click; moves are not listed',
    );
    // The child says what was under the click: its row is named by it (the same row, updated).
    const clickRows = () => records.filter(r => r.outcome && r.title.startsWith('Clicking'));
    h.children[0].events.onObservation({ kind: 'personClicked', role: 'link', name: 'Pricing' });
    assert.deepStrictEqual(clickRows().at(-1)?.title, 'Clicking link “Pricing”');
    h.supervisor.sendInput({ kind: 'mouse', action: 'down', x: 0.5, y: 0.5, button: 'left', clickCount: 1 });
    h.children[0].events.onObservation({ kind: 'personClicked', role: 'generic', name: 'all the text of a long block' });
    assert.deepStrictEqual(clickRows().at(-1)?.title, 'Clicking the page', 'a plain block is not named by its text');
    await h.supervisor.dispose();
  });
});

describe('a call resent to a replacement child', () => {
  it("is checked again against that child: its file names resolve in the replacement's output folder", async () => {
    const tools: Tool[] = [{ name: 'browser_take_screenshot', inputSchema: { type: 'object', properties: { filename: { type: 'string' } } } }];
    const children: ScriptedChild[] = [];
    const supervisor = new Supervisor({
      factory: async events => {
        const child = new ScriptedChild(events, tools);
        child.facts = { outputDir: path.join(os.tmpdir(), `pwb-out-${children.length}`), isolation: 'shared', allowRunCodeForClients: false };
        children.push(child);
        return child;
      },
      log: () => undefined,
      callTimeoutMs: () => 1000,
    });
    await supervisor.callTool('browser_take_screenshot', {});
    children[0].goneBeforeNextCall = true;
    const result = await supervisor.callTool('browser_take_screenshot', { filename: 'shot.png' });
    assert.ok(!result.isError, text(result));
    assert.strictEqual(children.length, 2, 'the replacement took the call');
    assert.deepStrictEqual(
      children[1].calls.map(c => c.args),
      [{ filename: path.join(os.tmpdir(), 'pwb-out-1', 'shot.png') }],
    );
    await supervisor.dispose();
  });
});

describe("the watched tabs: one copy, the supervisor's, read by the panel's store", () => {
  const tab = (id: string, current: boolean) => ({ id, url: `http://127.0.0.1/${id}`, title: id, current });

  it('holds what the child last said, and empties when the browser is lost, another context is watched, or a new child starts', async () => {
    const h = harness();
    const store = new LiveViewStore(h.supervisor, () => 'Chromium');
    await h.supervisor.callTool('browser_snapshot', {});
    const events = h.children[0].events;
    events.onObservation({ kind: 'tabs', tabs: [tab('a', false), tab('b', true)] });
    assert.deepStrictEqual(
      h.supervisor.tabs.map(t => t.id),
      ['a', 'b'],
    );
    assert.strictEqual(store.currentTab?.id, 'b', 'the store reads the same tabs');
    assert.deepStrictEqual(
      store.state().tabs.map(t => t.id),
      ['a', 'b'],
    );
    events.onBrowserState({ state: 'lost', message: 'gone' });
    assert.deepStrictEqual(h.supervisor.tabs, []);
    assert.strictEqual(store.currentTab, undefined);
    events.onObservation({ kind: 'tabs', tabs: [tab('c', true)] });
    events.onObservation({
      kind: 'sessions',
      sessions: [
        { id: 'window', label: 'w', watched: false },
        { id: 'client-1', label: 'c', watched: true },
      ],
    });
    assert.deepStrictEqual(h.supervisor.tabs, [], 'another context watched: its tabs come when it says them');
    events.onObservation({ kind: 'tabs', tabs: [tab('d', true)] });
    await h.supervisor.restart('test');
    assert.deepStrictEqual(h.supervisor.tabs, [], "a new child: the old browser's tabs are gone");
    store.dispose();
    await h.supervisor.dispose();
  });

  it('tells the model what the person changed, from the same tabs', async () => {
    const h = harness();
    await h.supervisor.callTool('browser_snapshot', {});
    h.children[0].events.onObservation({ kind: 'tabs', tabs: [tab('a', true)] });
    void h.supervisor.takeControl();
    h.children[0].events.onObservation({ kind: 'tabs', tabs: [tab('a', false), tab('b', true)] });
    await h.supervisor.handBack();
    assert.match(
      text(await h.supervisor.callTool('browser_snapshot', {})),
      /the current tab is "b" at http:\/\/127\.0\.0\.1\/b \(it was "a" at http:\/\/127\.0\.0\.1\/a; 2 tabs open, 1 before\)/,
    );
    await h.supervisor.dispose();
  });
});

describe('PersonControl', () => {
  it("leaves no listener on the caller's signal once a wait ends", async () => {
    // Node has this since v15; the pinned @types/node does not declare it.
    const { getEventListeners } = (await import('events')) as unknown as { getEventListeners(target: EventTarget, name: string): unknown[] };
    const person = new PersonControl(
      Date.now,
      () => undefined,
      () => [],
    );
    const controller = new AbortController();
    person.take();
    const waiting = person.wait(60_000, controller.signal);
    assert.strictEqual(getEventListeners(controller.signal, 'abort').length, 1);
    person.handBack();
    assert.deepStrictEqual(await waiting, { outcome: 'released' });
    assert.strictEqual(getEventListeners(controller.signal, 'abort').length, 0, 'a long-lived signal does not collect listeners');
    person.dispose();
  });
});

/** The call came back as an error result whose text matches: how the bridge reports a browser that cannot start. */
async function failsWith(call: Promise<CallToolResult>, reason: RegExp): Promise<void> {
  const result = await call;
  assert.strictEqual(result.isError, true, text(result));
  assert.match(text(result), reason);
}
