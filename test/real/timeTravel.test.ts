import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TimeTravelApps } from '../fixtures/timeTravelApps';
import { forkAndCompare, readTraceActions, TIME_TRAVEL_SCENARIOS, timelineOf, traceCli } from '../support/timeTravelScenarios';
import { sessionTrace } from '../../src/core/timeTravel/traceFile';
import { makeRealBridge, RealBridge, refOf, textOf, waitFor } from '../support/realBridge';
import { personHandsOn } from '../support/exportScenarios';
import { restoreToStep, stepFromEnd } from '../../src/core/timeTravel/stepRestore';
import { peakRssMB } from '../support/processMemory';
import type { BridgeSettings } from '../../src/core/settings/settings';
import type { TabInfo } from '../../src/protocol/childMessages';

/** A real bridge with the panel's store and the timeline over it, as the extension wires them. */
function timeTravelBridge(maxBytes = 64 * 1024 * 1024, settings: Partial<BridgeSettings> = {}) {
  const bridge = makeRealBridge(settings);
  const { store, timeline } = timelineOf(bridge, maxBytes);
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await bridge.supervisor.callTool(tool, args);
    assert.ok(!result.isError, `${tool}: ${textOf(result)}`);
    return textOf(result);
  };
  return { bridge, store, timeline, call };
}

/**
 * Hang bounds, not speed figures: the next call waits at most 2.5 s for a checkpoint (CHECKPOINT_DEADLINE_MS in
 * src/child/timeTravel/checkpoints.ts), and the 48 MB a hostile page stores never reaches the child.
 */
const WAIT_BOUND_MS = 4000;
const CHILD_GROWTH_BOUND_MB = 150;

describe('time travel: every step kept, and the browser put back to any of them (real browser)', function () {
  this.timeout(240_000);
  let apps: TimeTravelApps;
  let bridge: RealBridge | undefined;
  let disposeAll: (() => void) | undefined;

  beforeEach(async () => {
    apps = new TimeTravelApps();
    await apps.start();
  });

  afterEach(async () => {
    disposeAll?.();
    disposeAll = undefined;
    await bridge?.dispose();
    bridge = undefined;
    await apps.stop();
  });

  /** A time travel bridge that afterEach disposes, with its timeline and store. */
  function openTimeTravel(...args: Parameters<typeof timeTravelBridge>): ReturnType<typeof timeTravelBridge> {
    const parts = timeTravelBridge(...args);
    bridge = parts.bridge;
    disposeAll = () => {
      parts.timeline.dispose();
      parts.store.dispose();
    };
    return parts;
  }

  for (const scenario of TIME_TRAVEL_SCENARIOS) {
    it(`${scenario.name}: forked to each step that changed the page, the cookies, storages, address and snapshot are those recorded there`, async () => {
      const parts = openTimeTravel();
      await scenario.play(parts.call, apps);
      await parts.timeline.settled();
      const changing = parts.timeline.steps.filter(step => step.page && step.page !== parts.timeline.step(step.index - 1)?.page).map(step => step.index);
      assert.ok(changing.length >= 3, `steps with their own checkpoint: ${changing}`);
      // Newest first, then the oldest: each fork starts from a browser that is somewhere else.
      for (const index of [...changing].reverse()) {
        const { differences } = await forkAndCompare(parts.timeline, parts.bridge.supervisor, index);
        assert.deepStrictEqual(differences, [], `step ${index} (${parts.timeline.step(index)?.title})`);
      }
    });
  }

  it("forked back to before a form was sent, the page shows the form empty again, and the model's next result says what was and was not restored", async () => {
    const parts = openTimeTravel();
    await parts.call('browser_navigate', { url: `${apps.url}/form` });
    const page = await parts.call('browser_snapshot', {});
    await parts.call('browser_type', { element: 'Name', target: refOf(page, /textbox "Name"/), text: 'Grace' });
    const typed = parts.timeline.steps.at(-1)!.index;
    await parts.call('browser_click', { element: 'Send', target: refOf(page, /button "Send"/) });
    assert.deepStrictEqual(apps.sent, ['Grace']);
    // The panel's "Continue from here" on the step where the page was still the form (the snapshot before the typing).
    const navigated = typed - 1;
    const outcome = await restoreToStep(parts.timeline, parts.bridge.supervisor, navigated, 'person');
    assert.ok(outcome.ok, outcome.text);
    const next = await parts.call('browser_snapshot', {});
    assert.match(next, new RegExp(`The browser was restored to step ${navigated} \\(Visitor Form, before Typ`), next.slice(0, 400));
    assert.match(next, /in-page memory, the tab's back\/forward history and the server's own state were not restored/);
    const shown = next.slice(next.indexOf('### Snapshot'));
    assert.match(shown, /textbox "Name" \[ref=e\d+\]\n/, "the form is there again, empty (what was typed was in the page's memory)");
    assert.doesNotMatch(shown, /Thank you|Grace/, shown);
    const again = await parts.call('browser_snapshot', {});
    assert.doesNotMatch(again, /was restored to step/, 'told once');
    // The server keeps what it received: that is its own state.
    assert.deepStrictEqual(apps.sent, ['Grace']);
  });

  it("a step in a named context's tab (isolatedContext) restores that context's storage and tab, leaving the session's own as it is, and the agent and the panel on it; after a restart the context is opened again", async () => {
    const parts = openTimeTravel();
    const tabs: TabInfo[][] = [];
    parts.bridge.supervisor.onObservation(event => event.kind === 'tabs' && tabs.push(event.tabs));
    await parts.call('browser_navigate', { url: `${apps.url}/form` });
    await parts.call('browser_tabs', { action: 'new', url: `${apps.url}/todos`, isolatedContext: 'alice' });
    const addTodo = async (text: string) => {
      const page = await parts.call('browser_snapshot', {});
      await parts.call('browser_type', { element: 'New todo', target: refOf(page, /textbox "New todo"/), text });
      await parts.call('browser_click', { element: 'Add todo', target: refOf(page, /button "Add todo"/) });
      await parts.call('browser_wait_for', { text });
    };
    await addTodo('milk');
    const oneTodo = parts.timeline.steps.at(-1)!.index;
    await addTodo('eggs');
    // Back in the session's own tab: the step after is there.
    await parts.call('browser_tabs', { action: 'select', index: 0 });
    await parts.call('browser_navigate', { url: `${apps.url}/titled` });

    const back = await restoreToStep(parts.timeline, parts.bridge.supervisor, oneTodo, 'person');
    assert.ok(back.ok, back.text);
    const next = await parts.call('browser_snapshot', {});
    assert.match(next, new RegExp(`restored to step ${oneTodo} \\(Todos, in the isolated context "alice"`), next.slice(0, 600));
    assert.match(next, /Page URL: .*\/todos\n/, next.slice(0, 800));
    const shown = next.slice(next.indexOf('### Snapshot'));
    assert.match(shown, /milk/, 'the named context has the todo of that step (its IndexedDB)');
    assert.doesNotMatch(shown, /eggs/, shown);
    const own = await parts.call('browser_tabs', { action: 'list' });
    assert.match(own, /- 0: \[[^\]]*\]\([^)]*\/titled\)/, `the session's own tab is as it was: ${own}`);
    assert.deepStrictEqual(
      (tabs.at(-1) ?? []).map(tab => [tab.context ?? null, tab.current]),
      [
        [null, false],
        ['alice', true],
      ],
    );

    // The browser restarts: the named context is gone, and a restore opens it again through upstream.
    await parts.bridge.supervisor.restart('the person restarted the browser');
    await parts.call('browser_navigate', { url: `${apps.url}/form` });
    const again = await restoreToStep(parts.timeline, parts.bridge.supervisor, oneTodo, 'person');
    assert.ok(again.ok, again.text);
    const after = await parts.call('browser_snapshot', {});
    assert.match(after.slice(after.indexOf('### Snapshot')), /milk/, after.slice(0, 1200));
    assert.match(await parts.call('browser_tabs', { action: 'list' }), /\(current\) \[Todos\].*isolatedContext: alice/);
  });

  // Found by a helper's attack: a named tab whose first load failed, and a context the agent's code opened.
  const READ_STORE = "() => JSON.stringify({ cookie: document.cookie, cart: localStorage.getItem('cart') })";
  const store = (tag: string) => `() => { document.cookie = 'who=${tag}; path=/'; localStorage.setItem('cart', '${tag}'); return '${tag}'; }`;

  it("a named tab whose first load failed is still that context's: its steps restore into it, never into the session's own", async () => {
    const parts = openTimeTravel();
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    await parts.call('browser_evaluate', { function: store('own1') });
    // Upstream opens "bob" and makes its tab current before the load fails (an unsafe port).
    const tabs: TabInfo[][] = [];
    parts.bridge.supervisor.onObservation(event => event.kind === 'tabs' && tabs.push(event.tabs));
    const failed = await parts.bridge.supervisor.callTool('browser_tabs', { action: 'new', isolatedContext: 'bob', url: 'http://127.0.0.1:9/' });
    assert.ok(failed.isError, textOf(failed));
    // The panel follows it and says why it is empty.
    await waitFor(
      () => !!tabs.at(-1)?.some(tab => tab.context === 'bob' && tab.current && tab.loadError),
      20000,
      () => JSON.stringify(tabs.at(-1)),
    );
    // The browser's error page commits after the failure: a load before it would be cut short by it.
    await waitFor(async () => /chrome-error:/.test(await parts.call('browser_tabs', { action: 'list' })), 20000, "bob's tab to show the browser's error page");
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    await parts.call('browser_evaluate', { function: store('bob1') });
    const bob1 = parts.timeline.steps.at(-1)!.index;
    await parts.call('browser_tabs', { action: 'select', index: 0 });
    await parts.call('browser_evaluate', { function: store('own2') });
    const back = await restoreToStep(parts.timeline, parts.bridge.supervisor, bob1, 'person');
    assert.ok(back.ok, back.text);
    assert.match(back.text, /in the isolated context "bob"/, back.text);
    assert.match(await parts.call('browser_evaluate', { function: READ_STORE }), /who=bob1.*bob1/);
    await parts.call('browser_tabs', { action: 'select', index: 0 });
    assert.match(await parts.call('browser_evaluate', { function: READ_STORE }), /who=own2.*own2/, "the session's own context kept its storage");
  });

  it("a context the agent's code opened is no tab of upstream's: the panel lists upstream's tabs, and a restore lands the agent where it says", async () => {
    const parts = openTimeTravel();
    const tabs: TabInfo[][] = [];
    parts.bridge.supervisor.onObservation(event => event.kind === 'tabs' && tabs.push(event.tabs));
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    await parts.call('browser_tabs', { action: 'new', url: `${apps.url}/cart`, isolatedContext: 'alice' });
    await parts.call('browser_evaluate', { function: store('alice1') });
    const alice1 = parts.timeline.steps.at(-1)!.index;
    await parts.call('browser_run_code_unsafe', {
      code: `async (page) => { const other = await page.context().browser().newContext(); await (await other.newPage()).goto('${apps.url}/titled'); return 'ok'; }`,
    });
    await parts.call('browser_tabs', { action: 'select', index: 0 });
    await waitFor(
      () => tabs.at(-1)?.[0]?.current === true,
      10000,
      () => JSON.stringify(tabs.at(-1)),
    );
    assert.strictEqual(tabs.at(-1)!.length, 2, `the panel lists upstream's two tabs: ${JSON.stringify(tabs.at(-1))}`);
    const back = await restoreToStep(parts.timeline, parts.bridge.supervisor, alice1, 'person');
    assert.ok(back.ok, back.text);
    assert.match(await parts.call('browser_tabs', { action: 'list' }), /\(current\).*isolatedContext: alice/);
    assert.match(await parts.call('browser_evaluate', { function: READ_STORE }), /who=alice1.*alice1/);
    assert.strictEqual(tabs.at(-1)!.find(tab => tab.current)?.context, 'alice', JSON.stringify(tabs.at(-1)));
  });

  it("a burst of the person's own input is a step too: its checkpoint has the storage it changed, and the browser goes back to it", async () => {
    const parts = openTimeTravel();
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    const centre = JSON.parse(
      /\[\s*[\d.]+,\s*[\d.]+\s*\]/.exec(
        await parts.call('browser_evaluate', {
          function: "() => { const r = document.querySelector('button').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }",
        }),
      )![0],
    ) as [number, number];
    const hands = personHandsOn(parts.bridge.supervisor);
    await hands.takeControl();
    await hands.click({ x: centre[0], y: centre[1] });
    await hands.handBack();
    await waitFor(
      () => parts.timeline.steps.some(step => step.door === 'person' && !!step.storage?.value.includes('apple')),
      10000,
      () =>
        `the person's click to have its checkpoint: ${parts.timeline.steps.map(step => `${step.index} ${step.tool} ${step.door} ${step.storage?.value.slice(0, 200)}`).join(', ')}`,
    );
    const clicked = parts.timeline.steps.find(step => step.door === 'person' && step.storage?.value.includes('apple'))!;
    await parts.call('browser_click', { element: 'Empty cart', target: refOf(await parts.call('browser_snapshot', {}), /button "Empty cart"/) });
    assert.match(await parts.call('browser_snapshot', {}), /Cart: empty/);
    const back = await restoreToStep(parts.timeline, parts.bridge.supervisor, clicked.index, 'person');
    assert.ok(back.ok, back.text);
    assert.match(await parts.call('browser_snapshot', {}), /Cart: apple\b/, "the cart as the person's click left it");
  });

  it('a hostile page that stalls every script reading its storage does not stall the browser: the next call runs, and the checkpoint has its storage', async () => {
    const parts = openTimeTravel();
    await parts.call('browser_navigate', { url: `${apps.url}/stall` });
    await parts.call('browser_click', { element: 'Stall', target: refOf(await parts.call('browser_snapshot', {}), /button "Stall"/) });
    const started = Date.now();
    assert.match(await parts.call('browser_snapshot', {}), /heading "Stall"/);
    // A hang check, not a speed figure: before the fix the next call waited on the page for half a minute.
    assert.ok(Date.now() - started < 20000, `the next call waited on the page for ${Date.now() - started} ms`);
    await parts.timeline.settled();
    const clicked = parts.timeline.steps.find(step => step.tool === 'browser_click')!;
    assert.match(
      clicked.storage?.value ?? '',
      /"session":\{"origin":"http:\/\/127\.0\.0\.1:\d+","items":\[\["s","1"\]\]\}/,
      "its sessionStorage was read without the page's help",
    );
  });

  /**
   * Clicks "Write" on a hostile page `clicks` times, each followed by a snapshot: the snapshot is what waits for
   * the click's checkpoint, so its time is that wait (plus a snapshot's few milliseconds).
   */
  async function clickAndWait(parts: ReturnType<typeof timeTravelBridge>, clicks: number): Promise<number[]> {
    const waits: number[] = [];
    let page = await parts.call('browser_snapshot', {});
    for (let i = 0; i < clicks; i++) {
      await parts.call('browser_click', { element: 'Write', target: refOf(page, /button "Write"/) });
      const started = Date.now();
      page = await parts.call('browser_snapshot', {});
      waits.push(Date.now() - started);
    }
    return waits;
  }

  /** The checkpoint log lines of the child, and the most reads in flight any of them reported. */
  function checkpointLog(logs: string[]): { lines: string[]; mostInFlight: number } {
    const lines = logs.filter(line => /\] Checkpoint: /.test(line));
    const inFlight = lines.map(line => Number(/reads in flight: (\d+)/.exec(line)?.[1] ?? 0));
    return { lines, mostInFlight: Math.max(0, ...inFlight) };
  }

  const clickSteps = (parts: ReturnType<typeof timeTravelBridge>) => parts.timeline.steps.filter(step => step.tool === 'browser_click');

  /**
   * Opens an ordinary page (the child's memory baseline), then the hoarding page at `hoardPath`, clicks Write five
   * times, and checks the bounds every hoarding page must keep: no call waits past the checkpoint deadline, the
   * child does not read what the page stored, and no second read starts while one runs.
   */
  async function clickOnHoard(parts: ReturnType<typeof timeTravelBridge>, hoardPath: string) {
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    const pid = parts.bridge.supervisor.status.pid!;
    const peakBefore = peakRssMB(pid);
    await parts.call('browser_navigate', { url: `${apps.url}${hoardPath}` });
    await parts.call('browser_wait_for', { text: 'Stored 48 MB' });
    const waits = await clickAndWait(parts, 5);
    await parts.timeline.settled();
    const grew = peakRssMB(pid) - peakBefore;
    const log = checkpointLog(parts.bridge.logs);
    const facts = `waits ${waits.join(', ')} ms; child peak +${grew.toFixed(0)} MB; log:\n${log.lines.join('\n')}`;
    // Bounds that catch a read piling up or a child reading it all, not speed figures (those are the bench's).
    assert.ok(
      waits.every(ms => ms < WAIT_BOUND_MS),
      facts,
    );
    assert.ok(grew < CHILD_GROWTH_BOUND_MB, `the child read what the page stored: ${facts}`);
    assert.ok(log.mostInFlight <= 1, facts);
    return { log, facts };
  }

  it('a page that stores 48 MB in IndexedDB and writes it on every click: the storage is judged too large before it is read, no call waits on it, the child does not grow, and those steps say they cannot be restored', async () => {
    const parts = openTimeTravel();
    const { log, facts } = await clickOnHoard(parts, '/hoard');
    const notRead = log.lines.filter(line => /not read: judged at \d+\.\d M characters from DevTools' count of its IndexedDB/.test(line));
    assert.ok(notRead.length >= 5, `each click's storage judged by its size before any read: ${facts}`);
    for (const step of clickSteps(parts)) {
      const target = parts.timeline.restoreTarget(step.index);
      assert.ok(
        'problem' in target && /cannot be restored: its page stored \d+\.\d M characters/.test(target.problem),
        `step ${step.index}: ${JSON.stringify(target).slice(0, 300)}`,
      );
    }
    // An ordinary page afterwards (its own origin's storage is the hoard's too, so a fresh origin: the address by name).
    await parts.call('browser_navigate', { url: `${apps.url.replace('127.0.0.1', 'localhost')}/cart` });
    await parts.call('browser_click', { element: 'Add apple', target: refOf(await parts.call('browser_snapshot', {}), /button "Add apple"/) });
    await parts.timeline.settled();
    const apple = parts.timeline.steps.at(-1)!;
    assert.match(apple.storage?.value ?? '', /"tooLarge"/, 'the context still holds the 48 MB origin: a restore would have to put it back');
  });

  it('a page that stores 48 MB the browser packs into a few KB: at most one read, stopped in the page at the limit, and every step judged by its size', async () => {
    const parts = openTimeTravel();
    const { log, facts } = await clickOnHoard(parts, '/hoard?packed=1');
    const stopped = log.lines.filter(line => /stopped past 16\.0 M characters/.test(line));
    const judged = log.lines.filter(line => /not read: judged at \d+\.\d M characters from DevTools' count of its IndexedDB/.test(line));
    // Chromium's count of a packed database is sometimes small (the first read then stops in the page at the
    // limit) and sometimes already past the limit (no read at all): never more than one read, every click judged.
    assert.ok(stopped.length <= 1, `at most one read, stopped in the page: ${facts}`);
    assert.ok(stopped.length + judged.length >= 5, `each click's storage stopped at the limit or judged by its size: ${facts}`);
    for (const step of clickSteps(parts)) assert.ok('problem' in parts.timeline.restoreTarget(step.index), `step ${step.index} cannot be restored`);
  });

  it('a page that locks its database so that no read of it ends: each read is ended at its deadline, no call waits past the bound, no second read starts, and after the page is left the steps are restorable again', async () => {
    const parts = openTimeTravel();
    await parts.call('browser_navigate', { url: `${apps.url}/lock` });
    await parts.call('browser_wait_for', { text: 'Locked' });
    const before = await parts.bridge.supervisor.ask('memory', {});
    const waits = await clickAndWait(parts, 6);
    await parts.timeline.settled();
    const after = await parts.bridge.supervisor.ask('memory', {});
    const log = checkpointLog(parts.bridge.logs);
    const heapGrowthMB = (after.heapUsedBytes - before.heapUsedBytes) / 1048576;
    const facts = `waits ${waits.join(', ')} ms; child heap ${heapGrowthMB >= 0 ? '+' : ''}${heapGrowthMB.toFixed(1)} MB; log:\n${log.lines.join('\n')}`;
    assert.ok(
      waits.every(ms => ms < WAIT_BOUND_MS),
      `a call waited on a stalled read: ${facts}`,
    );
    assert.ok(log.mostInFlight <= 1, facts);
    assert.ok(heapGrowthMB < 20, facts);
    // The first read is ended at its deadline; the next ones end at once (the database's open from the first is still queued in the browser).
    assert.match(log.lines.join('\n'), /was stopped: it did not end within 1000 ms/, facts);
    assert.match(log.lines.join('\n'), /still holds its database "locked" from an earlier read/, facts);
    for (const step of clickSteps(parts)) {
      const target = parts.timeline.restoreTarget(step.index);
      // What the person reads says why in words, not a size of 0.
      assert.ok(
        'problem' in target && /cannot be restored: its storage was not kept \((the storage read of|its page still holds)/.test(target.problem),
        `step ${step.index}: ${JSON.stringify(target).slice(0, 300)}`,
      );
    }
    // Leaving the page lets its database go: the next steps read and are restorable, and the browser goes back to one.
    await parts.call('browser_navigate', { url: `${apps.url}/cart` });
    await parts.call('browser_click', { element: 'Add apple', target: refOf(await parts.call('browser_snapshot', {}), /button "Add apple"/) });
    await parts.timeline.settled();
    const apple = parts.timeline.steps.at(-1)!;
    assert.ok(!('problem' in parts.timeline.restoreTarget(apple.index)), JSON.stringify(parts.timeline.restoreTarget(apple.index)).slice(0, 300));
    await parts.call('browser_click', { element: 'Empty cart', target: refOf(await parts.call('browser_snapshot', {}), /button "Empty cart"/) });
    const back = await restoreToStep(parts.timeline, parts.bridge.supervisor, apple.index, 'person');
    assert.ok(back.ok, back.text);
    assert.match(await parts.call('browser_snapshot', {}), /Cart: apple\b/);
  });

  it("a page title that carries a secret's value is masked in the checkpoint of the person's own click, as everywhere", async () => {
    const secret = 'hunter2-time-travel';
    const bridgeWithSecret = makeRealBridge({}, {}, { secrets: { APP_PASSWORD: { value: secret, origins: [apps.url] } } });
    bridge = bridgeWithSecret;
    const { store, timeline } = timelineOf(bridgeWithSecret);
    disposeAll = () => {
      timeline.dispose();
      store.dispose();
    };
    await bridgeWithSecret.supervisor.callTool('browser_navigate', { url: `${apps.url}/titled?t=${secret}` });
    const hands = personHandsOn(bridgeWithSecret.supervisor);
    await hands.takeControl();
    await hands.click({ x: 40, y: 70 });
    await hands.handBack();
    await waitFor(() => timeline.steps.some(step => step.door === 'person' && step.page !== timeline.steps[0].page), 10000, "the person's checkpoint");
    const person = timeline.steps.find(step => step.door === 'person')!;
    assert.strictEqual(person.page?.value.title, '<secret>APP_PASSWORD</secret>');
    // (The navigate step's own title holds it: the address is what the test, as the model, wrote.)
    assert.ok(!JSON.stringify(timeline.steps.map(step => [step.page?.value, step.console])).includes(secret), 'the value is in no page the steps recorded');
  });

  it('chat undoes its own last step with stepsBack, and a step dropped by the budget says it is gone', async () => {
    const parts = openTimeTravel();
    await TIME_TRAVEL_SCENARIOS[0].play(parts.call, apps);
    const undo = await restoreToStep(parts.timeline, parts.bridge.supervisor, stepFromEnd(parts.timeline, 1), 'tool');
    assert.ok(undo.ok, undo.text);
    assert.match(await parts.call('browser_snapshot', {}), /Cart: apple, pear/, 'the cart as it was before it was emptied');
    const tiny = timeTravelBridge(1);
    disposeAll = () => {
      parts.timeline.dispose();
      parts.store.dispose();
      tiny.timeline.dispose();
      tiny.store.dispose();
    };
    await tiny.call('browser_navigate', { url: `${apps.url}/cart` });
    await tiny.call('browser_navigate', { url: `${apps.url}/wizard` });
    assert.strictEqual(tiny.timeline.steps.length, 1, 'only the newest step is kept when nothing fits');
    assert.strictEqual(tiny.timeline.dropped, 1);
    const gone = await restoreToStep(tiny.timeline, tiny.bridge.supervisor, 1, 'tool');
    assert.deepStrictEqual(gone, { ok: false, text: 'Step 1 is no longer kept (the oldest 1 steps were dropped to keep the time travel budget).' });
    await tiny.bridge.dispose();
  });
});

describe("time travel: a session saved as a Playwright trace is read back by Playwright's own trace tooling", function () {
  this.timeout(240_000);

  it("its action list has the session's steps in order, with the failed one marked, and each step's snapshot attached", async () => {
    const apps = new TimeTravelApps();
    await apps.start();
    const parts = timeTravelBridge();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-trace-'));
    try {
      await TIME_TRAVEL_SCENARIOS[0].play(parts.call, apps);
      await parts.bridge.supervisor.callTool('browser_click', { element: 'nothing', target: 'e999' });
      const file = path.join(work, 'session.zip');
      fs.writeFileSync(file, sessionTrace(parts.timeline.steps, { browserName: 'chromium', viewport: { width: 1280, height: 720 }, title: 'cart' }));
      const actions = readTraceActions(file, work);
      const titles = parts.timeline.steps.map(step => `${step.index}. ${step.title}`);
      assert.deepStrictEqual(
        actions.map(a => a.title),
        titles,
        actions.map(a => a.line).join('\n'),
      );
      assert.ok(actions.at(-1)!.line.includes('✗') || /error|failed/i.test(actions.at(-1)!.line), `the failed click is marked: ${actions.at(-1)!.line}`);
      const attachments = traceCli(['trace', 'attachments'], work);
      assert.match(attachments, /snapshot after step 2\.yml/, attachments);
    } finally {
      parts.timeline.dispose();
      parts.store.dispose();
      await parts.bridge.dispose();
      await apps.stop();
      traceCli(['trace', 'close'], work);
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
