/**
 * The panel a web developer reaches for, in a real VS Code: a request opened in the Network pane shows
 * both bodies and headers, Copy as cURL puts a command on the clipboard that gets the same answer from
 * the server, and the size picker's phone preset changes the page's size in the model's next snapshot, on a
 * loaded machine too.
 */
import * as assert from 'assert';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import * as vscode from 'vscode';
import { FixtureServer } from '../fixtures/fixtureServer';
import { SCRIPTS } from '../fixtures/devtoolsPages';
import type { PanelReport } from '../../src/protocol/panelMessages';
import { startBusyLoops } from '../support/busyLoops';
import { checkHar } from '../support/harRoundTrip';
import { Api, EXTENSION_ID, invoke, note, panelHands, refOf, screenshotWorkbench, waitFor } from './helpers';

const run = promisify(execFile);

/** A loopback port nothing listens on (taken, then let go). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}
/** What /api/echo answers to the lab page's POST. */
const ECHO_ANSWER = { received: { name: 'Ada', items: [1, 2] }, method: 'POST', contentType: 'application/json', lab: 'on' };

describe('The panel for a web developer in a real VS Code', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  let api: Api;
  const artifacts = () => process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, '.test-artifacts');

  before(async function () {
    if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
    await fixture.start();
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as Api;
  });
  after(() => fixture.stop());

  /** The panel as an editor tab beside nothing else: the one the person's hands reach. */
  async function editorPanelOn(url: string, seen: (report: PanelReport) => boolean, what: string): Promise<PanelReport> {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    await invoke('browser_navigate', { url });
    let report: PanelReport | undefined;
    await waitFor(
      async () => !!(report = (await api.describePanels()).find(r => r.frameDrawn && seen(r))),
      30000,
      () => `${what}: ${JSON.stringify(report)}`,
      250,
    );
    return report!;
  }

  it("Open DevTools: Chrome DevTools in an editor tab shows the watched page's DOM and follows the agent's tab; Restart Browser closes it in words, and it comes back once a browser runs", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await invoke('browser_navigate', { url: `${fixture.url}/` });
    const started = Date.now();
    await vscode.commands.executeCommand('playwrightBridge.openDevTools');
    // The Elements tree of the page the agent opened: its heading, inside DevTools' frame in the editor tab.
    const where = await panelHands({ action: 'frameText', text: 'Fixture Home', urlPart: '/frontend/inspector.html', seconds: 60 }, 70000).catch(
      async error => {
        await screenshotWorkbench(path.join(artifacts(), 'devtools-not-shown.png'));
        throw error;
      },
    );
    assert.match(where, /frontend\/inspector\.html/, `DevTools' own frontend shows it (${where})`);
    note(`Open DevTools to the DOM shown: ${Date.now() - started} ms`);
    assert.ok(
      vscode.window.tabGroups.all.some(group => group.tabs.some(tab => tab.label.startsWith('DevTools'))),
      'an editor tab named DevTools',
    );
    // It follows the panel's current tab: the agent's new tab is what DevTools shows.
    await invoke('browser_tabs', { action: 'new' });
    await invoke('browser_navigate', { url: `${fixture.url}/second` });
    await panelHands({ action: 'frameText', text: 'Second page', urlPart: '/frontend/inspector.html', seconds: 60 }, 70000);
    await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
    // The tab stays and says why DevTools went, and what brings it back.
    await panelHands({ action: 'frameText', text: 'DevTools closed: the browser closed or restarted', part: true, seconds: 30 }, 40000);
    // Once a browser runs again, DevTools is back on the agent's tab by itself.
    await invoke('browser_navigate', { url: `${fixture.url}/` });
    await panelHands({ action: 'frameText', text: 'Fixture Home', urlPart: '/frontend/inspector.html', seconds: 60 }, 70000);
  });

  it("Debug Browser in VS Code: VS Code's JavaScript debugger attaches, a breakpoint in a workspace script pauses the agent's click, and the click waits and says how long", async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    // The page's own script, as the workspace holds it: the debugger maps its URL under the workspace folder.
    const script = vscode.Uri.joinPath(folder, 'perf', 'reflow.js');
    await vscode.workspace.fs.writeFile(script, Buffer.from(SCRIPTS['/perf/reflow.js']));
    const breakpoint = new vscode.SourceBreakpoint(new vscode.Location(script, new vscode.Position(2, 2)));
    vscode.debug.addBreakpoints([breakpoint]);
    try {
      await invoke('browser_navigate', { url: `${fixture.url}/perf/reflow` });
      const ref = refOf((await invoke('browser_snapshot', {})).text, /button "Resize the box"/);
      const started: vscode.DebugSession[] = [];
      const listening = vscode.debug.onDidStartDebugSession(session => started.push(session));
      const outcome = await vscode.commands.executeCommand<{ started: boolean; why?: string }>('playwrightBridge.debugBrowser');
      assert.ok(outcome?.started, `VS Code's debugger started: ${JSON.stringify(outcome)}`);
      await waitFor(() => started.some(session => session.configuration.name?.startsWith('Playwright Bridge')), 30000, 'the debug session').catch(
        async error => {
          const workbench = await panelHands({ action: 'workbench' }).catch(() => '?');
          throw new Error(`${(error as Error).message} (started: ${started.map(session => session.name).join(', ') || 'none'}; the workbench: ${workbench})`);
        },
      );
      const session = started.find(candidate => candidate.configuration.name?.startsWith('Playwright Bridge'))!;
      // js-debug attaches to the page in a session of its own, below the one started: it has the page's script
      // (so the breakpoint is bound) before the agent clicks.
      await waitFor(
        async () => {
          for (const child of started.filter(candidate => candidate !== session)) {
            const loaded = (await Promise.resolve(child.customRequest('loadedSources')).catch(() => ({ sources: [] }))) as {
              sources: { path?: string; name?: string }[];
            };
            if (loaded.sources.some(source => `${source.path ?? ''}${source.name ?? ''}`.includes('reflow.js'))) return true;
          }
          return false;
        },
        30000,
        'the debugger to attach to the page and load its script',
      ).catch(error => {
        throw new Error(`${(error as Error).message} (sessions: ${started.map(candidate => candidate.name).join(', ')})`);
      });
      listening.dispose();
      const click = invoke('browser_click', { element: 'Resize the box', target: ref });
      await waitFor(() => vscode.debug.activeStackItem !== undefined, 30000, 'the breakpoint to pause the page');
      await vscode.commands.executeCommand('workbench.action.debug.continue');
      const { text } = await click;
      assert.match(text, /The page was paused in the debugger for [\d.]+ s while this call ran/, text);
      await vscode.debug.stopDebugging(session);
    } finally {
      vscode.debug.removeBreakpoints([breakpoint]);
    }
  });

  it('opens a JSON POST in the Network pane: both bodies and headers show, and Copy as cURL gets the same answer from the server', async () => {
    await editorPanelOn(`${fixture.url}/network-lab`, r => r.networkUrls.some(u => u.endsWith('/api/echo')), "the panel to list the lab's POST");
    await panelHands({ action: 'button', id: 'tab-network' });
    await panelHands({ action: 'request', text: '/api/echo' });
    let shown = '';
    await waitFor(
      async () => /## Response body/.test((shown = (await api.describePanels())[0]?.requestDetail ?? '')),
      15000,
      () => `the request's details: ${shown}`,
      250,
    );
    note(
      `    request details as shown:\n${shown
        .split('\n')
        .slice(0, 12)
        .map(line => `      ${line}`)
        .join('\n')}`,
    );
    assert.match(shown, /^POST http:\/\/127\.0\.0\.1:\d+\/api\/echo/);
    assert.match(shown, /## Request headers \(\d+\)\n(?:.*\n)*?content-type\napplication\/json\n/);
    assert.match(shown, /x-lab\non/);
    assert.match(shown, /## Response headers \(\d+\)\n(?:.*\n)*?x-echo\nyes/);
    assert.match(shown, /## Request body\n.*\n\{\n {2}"name": "Ada",\n {2}"items": \[\n/, 'the request body, pretty-printed');
    assert.match(shown, /## Response body\n.*\n\{\n {2}"received": \{\n {4}"name": "Ada"/, 'the response body, pretty-printed');
    // As in DevTools, in a pane this wide the details open beside the list (narrowed to its names), which stays in view.
    assert.strictEqual((await api.describePanels())[0]?.layout.requestDetailPlace, 'beside');
    await screenshotWorkbench(path.join(artifacts(), 'network-detail.png'));

    await vscode.env.clipboard.writeText('');
    await panelHands({ action: 'button', id: 'request-curl' });
    let copied = '';
    await waitFor(
      async () => (copied = await vscode.env.clipboard.readText()).startsWith('curl '),
      10000,
      () => `Copy as cURL to fill the clipboard: ${JSON.stringify(copied)}`,
      200,
    );
    assert.match(copied, /--data-raw '\{"name":"Ada","items":\[1,2\]\}'/);
    // Asynchronously: the fixture that answers runs in this very process.
    const { stdout } = await run('sh', ['-c', copied], { encoding: 'utf8', timeout: 15000 });
    assert.deepStrictEqual(JSON.parse(stdout), ECHO_ANSWER, 'the copied command gets the answer the page got');
  });

  it("the Console pane as a DevTools user reads it: an object's preview, an error's place, an uncaught error and a rejection named as such", async () => {
    const report = await editorPanelOn(
      `${fixture.url}/console-lab`,
      r => r.consoleTexts.some(text => /payment timed out/.test(text)) && r.consoleTexts.some(text => /checkout is not defined/.test(text)),
      "the panel to list the lab's messages",
    );
    await panelHands({ action: 'button', id: 'tab-console' });
    note(`    console as listed: ${report.consoleTexts.join(' / ')}`);
    assert.ok(
      report.consoleTexts.some(text => /^cart .*total: 19\.9/.test(text)),
      'the object as a preview',
    );
    // An error's row opens its stack (the ▶ before its text).
    assert.ok(
      report.consoleTexts.some(text => /^▶?Uncaught \(in promise\) Error: payment timed out$/.test(text)),
      'the rejection named as one',
    );
    assert.ok(
      report.consoleTexts.some(text => /^▶?Uncaught Error: checkout is not defined$/.test(text)),
      'the uncaught error',
    );
    assert.ok(
      report.consoleTexts.some(text => /^▶?save failed: HTTP 503$/.test(text)),
      "console.error's arguments joined as DevTools does",
    );
    await screenshotWorkbench(path.join(artifacts(), 'console-pane.png'));
  });

  it("the size picker's phone preset resizes the page at once: the header says so and the model's next snapshot has the new size, two busy loops beside it and the page's next frame seconds late", async () => {
    // The machine loaded (two cores kept busy), and a page that draws nothing for a few seconds (holdFrames: a view
    // transition waiting for its data), which the open panel's live view shows as a still: the model's next call must
    // still find the page at the chosen size, drawn at it.
    const busy = startBusyLoops(2);
    try {
      const report = await editorPanelOn(`${fixture.url}/held-frames`, r => /Held Frames/.test(r.header), 'the panel to show the page');
      assert.strictEqual(report.sizeLabel, '1280×720', 'the header shows the size the agent works at');
      const before = await invoke('browser_snapshot', {});
      assert.match(before.text, /Size: 1280x720/);
      assert.match((await invoke('browser_evaluate', { function: '() => holdFrames()' })).text, /"held"/);
      await panelHands({ action: 'select', id: 'size', value: '390x844' });
      await waitFor(async () => (await api.describePanels())[0]?.sizeLabel === '390×844', 15000, 'the header to show the phone size', 250);
      const after = await invoke('browser_snapshot', {});
      assert.match(after.text, /Size: 390x844/, after.text.slice(0, 600));
      assert.match(after.text, /The person resized the page to 390×844/);
    } finally {
      await busy.stop();
    }
  });

  it('the Network pane: columns that sort, a waterfall, throttling shown in the header; Save all as HAR writes a file a validator accepts and routeFromHAR replays', async () => {
    // Its own server, stopped before the replay: the page comes from the file alone.
    const lab = new FixtureServer();
    await lab.start();
    const labUrl = `${lab.url}/network-lab`;
    await editorPanelOn(labUrl, r => /Network Lab/.test(r.header), 'the panel to show the lab');
    await panelHands({ action: 'button', id: 'tab-network' });
    let report: PanelReport | undefined;
    await waitFor(
      async () => ((report = (await api.describePanels())[0])?.networkUrls.filter(u => u.startsWith(lab.url)).length ?? 0) >= 4,
      15000,
      () => `the lab's requests listed: ${JSON.stringify(report?.networkUrls)}`,
      200,
    );
    await panelHands({ action: 'select', id: 'throttling', value: 'fast4g' });
    await waitFor(
      async () => /Fast 4G/.test((report = (await api.describePanels())[0])?.header ?? ''),
      10000,
      () => `the header to say Fast 4G: ${report?.header}`,
      200,
    );
    await panelHands({ action: 'button', id: 'col-size' });
    await screenshotWorkbench(path.join(artifacts(), 'network-pane.png'));
    await panelHands({ action: 'select', id: 'throttling', value: 'none' });
    await waitFor(async () => !/Fast 4G/.test((await api.describePanels())[0]?.header ?? ''), 10000, 'the header to drop Fast 4G', 200);

    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-it-har-'));
    const file = vscode.Uri.file(path.join(folder, 'lab.har'));
    const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('playwrightBridge.saveNetworkHar', file);
    assert.strictEqual(saved?.fsPath, file.fsPath, 'saved where asked');
    await lab.stop();
    const check = await checkHar(file.fsPath, labUrl, /echo answered/);
    note(`    HAR: valid ${check.valid}, replayed ${!!check.replayed}`);
    assert.ok(check.valid, `HAR 1.2: ${check.problems}`);
    assert.match(check.replayed?.text ?? '', /Network lab/, `replayed from the file with the server gone: ${check.problems}`);
    assert.ok(check.replayed!.console.includes('echo answered Ada'), JSON.stringify(check.replayed!.console));
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('the address bar: text that is not an address goes nowhere and says so; a failed load keeps the address, shows why in words, and lists one request', async () => {
    await editorPanelOn(`${fixture.url}/network-lab`, r => /Network Lab/.test(r.header), 'the panel to show the lab');
    await panelHands({ action: 'address', url: 'what is this ^^' });
    let report: PanelReport | undefined;
    await waitFor(
      async () => /not an address/.test((report = (await api.describePanels())[0])?.addressMessage ?? ''),
      5000,
      () => `the address bar to say the text is not an address: ${JSON.stringify(report?.addressMessage)}`,
      100,
    );
    assert.match(report!.header, /what is this \^\^/, 'the typed text stays in the address bar');
    assert.match((await invoke('browser_evaluate', { function: '() => location.href' })).text, /network-lab/, 'the page went nowhere');

    const closed = await closedPort();
    const failing = `http://127.0.0.1:${closed}/nothing-here`;
    await panelHands({ action: 'address', url: failing });
    await waitFor(
      async () => /Could not open this page/.test((report = (await api.describePanels())[0])?.loadError ?? ''),
      15000,
      () => `the bridge's error page: ${JSON.stringify(report?.loadError)} (header ${report?.header})`,
      200,
    );
    assert.match(report!.loadError, /refused the connection.*ERR_CONNECTION_REFUSED/, report!.loadError);
    assert.ok(report!.header.includes(failing), `the address bar keeps the address that failed, not the browser's error page: ${report!.header}`);
    assert.doesNotMatch(report!.header, /chrome-error/, report!.header);
    // The call's row ends once the navigation's answer is back, which may be after the page showed the failure.
    await waitFor(
      async () => /^Could not open/.test((report = (await api.describePanels())[0])?.activityErrors.at(-1) ?? ''),
      10000,
      () => `Activity to say why: ${JSON.stringify(report?.activityErrors.slice(-2))}`,
      200,
    );
    const said = report!.activityErrors.at(-1) ?? '';
    assert.match(
      said,
      new RegExp(`^Could not open ${failing.replace(/[.?]/g, '\\$&')}: the server refused the connection`),
      `Activity says why in words: ${said}`,
    );
    assert.doesNotMatch(said, /browserBackend|callTool/, said);
    await screenshotWorkbench(path.join(artifacts(), 'failed-load.png'));
    // Chromium's error page would load it again by itself after 1 s and 5 s: wait past both, then count.
    await new Promise(resolve => setTimeout(resolve, 6500));
    report = (await api.describePanels())[0];
    assert.strictEqual(
      report!.networkUrls.filter(url => url === failing).length,
      1,
      `one request for one failed load: ${JSON.stringify(report!.networkUrls.slice(-6))}`,
    );
  });

  it("the picture takes each preset's shape, whoever resized the page: the person's picker or the agent's browser_resize", async () => {
    await editorPanelOn(`${fixture.url}/network-lab`, r => /Network Lab/.test(r.header), 'the panel to show the lab');
    const aspect = (size: { width: number; height: number } | undefined) => (size ? size.width / size.height : NaN);
    const pictureShows = async (width: number, height: number, by: string) => {
      let report: PanelReport | undefined;
      // The page's own width, as its script reads it (it lays itself out in its next frame): the picture is of this page.
      let ownWidth = '';
      await waitFor(
        async () => new RegExp(`\\b${width}\\b`).test((ownWidth = (await invoke('browser_evaluate', { function: '() => innerWidth' })).text)),
        5000,
        () => `the page itself to be ${width} wide after ${by}: ${ownWidth.slice(0, 200)}`,
        100,
      );
      await waitFor(
        async () => {
          report = (await api.describePanels())[0];
          return (
            report?.pictureOf?.width === width &&
            report.pictureOf.height === height &&
            // The picture itself (its pixels and its box on screen) has the page's shape, not the old one stretched.
            Math.abs(aspect(report.frameSize) / (width / height) - 1) < 0.03 &&
            Math.abs(aspect(report.pictureBox) / (width / height) - 1) < 0.03
          );
        },
        10000,
        () =>
          `the picture to show the page at ${width}×${height} after ${by}: ${JSON.stringify({ pictureOf: report?.pictureOf, frameSize: report?.frameSize, pictureBox: report?.pictureBox, size: report?.sizeLabel })}`,
        100,
      );
      assert.strictEqual(report!.sizeLabel, `${width}×${height}`, 'and the header says that size');
    };
    for (const preset of ['390x844', '1366x768', '820x1180', '1920x1080']) {
      const [width, height] = preset.split('x').map(Number);
      await panelHands({ action: 'select', id: 'size', value: preset });
      await pictureShows(width, height, `the preset ${preset}`);
    }
    await invoke('browser_resize', { width: 1024, height: 700 });
    await pictureShows(1024, 700, "the agent's browser_resize");
    await screenshotWorkbench(path.join(artifacts(), 'size-follows.png'));
  });

  it("is no keyboard trap: the picture types into the page, F1 and Ctrl+Shift+P open VS Code's command palette, Shift+Esc leaves the picture", async () => {
    await editorPanelOn(`${fixture.url}/calm`, r => /Fixture Home/.test(r.header), 'the panel to show the page');
    // The page records the keys it gets.
    await invoke('browser_evaluate', {
      function: "() => { window.keysSeen = []; addEventListener('keydown', e => keysSeen.push(e.key), true); return 'recording'; }",
    });
    const keysSeen = async () => {
      // Upstream prints the function's answer as JSON under "### Result".
      const text = (await invoke('browser_evaluate', { function: '() => keysSeen' })).text;
      return JSON.parse(/### Result\n([^]*?)\n(?:###|$)/.exec(text)?.[1] ?? '[]') as string[];
    };
    type Focus = { panel: string | null; quickInput: boolean };
    let focus: Focus | undefined;
    const focusIs = async (wanted: (f: Focus) => boolean, what: string) =>
      waitFor(
        async () => wanted((focus = JSON.parse(await panelHands({ action: 'focus' })) as Focus)),
        5000,
        () => `${what}: ${JSON.stringify(focus)}`,
        200,
      );
    /** A click on an empty place of the page's picture: the keyboard goes to the page. */
    const clickPicture = async () => {
      await panelHands({ action: 'click', x: 0.9, y: 0.9 });
      await focusIs(f => f.panel === 'keys' && !f.quickInput, 'the picture to hold the keyboard after a click');
    };

    await clickPicture();
    await panelHands({ action: 'key', key: 'q' });
    let seen: string[] = [];
    await waitFor(
      async () => (seen = await keysSeen()).includes('q'),
      5000,
      () => `the page to get the q typed: ${JSON.stringify(seen)}`,
      200,
    );

    await panelHands({ action: 'key', key: 'F1' });
    await focusIs(f => f.quickInput, 'F1 to open the command palette');
    await panelHands({ action: 'key', key: 'Escape' });
    await focusIs(f => !f.quickInput, 'Esc to close the palette');

    await clickPicture();
    await panelHands({ action: 'key', key: 'Control+Shift+P' });
    await focusIs(f => f.quickInput, 'Ctrl+Shift+P to open the command palette');
    await panelHands({ action: 'key', key: 'Escape' });
    await focusIs(f => !f.quickInput, 'Esc to close the palette');

    await clickPicture();
    await panelHands({ action: 'key', key: 'Shift+Escape' });
    // To a control of the panel after the picture: the panel keeps the focus, the picture does not.
    await focusIs(f => !!f.panel && f.panel !== 'keys' && !f.quickInput, 'Shift+Esc to move the focus out of the picture');
    note(`    after Shift+Esc the panel's focus is on #${focus?.panel}`);
    seen = await keysSeen();
    assert.deepStrictEqual(
      seen.filter(key => key !== 'Shift' && key !== 'Control'),
      ['q'],
      `the page got the q, and none of F1, P or Escape: ${JSON.stringify(seen)}`,
    );
  });
});
