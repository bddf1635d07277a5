/**
 * The person's hands on the page, through the supervisor as the panel drives it: clicks land where
 * the picture shows the element, typing and pasting fill fields, the wheel scrolls, and the
 * navigation bar and tab strip move the very browser the agent drives.
 */
import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, RealBridge, textOf, waitFor } from '../support/realBridge';
import { TabInfo } from '../../src/protocol/childMessages';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { resultText } from '../../src/core/results/resultText';

/**
 * Pixels in the band where Playwright's recorder puts its toolbar (the top 48 px, the middle third) that differ from
 * the page's white: the counter page has nothing of its own there, so any are something drawn over the page.
 */
function marksInToolbarBand(image: { width: number; height: number; data: Uint8Array | Buffer }, cssWidth: number): number {
  const scale = image.width / cssWidth;
  let marks = 0;
  for (let y = 0; y < Math.min(image.height, Math.round(48 * scale)); y++) {
    for (let x = Math.round(image.width / 3); x < Math.round((image.width * 2) / 3); x++) {
      const i = (y * image.width + x) * 4;
      if (image.data[i] < 200 || image.data[i + 1] < 200 || image.data[i + 2] < 200) marks++;
    }
  }
  return marks;
}

/** What a function evaluated in the page returned (upstream prints it as JSON under "### Result"). */
async function evaluate(bridge: RealBridge, fn: string): Promise<unknown> {
  const text = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: fn }));
  const json = /### Result\n([^]*?)\n(?:###|$)/.exec(text)?.[1];
  if (json === undefined) throw new Error(`no result in ${text}`);
  return JSON.parse(json);
}

/** The element's centre as fractions of the viewport: where it shows on the panel's picture. */
async function centreOf(bridge: RealBridge, selector: string): Promise<{ x: number; y: number }> {
  return (await evaluate(
    bridge,
    `() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); ` +
      'return { x: (r.left + r.width / 2) / innerWidth, y: (r.top + r.height / 2) / innerHeight }; }',
  )) as { x: number; y: number };
}

describe('the person drives the page from the panel (real child and Chromium)', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  let bridge: RealBridge;
  before(() => fixture.start());
  after(() => fixture.stop());
  beforeEach(() => (bridge = makeRealBridge()));
  afterEach(() => bridge.dispose());

  it('a click on the picture of a button presses it exactly once, and Activity names what was pressed', async () => {
    const titles = new Map<number, string>();
    bridge.supervisor.onToolCall(record => {
      if (record.door === 'person') titles.set(record.id, record.title);
    });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/counter` });
    const at = await centreOf(bridge, 'button');
    const before = fixture.count('/press');
    bridge.supervisor.sendInput({ kind: 'mouse', action: 'move', ...at, button: 'left', clickCount: 1 });
    bridge.supervisor.sendInput({ kind: 'mouse', action: 'down', ...at, button: 'left', clickCount: 1 });
    bridge.supervisor.sendInput({ kind: 'mouse', action: 'up', ...at, button: 'left', clickCount: 1 });
    await waitFor(() => fixture.count('/press') > before, 5000, 'the press to reach the fixture');
    await new Promise(resolve => setTimeout(resolve, 300));
    assert.strictEqual(fixture.count('/press') - before, 1);
    assert.strictEqual(await evaluate(bridge, "() => document.getElementById('n').textContent"), 'pressed 1');
    // Read before the click reached the button ("Clicking on the page" said nothing of what).
    assert.deepStrictEqual([...titles.values()], ['Clicking button “Press”']);
  });

  it("Take control records the person's click, and nothing of the recorder shows: not in the picture, not in the model's screenshot after Hand back", async () => {
    const { supervisor } = bridge;
    supervisor.setLiveView({ enabled: true, maxWidth: 1280, maxHeight: 800 });
    let latest: { data: string; width: number; timestamp: number } | undefined;
    supervisor.onObservation(event => {
      if (event.kind === 'frame') latest = event.frame;
    });
    const recorded: string[] = [];
    supervisor.onToolCall(record => {
      if (record.door === 'person' && record.result) recorded.push(resultText(record.result));
    });
    await supervisor.callTool('browser_navigate', { url: `${fixture.url}/counter` });
    const at = await centreOf(bridge, 'button');
    const before = fixture.count('/press');
    await supervisor.takeControl();
    // The recorder's page script has installed itself once it records: the person's click is its proof.
    supervisor.sendInput({ kind: 'mouse', action: 'move', ...at, button: 'left', clickCount: 1 });
    supervisor.sendInput({ kind: 'mouse', action: 'down', ...at, button: 'left', clickCount: 1 });
    supervisor.sendInput({ kind: 'mouse', action: 'up', ...at, button: 'left', clickCount: 1 });
    await waitFor(() => fixture.count('/press') > before, 10000, 'the press to reach the fixture');
    // A picture made after the page answered the press (the counter's text changed), with the recorder running.
    const pressedAt = Date.now();
    await waitFor(() => !!latest && latest.timestamp > pressedAt, 15000, 'a picture after the press');
    await waitFor(() => bridge.supervisor.personHasControl && fixture.count('/press') === before + 1, 1000, 'one press');
    await new Promise(resolve => setTimeout(resolve, 500));
    const picture = jpeg.decode(Buffer.from(latest!.data, 'base64'), { useTArray: true });
    assert.strictEqual(marksInToolbarBand(picture, latest!.width), 0, "the picture shows nothing of Playwright's recorder over the page");
    await supervisor.handBack();
    await waitFor(
      () => recorded.some(text => /getByRole\('button', \{ name: 'Press' \}\)\.click\(\)/.test(text)),
      10000,
      () => `the recorded click: ${recorded.join(' | ')}`,
    );
    const shot = await supervisor.callTool('browser_take_screenshot', {});
    const image = shot.content?.find(part => part.type === 'image');
    assert.ok(image && image.type === 'image', `a screenshot: ${textOf(shot)}`);
    const png = PNG.sync.read(Buffer.from(image.data, 'base64'));
    const cssWidth = (await evaluate(bridge, '() => innerWidth')) as number;
    assert.strictEqual(marksInToolbarBand(png, cssWidth), 0, "the model's screenshot shows nothing of the recorder");
  });

  it('typing and pasting fill the field the person clicked, and the wheel scrolls', async () => {
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
    const field = await centreOf(bridge, '#name');
    bridge.supervisor.sendInput({ kind: 'mouse', action: 'down', ...field, button: 'left', clickCount: 1 });
    bridge.supervisor.sendInput({ kind: 'mouse', action: 'up', ...field, button: 'left', clickCount: 1 });
    const keys: ['down' | 'up', string][] = [
      ['down', 'Shift'],
      ['down', 'A'],
      ['up', 'A'],
      ['up', 'Shift'],
      ['down', 'd'],
      ['up', 'd'],
      ['down', 'a'],
      ['up', 'a'],
    ];
    for (const [action, key] of keys) bridge.supervisor.sendInput({ kind: 'key', action, key, modifiers: [] });
    bridge.supervisor.sendInput({ kind: 'text', text: ' Lovelace' });
    await waitFor(
      async () => (await evaluate(bridge, "() => document.getElementById('name').value")) === 'Ada Lovelace',
      5000,
      'the field to hold what was typed and pasted',
    );

    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/tall` });
    bridge.supervisor.sendInput({ kind: 'wheel', x: 0.5, y: 0.5, deltaX: 0, deltaY: 800 });
    await waitFor(async () => ((await evaluate(bridge, '() => scrollY')) as number) > 0, 5000, 'the page to scroll');
  });

  it("the navigation bar and tab strip drive the same browser, through upstream's own tab state", async () => {
    const tabs: TabInfo[][] = [];
    bridge.supervisor.onObservation(event => {
      if (event.kind === 'tabs') tabs.push(event.tabs);
    });
    assert.deepStrictEqual(await bridge.supervisor.pageAction({ action: 'navigate', url: `${fixture.url}/` }), { ok: true, message: `Opened ${fixture.url}/` });
    await bridge.supervisor.pageAction({ action: 'navigate', url: `${fixture.url}/second` });
    assert.ok((await bridge.supervisor.pageAction({ action: 'back' })).ok);
    assert.strictEqual(await evaluate(bridge, '() => location.pathname'), '/');
    assert.deepStrictEqual(await bridge.supervisor.pageAction({ action: 'forward' }), { ok: true, message: 'Went forward' });
    assert.strictEqual(await evaluate(bridge, '() => location.pathname'), '/second');
    assert.ok((await bridge.supervisor.pageAction({ action: 'reload' })).ok);
    assert.ok((await bridge.supervisor.pageAction({ action: 'newTab' })).ok);
    await waitFor(() => tabs.at(-1)?.length === 2, 5000, 'a second tab');
    const first = tabs.at(-1)![0];
    assert.deepStrictEqual(await bridge.supervisor.pageAction({ action: 'selectTab', tabId: first.id }), {
      ok: true,
      message: 'Switched to tab 1',
      tabIndex: 0,
    });
    assert.match(
      textOf(await bridge.supervisor.callTool('browser_tabs', { action: 'list' })),
      /- 0: \(current\) \[Second Page\]/,
      "upstream's current tab is the one the person chose",
    );
    assert.ok((await bridge.supervisor.pageAction({ action: 'closeTab', tabId: first.id })).ok);
    await waitFor(() => tabs.at(-1)?.length === 1, 5000, 'one tab left');
    const unknown = await bridge.supervisor.pageAction({ action: 'closeTab', tabId: 'p999' });
    assert.deepStrictEqual(unknown, { ok: false, message: 'That tab is gone.' });
  });

  // Add to Chat: picking an element in the page.
  it('outlines the element under the pointer in the page, then describes the one clicked, with its snapshot ref', async () => {
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/counter` });
    const pressesBefore = fixture.count('/press');
    const at = await centreOf(bridge, 'button');
    const { element: hovered } = await bridge.supervisor.ask('pick', { phase: 'hover', ...at });
    assert.strictEqual(hovered?.role, 'button');
    assert.strictEqual(
      await evaluate(bridge, "() => !!document.getElementById('__playwright_bridge_pick')"),
      true,
      'the outline is in the page, so the picture shows it',
    );
    const { element: chosen } = await bridge.supervisor.ask('pick', { phase: 'choose', ...at });
    assert.deepStrictEqual(
      { ...chosen, html: undefined, ref: undefined },
      { role: 'button', name: 'Press', tag: 'button', html: undefined, url: `${fixture.url}/counter`, ref: undefined },
    );
    assert.match(chosen!.html, /^<button onclick=/);
    const snapshot = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
    assert.ok(chosen!.ref && snapshot.includes(`button "Press" [ref=${chosen!.ref}]`), `the ref is upstream's for that button: ${chosen!.ref}`);
    assert.strictEqual(await evaluate(bridge, "() => !!document.getElementById('__playwright_bridge_pick')"), false, 'the outline is gone once picked');
    assert.strictEqual(fixture.count('/press'), pressesBefore, 'picking did not press it');

    // A dragged region: a picture of just that part of the page.
    const { region } = await bridge.supervisor.ask('pick', { phase: 'region', x0: 0, y0: 0, x1: 0.25, y1: 0.25 });
    assert.ok(region);
    assert.deepStrictEqual([region.width, region.height, region.url], [320, 180, `${fixture.url}/counter`]);
    const png = Buffer.from(region.png, 'base64');
    assert.strictEqual(png.subarray(1, 4).toString(), 'PNG');
    assert.deepStrictEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [320, 180], "the PNG is the region, at the page's size");
  });
});
