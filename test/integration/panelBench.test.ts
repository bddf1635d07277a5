/**
 * The bench's panel figures (npm run bench, test/bench/panel.ts), measured in the real webview of a real
 * VS Code with the webview's own performance.now(): a filter keystroke over 2,000 console lines and 2,000
 * requests, frames while 300 requests a second arrive for 10 s, and a request's details opened with a
 * 1 MB body. Run only by the bench (its own window); writes PLAYWRIGHT_BRIDGE_BENCH_OUT.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { FixtureServer } from '../fixtures/fixtureServer';
import type { PanelReport } from '../../src/protocol/panelMessages';
import { checkHar } from '../support/harRoundTrip';
import { PICTURE_COLORS } from '../fixtures/pictureLab';
import { pictureLags, type PictureSample } from '../support/pictureStalls';
import { Api, EXTENSION_ID, invoke, note, panelHands, waitFor } from './helpers';

const LOADED = 2000;
/** Pages of the picture lab clicked through in the picture (three paints each). */
const PICTURE_STEPS = 4;
/** Requests with a 1 MB body opened for the detail figure. */
const DETAILS = 20;
/**
 * How long a person's pointer rests on a row before they click it: at least this (a pointer that has rested 65 ms
 * on a link is clicked one time in two, as instant.page measured; a deliberate click comes later).
 */
const POINTER_REST_MS = 100;

/** Each prefix of each text, as typed, then deleted back to the empty box. */
function keystrokes(...texts: string[]): string[] {
  return texts.flatMap(text => [
    ...Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)),
    ...Array.from({ length: text.length - 1 }, (_, i) => text.slice(0, text.length - 1 - i)),
  ]);
}

describe('panel bench in a real VS Code', function () {
  this.timeout(600000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('measures filter keystrokes, a burst of requests and a 1 MB request opened, in the webview', async () => {
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as Api;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    await invoke('browser_navigate', { url: `${fixture.url}/panel-load` });
    // How this machine draws the webview with nothing arriving: the frames the burst is compared with.
    await waitFor(async () => (await api.describePanels())[0]?.frameDrawn ?? false, 20000, 'the panel to show the page', 250);
    const idle = JSON.parse(await panelHands({ action: 'measure', task: 'frames', seconds: 3 }, 60000)) as { intervals: number[] };
    await invoke('browser_evaluate', { function: `() => { window.load(${LOADED}, ${LOADED}, 80); return 'loading'; }` });
    let report: PanelReport | undefined;
    await waitFor(
      async () => !!(report = (await api.describePanels())[0]) && report.consoleTexts.length >= LOADED && report.networkUrls.length >= LOADED,
      120000,
      () => `the panel to hold ${LOADED} lines and requests: ${report?.consoleTexts.length} lines, ${report?.networkUrls.length} requests`,
      1000,
    );

    await panelHands({ action: 'button', id: 'tab-console' });
    const consoleTimes = JSON.parse(
      await panelHands({ action: 'measure', task: 'filter', filterId: 'console-filter', texts: keystrokes('load line 1', 'checkout') }, 120000),
    ) as number[];
    await panelHands({ action: 'button', id: 'tab-network' });
    const networkTimes = JSON.parse(
      await panelHands({ action: 'measure', task: 'filter', filterId: 'network-filter', texts: keystrokes('data?i=19', 'fetch') }, 120000),
    ) as number[];

    const measuring = panelHands({ action: 'measure', task: 'frames', seconds: 10 }, 120000);
    // PLAYWRIGHT_BRIDGE_BENCH_PROFILE=1: where the page's thread went during the burst, printed (a diagnosis, not a figure).
    const profiled = process.env.PLAYWRIGHT_BRIDGE_BENCH_PROFILE ? panelHands({ action: 'profile', seconds: 8 }, 120000) : undefined;
    await invoke('browser_evaluate', { function: "() => { window.burst(300, 10); return 'bursting'; }" });
    if (profiled) note(`    the workbench's thread during the burst:\n${(JSON.parse(await profiled) as string[]).map(line => `      ${line}`).join('\n')}`);
    const frames = JSON.parse(await measuring) as { intervals: number[]; rows: number; rowsSpanMs: number; longTasks: { ms: number; whose: string }[] };

    // Each figure on its own: the burst's requests all answered before the details are timed.
    await waitFor(async () => /true/.test((await invoke('browser_evaluate', { function: '() => window.burstDone' })).text), 120000, 'the burst to end', 1000);
    // Distinct 1 MB answers, each opened once: every open reads its body from the browser. As a person opens one,
    // the pointer resting on the row before the click (the panel reads the body ahead then), and at once.
    const detail = async (batch: string, restMs: number) => {
      await invoke('browser_evaluate', { function: `() => window.bigOnes(${DETAILS}, '${batch}')` });
      await waitFor(
        async () => ((await api.describePanels())[0]?.networkUrls.filter(u => u.endsWith(`batch=${batch}`)).length ?? 0) >= DETAILS,
        30000,
        'the 1 MB requests to be listed',
        250,
      );
      return JSON.parse(await panelHands({ action: 'measure', task: 'detail', text: `batch=${batch}`, times: DETAILS, restMs }, 180000)) as number[];
    };
    const detailTimes = await detail('pointed', POINTER_REST_MS);
    const detailColdTimes = await detail('at-once', 0);
    note(`    details opened (ms): pointed at first ${detailTimes.map(Math.round).join(' ')}; at once ${detailColdTimes.map(Math.round).join(' ')}`);

    // The size picker's presets, each chosen three times in turn: to the first picture at the new size.
    const presets = ['390x844', '1366x768', '820x1180', '1920x1080'];
    const resizeTimes = JSON.parse(await panelHands({ action: 'measure', task: 'resize', presets: [...presets, ...presets, ...presets] }, 180000)) as number[];

    // One failed load typed in the address bar, counted past Chromium's own retries (1 s and 5 s after).
    const probe = net.createServer();
    await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
    const failing = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}/nothing`;
    await new Promise(resolve => probe.close(resolve));
    await panelHands({ action: 'address', url: failing });
    let shown: PanelReport | undefined;
    await waitFor(
      async () => !!(shown = (await api.describePanels())[0])?.loadError,
      15000,
      () =>
        `the failed load to show: ${JSON.stringify({ header: shown?.header, activity: shown?.activityTitles.slice(-3), errors: shown?.activityErrors.slice(-2), urls: shown?.networkUrls.slice(-3) })}`,
      250,
    );
    await new Promise(resolve => setTimeout(resolve, 6500));
    const rowsPerFailedNavigation = (await api.describePanels())[0]!.networkUrls.filter(url => url === failing).length;

    // Save all as HAR, on a page of its own server: the file validated, then replayed by routeFromHAR with that server gone.
    const lab = new FixtureServer();
    await lab.start();
    await invoke('browser_navigate', { url: `${lab.url}/network-lab` });
    await waitFor(
      async () => ((await api.describePanels())[0]?.networkUrls.filter(u => u.startsWith(lab.url)).length ?? 0) >= 4,
      15000,
      "the lab's requests",
      250,
    );
    const harFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-bench-har-'));
    const harFile = vscode.Uri.file(path.join(harFolder, 'lab.har'));
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('playwrightBridge.saveNetworkHar', harFile);
    await lab.stop();
    const harCheck = saved ? await checkHar(harFile.fsPath, `${lab.url}/network-lab`, /echo answered/) : undefined;
    const harRoundTrip = !!harCheck?.valid && /Network lab/.test(harCheck.replayed?.text ?? '') && !!harCheck.replayed?.console.includes('echo answered Ada');
    if (!harRoundTrip) note(`    HAR round trip failed: ${harCheck?.problems ?? 'not saved'}`);
    fs.rmSync(harFolder, { recursive: true, force: true });

    const figures = {
      consoleTimes,
      networkTimes,
      idleFrameIntervals: idle.intervals,
      frameIntervals: frames.intervals,
      longTasks: frames.longTasks,
      burstRows: frames.rows,
      // The rows' own span: the page's 300 a second for 10 s, taken in as fast as the panel could.
      burstSeconds: frames.rowsSpanMs / 1000,
      detailTimes,
      detailColdTimes,
      resizeTimes,
      rowsPerFailedNavigation,
      harRoundTrip,
    };
    note(
      `    keystrokes ${consoleTimes.length + networkTimes.length}, frames ${idle.intervals.length} idle and ${frames.intervals.length} in the burst, ` +
        `long tasks ${frames.longTasks.length} (${frames.longTasks.map(t => `${Math.round(t.ms)} ${t.whose}`).join(', ')}), rows in the burst ${frames.rows}, details opened ${detailTimes.length}, resizes ${resizeTimes.length}`,
    );
    assert.ok(
      consoleTimes.length && networkTimes.length && frames.intervals.length && detailTimes.length && resizeTimes.length,
      'every part measured something',
    );
    writeFigures(figures);
  });

  it('measures how far the picture lags behind a page under Slow 4G, clicked through in the picture', async () => {
    const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as Api;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    const lab = fixture.pictureLab;
    lab.paints.length = 0;
    await invoke('browser_navigate', { url: `${fixture.url}/calm` });
    await waitFor(async () => (await api.describePanels())[0]?.frameDrawn ?? false, 20000, 'the panel to show the page', 250);
    await panelHands({ action: 'button', id: 'tab-network' });
    await panelHands({ action: 'select', id: 'throttling', value: 'slow4g' });
    await panelHands({ action: 'measure', task: 'pictureColors', phase: 'start' });
    // From here on no agent call (it would stop the stream for its time): the person types the first page's
    // address and clicks through the others in the picture.
    await panelHands({ action: 'address', url: `${fixture.url}/picture-lab?step=0` });
    const secondPaint = (step: number) => lab.paints.filter(paint => paint.step === step).length >= 3;
    for (let step = 0; step < PICTURE_STEPS; step++) {
      await waitFor(
        () => secondPaint(step),
        60000,
        () => `step ${step}'s second paint: ${JSON.stringify(lab.paints.slice(-3))}`,
        100,
      );
      await new Promise(resolve => setTimeout(resolve, 3000));
      if (step < PICTURE_STEPS - 1) await panelHands({ action: 'click', x: 0.5, y: 0.5 });
    }
    const endAt = Date.now();
    const samples = JSON.parse(await panelHands({ action: 'measure', task: 'pictureColors', phase: 'read' })) as PictureSample[];
    await panelHands({ action: 'select', id: 'throttling', value: 'none' });
    const { lags, stalls } = pictureLags(lab.paints, samples, PICTURE_COLORS, endAt);
    note(
      `    picture: ${samples.length} pictures drawn; lags ${lags.map(lag => `${lag.color} ${lag.lagMs ?? `never (${lag.lastedMs} ms)`}`).join(', ')}; stalls over 2 s: ${stalls}`,
    );
    assert.ok(lags.length >= PICTURE_STEPS * 3, `every page painted three times: ${lags.length} paints`);
    writeFigures({ pictureStalls: stalls, pictureLagsMs: lags.map(lag => lag.lagMs ?? lag.lastedMs) });
  });

  it('counts negative sizes in the Network list: a script from the cache, an image that is not there, a fetch', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    await panelHands({ action: 'button', id: 'tab-network' });
    await panelHands({ action: 'select', id: 'throttling', value: 'none' });
    const url = `${fixture.url}/sizes-lab`;
    // The second visit takes the script from the browser's cache.
    await invoke('browser_navigate', { url });
    await invoke('browser_navigate', { url });
    let cells: SizeCells = [];
    const lastVisit = () => cells.slice(cells.map(cell => cell.url).lastIndexOf(url));
    await waitFor(
      async () => {
        cells = JSON.parse(await panelHands({ action: 'measure', task: 'sizes' })) as SizeCells;
        const visit = lastVisit();
        return ['/cached.js', '/missing.png', '/api/data'].every(file => visit.some(cell => cell.url.endsWith(file) && cell.size.some(Boolean)));
      },
      30000,
      () => `the second visit's requests with their sizes: ${JSON.stringify(lastVisit())}`,
      500,
    );
    const negative = cells.filter(cell => cell.size.some(text => /-\s*\d/.test(text)));
    note(
      `    sizes: ${lastVisit()
        .map(cell => `${cell.url.split('/').pop()} ${cell.size.join(' / ')}`)
        .join(', ')}; negative: ${negative.length}`,
    );
    writeFigures({ negativeSizes: negative.length });
  });
});

/** The Network list's rows (their URL tooltip) and Size cells, as the panel shows them. */
type SizeCells = { url: string; size: string[] }[];

/** Adds to the figures this window writes (PLAYWRIGHT_BRIDGE_BENCH_OUT): each test measures its own. */
function writeFigures(figures: object): void {
  const out = process.env.PLAYWRIGHT_BRIDGE_BENCH_OUT;
  if (!out) return;
  const before = fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as object) : {};
  fs.writeFileSync(out, JSON.stringify({ ...before, ...figures }));
}
