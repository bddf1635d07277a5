/**
 * The person's resize (the panel's size picker) is in the page before the next call reaches the browser: the
 * page's innerWidth and innerHeight are the chosen size and it has drawn a frame at it (its resize handlers
 * ran). On a real child and Chromium, with two busy loops beside them, on a page whose next frame comes seconds
 * late (/held-frames: a view transition holds its frames, as a loaded machine can), so that a wait that ends by
 * a deadline lets the model's next snapshot read the old size.
 */
import * as assert from 'assert';
import type { TabInfo } from '../../src/protocol/childMessages';
import { FixtureServer } from '../fixtures/fixtureServer';
import { BusyLoops, startBusyLoops } from '../support/busyLoops';
import { makeRealBridge, RealBridge, textOf, waitFor } from '../support/realBridge';

describe("the person's resize on a real child and Chromium, under load", function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  let busy: BusyLoops;
  let bridge: RealBridge | undefined;
  before(async () => {
    await fixture.start();
    busy = startBusyLoops(2);
  });
  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
  });
  after(async () => {
    await busy.stop();
    await fixture.stop();
  });

  /**
   * A bridge on the held-frames page, its frames held, the header's size followed as the panel follows it.
   * `panelOpen`: the panel as an editor tab, as the person has it when they pick a size: the live view streams, and
   * the picture shows the held page (Chromium's stream sends the page's last frame as it starts; a stream that
   * brings none within 300 ms gets a still, a screenshot, which on this page lasts until its frames come again).
   * `framesSinceHeld` counts the pictures sent since the hold; `stillsSinceHeld` the stills begun since then.
   * The order of a still and a change of size, every time, is test/unit/frameStreamStill.test.ts.
   */
  async function onHeldFrames(panelOpen = false): Promise<{
    bridge: RealBridge;
    headerSays: (width: number) => Promise<void>;
    framesSinceHeld: () => number;
    stillsSinceHeld: () => number;
    stillsEnded: () => number;
  }> {
    bridge = makeRealBridge();
    const tabs: TabInfo[][] = [];
    let stills = 0;
    let ended = 0;
    let frames = 0;
    bridge.supervisor.onObservation(event => {
      if (event.kind === 'frame') frames++;
      if (event.kind === 'tabs') tabs.push(event.tabs);
      if (event.kind === 'console' && event.entry.text === 'held-frames: a screenshot began') stills++;
      if (event.kind === 'console' && event.entry.text === 'held-frames: a screenshot ended') ended++;
    });
    if (panelOpen) bridge.supervisor.setLiveView({ enabled: true, maxWidth: 1200, maxHeight: 700 });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/held-frames` });
    assert.match(textOf(await bridge.supervisor.callTool('browser_snapshot', {})), /Size: 1280x720/);
    const stillsBefore = stills;
    let framesBefore = Infinity;
    const held = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: '() => holdFrames()' }));
    assert.match(held, /"held"/);
    framesBefore = frames;
    // What the integration test waits for before the model's next call: the header shows the new size once the
    // resize reached upstream, which is before the page has drawn itself at it.
    const headerSays = (width: number) =>
      waitFor(
        () => tabs.at(-1)?.find(tab => tab.current)?.viewport?.width === width,
        30000,
        () => `the header to show the width ${width}: ${JSON.stringify(tabs.at(-1))}`,
      );
    return {
      bridge,
      headerSays,
      framesSinceHeld: () => Math.max(0, frames - framesBefore),
      stillsSinceHeld: () => stills - stillsBefore,
      stillsEnded: () => ended,
    };
  }

  /** What the page itself says of its size, and whether its resize handler ran only after its frames were held. */
  async function pageFacts(real: RealBridge): Promise<string> {
    return textOf(
      await real.supervisor.callTool('browser_evaluate', {
        function: '() => [innerWidth, innerHeight, heldUntil > 0 && resizedAt >= heldUntil].join(",")',
      }),
    );
  }

  it("the model's next snapshot has the chosen size, though the page draws its next frame seconds after the resize", async () => {
    const { bridge: real, headerSays } = await onHeldFrames();
    const resized = real.supervisor.pageAction({ action: 'resize', width: 390, height: 844 });
    await headerSays(390);
    const after = textOf(await real.supervisor.callTool('browser_snapshot', {}));
    assert.match(after, /Size: 390x844/, `the model's next snapshot, taken once the header followed:\n${after.slice(0, 800)}`);
    assert.match(after, /The person resized the page to 390×844/);
    assert.deepStrictEqual(await resized, { ok: true, message: 'Resized the page to 390×844' });
    assert.match(await pageFacts(real), /"390,844,true"/, 'the page held its frames across the resize, and its handler ran after');
  });

  it("with the panel open on a page slow to draw, the person's resize is not undone by the live view", async () => {
    // Chromium puts back the size a page had when a capture began once it ends: a still begun as the person resized,
    // and ended once the page drew again, read the old size back into the page (the real VS Code run's "1280x720").
    const { bridge: real, headerSays, framesSinceHeld } = await onHeldFrames(true);
    // The live view shows the held page (the stream's frame or a still), and the person resizes with it open.
    await waitFor(() => framesSinceHeld() > 0, 30000, 'the live view to show the held page');
    const resized = real.supervisor.pageAction({ action: 'resize', width: 390, height: 844 });
    await headerSays(390);
    const after = textOf(await real.supervisor.callTool('browser_snapshot', {}));
    assert.match(after, /Size: 390x844/, `the model's next snapshot, taken once the header followed:\n${after.slice(0, 800)}`);
    assert.deepStrictEqual(await resized, { ok: true, message: 'Resized the page to 390×844' });
    assert.match(await pageFacts(real), /"390,844,true"/, 'the page is still at the chosen size');
  });

  it("the agent's own browser_resize, with the live view on a page slow to draw, keeps its size once every still has ended", async () => {
    const { bridge: real, framesSinceHeld, stillsSinceHeld, stillsEnded } = await onHeldFrames(true);
    await waitFor(() => framesSinceHeld() > 0, 30000, 'the live view to show the held page');
    const resized = textOf(await real.supervisor.callTool('browser_resize', { width: 390, height: 844 }));
    assert.doesNotMatch(resized, /Error/, resized);
    // Every still begun so far has ended: one begun before the resize and ended after it would put 1280x720 back.
    const begun = stillsSinceHeld();
    await waitFor(() => stillsEnded() >= begun, 30000, 'the stills begun so far to end');
    assert.match(await pageFacts(real), /"390,844,/, 'the page is at the size the agent chose');
  });

  it("a call that ends while the resize waits for the page's frame does not let the next call past it", async () => {
    const { bridge: real, headerSays } = await onHeldFrames();
    // A call in the browser already, before the person resizes: it ends (and takes its step's checkpoint) while the
    // resize still waits for the page to draw itself at the new size. Its request is how the test knows it reached
    // the page; the answer is read, or upstream would wait for a response that never ends.
    const before = fixture.count('/second');
    const inFlight = real.supervisor.callTool('browser_evaluate', {
      function: '() => fetch("/second").then(answer => answer.text()).then(() => new Promise(done => setTimeout(() => done("in flight, done"), 1000)))',
    });
    await waitFor(() => fixture.count('/second') > before, 30000, 'the call in flight to reach the page');
    const resized = real.supervisor.pageAction({ action: 'resize', width: 390, height: 844 });
    await headerSays(390);
    assert.match(textOf(await inFlight), /in flight, done/);
    const next = textOf(await real.supervisor.callTool('browser_snapshot', {}));
    assert.match(next, /Size: 390x844/, `the call after the one in flight:\n${next.slice(0, 800)}`);
    assert.ok((await resized).ok);
    assert.match(await pageFacts(real), /"390,844,true"/, 'the page held its frames across the resize, and its handler ran after');
  });

  it("on a Playwright device's page zoomed out to a layout wider than its screen, the resize ends once it shows the chosen size", async () => {
    // innerWidth there is the wide layout, never the chosen width: what the page shows at its zoom is what is waited for.
    bridge = makeRealBridge({}, { device: 'Pixel 7' });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
    await bridge.supervisor.callTool('browser_evaluate', { function: '() => { document.body.style.width = "1500px"; }' });
    assert.deepStrictEqual(await bridge.supervisor.pageAction({ action: 'resize', width: 390, height: 700 }), {
      ok: true,
      message: 'Resized the page to 390×700',
    });
    const seen = textOf(
      await bridge.supervisor.callTool('browser_evaluate', {
        function: '() => [innerWidth > 390, Math.round(visualViewport.width * visualViewport.scale)].join(",")',
      }),
    );
    assert.match(seen, /"true,390"/, seen);
  });
});
