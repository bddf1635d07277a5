/**
 * Runs inside a real VS Code extension host: what VS Code itself does with our manifest, our
 * tools and our commands, against pages the test serves on 127.0.0.1.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { listDescendants } from '../../src/core/childProcess/processTree';
import { capabilityOf, isToolEnabled, ManifestTool } from '../../src/core/tools/toolManifest';
import { FixtureServer } from '../fixtures/fixtureServer';
import type { PanelReport } from '../../src/protocol/panelMessages';
import { PlaywrightServer, SERVER_LAUNCH_HEADERS } from '../support/remoteBrowsers';
import { Api, bridgeChildren, EXTENSION_ID, invoke, isAlive, note, panelHands, refOf, screenshotWorkbench, waitFor } from './helpers';

describe('Playwright Bridge in a real VS Code', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  let extension: vscode.Extension<Api>;
  let api: Api;
  let manifest: ManifestTool[];

  before(async () => {
    await fixture.start();
    note(
      `VS Code ${vscode.version} (${vscode.env.appName}, ${vscode.env.uiKind === vscode.UIKind.Web ? 'web workbench' : 'desktop'}, remote: ${vscode.env.remoteName ?? 'none'})`,
    );
    extension = vscode.extensions.getExtension<Api>(EXTENSION_ID)!;
    assert.ok(extension, `${EXTENSION_ID} is installed`);
    note(`    Playwright Bridge ${extension.packageJSON.version} from ${extension.extensionPath}`);
    if (process.env.PLAYWRIGHT_BRIDGE_EXPECT_INSTALLED === '1') {
      assert.ok(!fs.existsSync(path.join(extension.extensionPath, 'src')), 'the extension under test is the installed VSIX, not the source tree');
    }
    api = await extension.activate();
    manifest = extension.packageJSON.contributes.languageModelTools;
  });
  after(() => fixture.stop());

  it('activates and starts no process before the first tool call', () => {
    // Its own time is printed, never asserted: a timed assertion fails on a busy machine, not on slow code.
    note(`    activate() took ${api.activationMs.toFixed(1)} ms`);
    assert.ok(api.activationMs > 0, 'activate() ran and measured itself');
    assert.strictEqual(api.childPid, undefined);
    assert.deepStrictEqual(bridgeChildren(), [], 'no browser server before the first tool call');
  });

  it('registers every manifest tool with VS Code, each gated on a setting VS Code knows', async () => {
    // vscode.lm.tools lists registered tools whether or not their `when` holds (VS Code 1.139 sends
    // getAllToolsIncludingDisabled to extensions); chat applies the `when` clause when it offers tools.
    const offered = () => new Set(vscode.lm.tools.map(t => t.name));
    await waitFor(() => manifest.every(t => offered().has(t.name)), 20000, 'every manifest tool to be registered');
    assert.strictEqual(new Set(manifest.map(t => t.name)).size, manifest.length, 'each tool once');
    const config = vscode.workspace.getConfiguration('playwrightBridge');
    for (const tool of manifest) {
      for (const key of tool.when?.match(/config\.playwrightBridge\.[\w.]+/g) ?? []) {
        const setting = key.replace(/^config\.playwrightBridge\./, '');
        assert.notStrictEqual(config.inspect(setting)?.defaultValue, undefined, `${tool.name}: ${key} names a setting VS Code does not know`);
      }
    }
    assert.deepStrictEqual(
      manifest.filter(t => isToolEnabled(t, [])),
      manifest.filter(t => capabilityOf(t) === undefined),
      'with no capability on, exactly the default tools hold',
    );
  });

  it('drives the browser through vscode.lm.invokeTool: navigate, snapshot, type, click, screenshot', async () => {
    const nav = await invoke('browser_navigate', { url: `${fixture.url}/` });
    assert.match(nav.text, /Page Title: Fixture Home/);
    assert.ok(api.childPid, 'the first call started the browser server');

    const snapshot = (await invoke('browser_snapshot', {})).text;
    const input = refOf(snapshot, /textbox "Your name"/);
    const button = refOf(snapshot, /button "Greet"/);
    await invoke('browser_type', { element: 'Your name', target: input, text: 'Grace' });
    await invoke('browser_click', { element: 'Greet', target: button });
    assert.match((await invoke('browser_snapshot', {})).text, /Hello, Grace!/);

    const shot = await invoke('browser_take_screenshot', {});
    assert.strictEqual(shot.images.length, 1, 'a screenshot comes back as an image data part');
    assert.match(shot.images[0].mimeType, /^image\/(png|jpeg)$/);
    assert.ok(shot.images[0].data.length > 1000);
  });

  it("readonly mode set by a workspace refuses acting tools through vscode.lm.invokeTool at once; a workspace cannot turn off the user's", async () => {
    const config = () => vscode.workspace.getConfiguration('playwrightBridge');
    try {
      await config().update('readonly', true, vscode.ConfigurationTarget.Workspace);
      // The bridge reads settings on VS Code's change event, which comes just after update() resolves.
      await new Promise(resolve => setTimeout(resolve, 300));
      const refused = await invoke('browser_navigate', { url: `${fixture.url}/second` });
      assert.match(refused.text, /readonly mode \(playwrightBridge\.readonly\)/);
      assert.strictEqual(fixture.count('/second'), 0, 'nothing reached the page');
      const looked = await invoke('browser_tabs', { action: 'list' });
      assert.doesNotMatch(looked.text, /readonly mode/, 'observation still works');

      // The user turns it on; the workspace's "false" cannot turn it off.
      await config().update('readonly', true, vscode.ConfigurationTarget.Global);
      await config().update('readonly', false, vscode.ConfigurationTarget.Workspace);
      await new Promise(resolve => setTimeout(resolve, 300));
      assert.match((await invoke('browser_navigate', { url: `${fixture.url}/second` })).text, /readonly mode/);
    } finally {
      await config().update('readonly', undefined, vscode.ConfigurationTarget.Global);
      await config().update('readonly', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await new Promise(resolve => setTimeout(resolve, 300));
    assert.doesNotMatch((await invoke('browser_navigate', { url: `${fixture.url}/second` })).text, /readonly mode/, 'off again at once');
  });

  it('tells the person which setting a capability tool needs, and runs it once turned on and restarted', async () => {
    const off = await invoke('browser_pdf_save', {});
    assert.match(off.text, /browser_pdf_save is one of the pdf tools, which are turned off\. Turn on the setting playwrightBridge\.capabilities\.pdf/);

    const config = vscode.workspace.getConfiguration('playwrightBridge');
    // A cloned workspace cannot turn a tool group on: only the person's own settings can.
    await config.update('capabilities.pdf', true, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor(
        () => api.settingProblems.some(line => /capabilities\.pdf in this workspace's settings is true, which would turn it on/.test(line)),
        10000,
        "the bridge to read the workspace's value and refuse it",
      );
      assert.match((await invoke('browser_pdf_save', {})).text, /which are turned off\. Turn on the setting playwrightBridge\.capabilities\.pdf/);
      await config.update('capabilities.pdf', true, vscode.ConfigurationTarget.Global);
      await waitFor(() => api.settings.capabilities.includes('pdf'), 10000, "the bridge to read the person's value");
      const stale = await invoke('browser_pdf_save', {});
      assert.match(stale.text, /turned on after the browser started: run "Playwright Bridge: Restart Browser"/);
      await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
      await invoke('browser_navigate', { url: `${fixture.url}/second` });
      const saved = await invoke('browser_pdf_save', {});
      assert.doesNotMatch(saved.text, /failed/);
      const pdfPath = /(\/\S+\.pdf)/.exec(saved.text)?.[1];
      assert.ok(pdfPath && fs.existsSync(pdfPath), `a PDF file was written: ${saved.text}`);
      assert.strictEqual(fs.readFileSync(pdfPath).subarray(0, 4).toString(), '%PDF');
    } finally {
      await config.update('capabilities.pdf', undefined, vscode.ConfigurationTarget.Workspace);
      await config.update('capabilities.pdf', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Restart Browser starts a new server and leaves nothing of the old one', async () => {
    const oldPid = api.childPid!;
    const oldTree = [oldPid, ...listDescendants(oldPid)];
    assert.ok(oldTree.length > 1, 'the old server has a browser below it');
    await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
    assert.ok(api.childPid && api.childPid !== oldPid, 'a new server runs');
    await waitFor(() => oldTree.every(pid => !isAlive(pid)), 10000, 'the old tree to end');
    const next = await invoke('browser_navigate', { url: `${fixture.url}/second` });
    assert.match(next.text, /browser was restarted/);
    assert.match(next.text, /Page Title: Second Page/);
  });

  it('a wrong browser path: never called Ready, one notice in words whose button opens that setting, and clearing it is used by Start Browser', async () => {
    type Workbench = { notices: { message: string; buttons: string[] }[]; statusBar: string | null; settingsQuery: string | null };
    const workbench = async (): Promise<Workbench> => {
      // VS Code shows no toasts in smoke-test-driver mode: the notices are read where they are kept, the notification center.
      await vscode.commands.executeCommand('notifications.showList');
      return JSON.parse(await panelHands({ action: 'workbench' })) as Workbench;
    };
    const config = () => vscode.workspace.getConfiguration('playwrightBridge');
    const missing = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'no-such-chromium');
    const failureToasts = (bench: Workbench) => bench.notices.filter(t => /start|browser/i.test(t.message) && !/settings changed/i.test(t.message));
    // The window's own browser path (the suite sets the test browser there): what the person puts back.
    const working = config().inspect<string>('executablePath')?.globalValue;
    const workingAsRead = api.settings.executablePath;
    await config().update('executablePath', missing, vscode.ConfigurationTarget.Global);
    try {
      await waitFor(() => api.settings.executablePath === missing, 10000, 'the bridge to read the wrong path');
      // A fresh server with the wrong path, as after reopening the window: nothing launched yet.
      await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
      await vscode.commands.executeCommand('notifications.clearAll');
      let bench = await workbench();
      assert.strictEqual(bench.statusBar, 'Browser: Not started', 'no browser has started, so the status bar does not say Ready');

      await vscode.commands.executeCommand('playwrightBridge.startBrowser');
      await waitFor(
        async () => failureToasts((bench = await workbench())).length > 0,
        30000,
        () => `the failure notice: ${JSON.stringify(bench)}, ${api.state}`,
      );
      await new Promise(resolve => setTimeout(resolve, 1000));
      bench = await workbench();
      const shown = failureToasts(bench);
      assert.strictEqual(shown.length, 1, `one notice, not two: ${JSON.stringify(bench.notices)}`);
      assert.doesNotMatch(shown[0].message, /###|`|\*\*/, `in words, not markdown: ${shown[0].message}`);
      assert.ok(shown[0].buttons.includes('Open Setting Executable Path'), `its fix is one click away: ${JSON.stringify(shown[0].buttons)}`);
      assert.strictEqual(bench.statusBar, 'Browser: Failed to start');

      await panelHands({ action: 'notificationButton', text: shown[0].message.slice(0, 30), label: 'Open Setting Executable Path' });
      await waitFor(
        async () => (bench = await workbench()).settingsQuery === 'playwrightBridge.executablePath',
        15000,
        () => `Settings filtered to the setting itself: ${bench.settingsQuery}`,
      );

      // The person fixes the setting as the notice told them, and starts the browser again (not Restart Browser).
      await config().update('executablePath', working, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => api.settings.executablePath === workingAsRead,
        10000,
        () => `the bridge to read the fixed setting: ${api.settings.executablePath} (was ${workingAsRead})`,
      );
      await vscode.commands.executeCommand('notifications.clearAll');
      await vscode.commands.executeCommand('playwrightBridge.startBrowser');
      await waitFor(
        async () => (bench = await workbench()).statusBar === 'Browser: Ready',
        30000,
        () => `the browser to run: ${bench.statusBar}`,
      );
      assert.deepStrictEqual(failureToasts(bench), [], 'no failure this time');
      assert.ok(api.childPid && listDescendants(api.childPid).length > 0, 'a browser runs under the server');
    } finally {
      await config().update('executablePath', working, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  it('lets no workspace settings file choose the program, its arguments or the output folder', async () => {
    // What a cloned repository could carry in .vscode/settings.json.
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.vscode', 'settings.json');
    const original = fs.readFileSync(file, 'utf8');
    const planted = { executablePath: '/bin/false', launchArgs: ['--remote-debugging-port=9333', '--lang=de'], outputDir: '/' };
    fs.writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(original), ...Object.fromEntries(Object.entries(planted).map(([k, v]) => [`playwrightBridge.${k}`, v])) }, null, 2),
    );
    try {
      const config = () => vscode.workspace.getConfiguration('playwrightBridge');
      // VS Code may keep machine-scoped values out of the workspace model entirely: give it time to read the file either way.
      await new Promise(resolve => setTimeout(resolve, 2500));
      note(`    planted launchArgs as VS Code reports them: ${JSON.stringify(config().inspect('launchArgs'))}`);
      await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
      const result = await invoke('browser_navigate', { url: `${fixture.url}/second` });
      assert.match(result.text, /Page Title: Second Page/, 'the browser started: /bin/false was not run');
      const tree = listDescendants(api.childPid!);
      const commandLines = tree.map(pid => {
        try {
          return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        } catch {
          return [];
        }
      });
      assert.ok(
        commandLines.some(args => args[0] === process.env.PLAYWRIGHT_BRIDGE_TEST_BROWSER || args[0]?.includes('chromium')),
        "the user's browser runs",
      );
      assert.ok(!commandLines.some(args => args.includes('/bin/false')), 'the planted program never ran');
      assert.ok(
        !commandLines.some(args => args.some(a => a.startsWith('--remote-debugging-port=9333') || a === '--lang=de')),
        'no planted argument reached the browser',
      );
      assert.notStrictEqual(fs.readlinkSync(`/proc/${api.childPid}/cwd`), path.join('/', 'playwright-bridge'), 'the output folder is not the planted one');
    } finally {
      fs.writeFileSync(file, original);
      await new Promise(resolve => setTimeout(resolve, 2500));
    }
  });

  it("with exposure on MCP, VS Code's MCP client starts our server and drives the same browser", async () => {
    const config = vscode.workspace.getConfiguration('playwrightBridge');
    // The person's own choice: a workspace may close a door, never open one.
    await config.update('exposure', 'mcp', vscode.ConfigurationTarget.Global);
    try {
      await invoke('browser_tabs', { action: 'list' });
      const childBefore = api.childPid;
      assert.ok(childBefore);
      const mcpTool = (suffix: string) => vscode.lm.tools.find(t => t.name.startsWith('mcp_') && t.name.endsWith(suffix));
      // VS Code collects the provider's new definition a moment after the setting changes: start until it is there.
      const deadline = Date.now() + 60000;
      while (!mcpTool('browser_navigate') && Date.now() < deadline) {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
        if (!mcpTool('browser_navigate')) await new Promise(resolve => setTimeout(resolve, 1000));
      }
      assert.ok(
        mcpTool('browser_navigate'),
        `the MCP server's tools went live (MCP tools now: ${
          vscode.lm.tools
            .filter(t => t.name.startsWith('mcp_'))
            .map(t => t.name)
            .join(', ') || 'none'
        })`,
      );
      const navigate = mcpTool('browser_navigate')!;
      note(`    MCP tools live, for example ${navigate.name}`);
      const before = fixture.count('/count');
      const result = await invoke(navigate.name, { url: `${fixture.url}/count` });
      assert.match(result.text, /Page Title: Counted/);
      assert.strictEqual(fixture.count('/count'), before + 1, "the call through VS Code's MCP client reached the page once");
      assert.strictEqual(api.childPid, childBefore, 'the same browser server as the language-model tools');
      const seen = await invoke('browser_snapshot', {});
      assert.match(seen.text, /Visit number/, 'the language-model tools see the page the MCP door opened');
    } finally {
      await config.update('exposure', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('shows the live browser panel: a frame, the console line, the request and the tool call', async () => {
    await vscode.commands.executeCommand('playwrightBridge.openPanel');
    await invoke('browser_navigate', { url: `${fixture.url}/live` });
    let report: PanelReport | undefined;
    const seen = () => JSON.stringify(report ?? 'no visible panel');
    await waitFor(
      async () => {
        [report] = await api.describePanels();
        return (
          !!report &&
          report.frameDrawn &&
          report.consoleTexts.includes('live fixture says hello') &&
          report.networkUrls.some(u => u.endsWith('/api/data?from=live')) &&
          report.activityTitles.includes(`Opening ${fixture.url}/live`)
        );
      },
      30000,
      () => `the panel to show the page, its console line, its request and the call: ${seen()}`,
      250,
    );
    assert.ok(report!.frameSize && report!.frameSize.width > 100, 'a real frame is drawn');
    assert.match(report!.header, /Live Fixture/);
    assert.strictEqual(report!.headerRows, 1, 'navigation, address, size, actions and state in one row');

    // The same panel as an editor tab, large, for the picture in the README.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    let editorTab: PanelReport | undefined;
    await waitFor(
      async () => !!(editorTab = (await api.describePanels()).find(r => r.frameDrawn && r.frameSize!.width > 400)),
      20000,
      () => 'the editor panel to draw a frame',
      250,
    );
    assert.strictEqual(editorTab!.headerRows, 1, `the editor tab's header is one row: ${JSON.stringify(editorTab!.layout)}`);
    assert.deepStrictEqual(editorTab!.layout.cutControls, [], 'nothing in it is cut');
    const artifact = path.join(process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? path.join(extension.extensionPath, '.test-artifacts'), 'browser-panel.png');
    fs.mkdirSync(path.dirname(artifact), { recursive: true });
    const taken = await screenshotWorkbench(artifact);
    note(taken ? `    workbench screenshot: ${artifact}` : '    (no workbench screenshot on this host)');
    if (process.env.PLAYWRIGHT_BRIDGE_HOST === 'server') assert.ok(taken, 'the launcher saved a screenshot of the workbench');
    // Asked again, the command brings that tab forward: never a second Browser beside it, streaming the same page twice.
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    const browserTabs = vscode.window.tabGroups.all
      .flatMap(group => group.tabs)
      .filter(tab => tab.input instanceof vscode.TabInputWebview && tab.label === 'Browser');
    assert.strictEqual(browserTabs.length, 1, `one Browser editor tab: ${browserTabs.length}`);
  });

  it('drives a browser on a loopback Playwright server and shows its frames in the panel; the browser runs under the server, not us', async () => {
    const server = new PlaywrightServer();
    await server.start();
    const config = () => vscode.workspace.getConfiguration('playwrightBridge');
    try {
      await config().update('connect.endpoint', server.endpoint, vscode.ConfigurationTarget.Global);
      await config().update('connect.headers', SERVER_LAUNCH_HEADERS, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
      await vscode.commands.executeCommand('playwrightBridge.openPanel');
      const nav = await invoke('browser_navigate', { url: `${fixture.url}/live` });
      assert.match(nav.text, /Live Fixture/);
      await waitFor(
        async () => (await api.describePanels()).some(r => r.frameDrawn && /Live Fixture/.test(r.header)),
        30000,
        'the panel to draw a frame of the remote browser',
        250,
      );
      const ours = bridgeChildren()
        .flatMap(pid => [pid, ...listDescendants(pid)])
        .map(pid => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
          } catch {
            return '';
          }
        });
      assert.ok(!ours.some(cmd => /chrom/i.test(cmd)), `no browser runs under the bridge: ${ours.join(' | ')}`);
      assert.ok(server.pids.length > 1, 'the server runs the browser');
    } finally {
      await config().update('connect.endpoint', undefined, vscode.ConfigurationTarget.Global);
      await config().update('connect.headers', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
      server.kill();
    }
  });

  /** What a function evaluated in the page returned (upstream prints it as JSON under "### Result"). */
  async function evaluateInPage(fn: string): Promise<unknown> {
    const text = (await invoke('browser_evaluate', { function: fn })).text;
    const json = /### Result\n([^]*?)\n(?:###|$)/.exec(text)?.[1];
    if (json === undefined) throw new Error(`no result in ${text}`);
    return JSON.parse(json);
  }

  /** The panel as a large editor tab showing the page, as a person would open it to work in it. */
  async function panelInEditor(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    await waitFor(async () => (await api.describePanels()).some(r => r.frameDrawn), 20000, 'the panel to show the page', 250);
  }

  it('the person works in the page from the panel: a click presses a button once, typing fills a field, the address bar and tab chips navigate', async function () {
    if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
    await invoke('browser_navigate', { url: `${fixture.url}/counter` });
    await panelInEditor();
    const button = (await evaluateInPage(
      "() => { const r = document.querySelector('button').getBoundingClientRect(); return { x: (r.left + r.width / 2) / innerWidth, y: (r.top + r.height / 2) / innerHeight }; }",
    )) as { x: number; y: number };
    const before = fixture.count('/press');
    await panelHands({ action: 'click', ...button });
    await waitFor(() => fixture.count('/press') > before, 10000, 'the click to press the button');
    await new Promise(resolve => setTimeout(resolve, 500));
    assert.strictEqual(fixture.count('/press') - before, 1, 'exactly one press');

    await invoke('browser_navigate', { url: `${fixture.url}/` });
    const field = (await evaluateInPage(
      "() => { const r = document.querySelector('#name').getBoundingClientRect(); return { x: (r.left + r.width / 2) / innerWidth, y: (r.top + r.height / 2) / innerHeight }; }",
    )) as { x: number; y: number };
    await panelHands({ action: 'click', ...field });
    await panelHands({ action: 'type', text: 'Grace' });
    await waitFor(async () => (await evaluateInPage("() => document.getElementById('name').value")) === 'Grace', 10000, 'the typed name in the field');

    await panelHands({ action: 'address', url: `${fixture.url}/second` });
    await waitFor(async () => (await evaluateInPage('() => location.pathname')) === '/second', 10000, 'the address bar to navigate');

    await invoke('browser_tabs', { action: 'new', url: `${fixture.url}/count` });
    await waitFor(async () => /Counted/.test((await api.describePanels())[0]?.header ?? ''), 10000, 'the new tab to show');
    await panelHands({ action: 'tab', index: 0 });
    await waitFor(async () => /- 0: \(current\)/.test((await invoke('browser_tabs', { action: 'list' })).text), 10000, 'the first tab to be current again');
    await invoke('browser_tabs', { action: 'close', index: 1 });
    const activity = (await api.describePanels())[0].activityTitles;
    assert.ok(
      activity.some(t => t.startsWith('Opening ')) && activity.includes('Switching tabs'),
      `the person's actions are in Activity: ${activity.join(' / ')}`,
    );
  });

  it('Take control: a tool call waits for the person, runs after Hand back, and its result says what the person changed', async function () {
    if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
    await invoke('browser_navigate', { url: `${fixture.url}/` });
    await panelInEditor();
    await panelHands({ action: 'button', id: 'control' });
    await waitFor(() => api.personHasControl, 5000, 'the person to have the browser');
    let settled = false;
    const waiting = invoke('browser_snapshot', {}).finally(() => (settled = true));
    await new Promise(resolve => setTimeout(resolve, 1500));
    assert.strictEqual(settled, false, 'the call waits while the person has the browser');
    await panelHands({ action: 'address', url: `${fixture.url}/second` });
    await waitFor(async () => /Second Page/.test((await api.describePanels())[0]?.header ?? ''), 10000, "the person's navigation");
    assert.strictEqual(settled, false);
    // The README's picture of the person driving; a static page's picture follows its header a moment later.
    await new Promise(resolve => setTimeout(resolve, 1000));
    await screenshotWorkbench(path.join(process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp', 'person-driving.png'));
    await panelHands({ action: 'button', id: 'control' });
    const result = await waiting;
    assert.match(
      result.text,
      /^Note: the person drove the browser for \d+ s while this call waited\. Now the current tab is "Second Page" at http:\/\/127\.0\.0\.1:\d+\/second \(it was "Fixture Home"/,
    );
    assert.match(result.text, /heading "Second page"/, 'and the call ran on the page the person left');
    assert.strictEqual(api.personHasControl, false);
  });

  it('is readable in the side bar at 300 px: no control cut, toggles on one line, the frame filling its box', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('playwrightBridge.openPanel');
    await invoke('browser_navigate', { url: `${fixture.url}/live` });
    let report: PanelReport | undefined;
    const sideView = async () => !!(report = (await api.describePanels()).find(r => r.frameDrawn && r.layout.width < 700));
    await waitFor(sideView, 20000, () => `the side-bar panel to draw a frame: ${JSON.stringify(report)}`, 250);
    // Bring the side bar to about 300 px (VS Code's commands move it in steps).
    for (let i = 0; i < 12 && Math.abs(report!.layout.width - 300) > 30; i++) {
      await vscode.commands.executeCommand(report!.layout.width > 300 ? 'workbench.action.decreaseViewWidth' : 'workbench.action.increaseViewWidth');
      await new Promise(resolve => setTimeout(resolve, 300));
      await waitFor(sideView, 5000, 'the side-bar panel after a resize', 100);
    }
    // The frame follows the new size after the panel's resize settles.
    await waitFor(
      async () => (await sideView()) && report!.layout.frameBands <= 4,
      10000,
      () => `the frame to fill its box: ${JSON.stringify(report!.layout)}`,
      250,
    );
    const { layout } = report!;
    note(`    side-bar panel: ${JSON.stringify(layout)}`);
    assert.ok(Math.abs(layout.width - 300) <= 30, `the side bar is about 300 px wide: ${layout.width}`);
    assert.deepStrictEqual(layout.cutControls, [], 'no control is cut off or sticks out');
    assert.ok(layout.filterWidth >= 150, `the filter box is wide enough to read its text: ${layout.filterWidth} px`);
    assert.ok(layout.levelsOnOneLine, 'the level toggles sit on one line');
    assert.strictEqual(report!.headerRows, 1, 'the header stays one row at 300 px (actions that do not fit are in its menu)');
    assert.ok(layout.addressWidth >= 120, `the address field has room for an address: ${layout.addressWidth} px`);
    const artifact = path.join(process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? path.join(extension.extensionPath, '.test-artifacts'), 'browser-panel-sidebar.png');
    const taken = await screenshotWorkbench(artifact, '.part.sidebar');
    if (process.env.PLAYWRIGHT_BRIDGE_HOST === 'server') assert.ok(taken, 'the launcher saved a picture of the side bar');
    if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') return;
    // A request's details at 300 px take the list's place, its header row with it, and keep room for their title.
    await panelHands({ action: 'button', id: 'tab-network' });
    await panelHands({ action: 'request', text: '/live' });
    await waitFor(
      async () => (await sideView()) && report!.layout.requestDetailPlace !== 'closed' && report!.requestDetail !== '',
      10000,
      () => `the request's details: ${JSON.stringify(report!.layout)}`,
      250,
    );
    assert.strictEqual(report!.layout.requestDetailPlace, 'over', "in the side bar the details take the list's place");
    assert.ok(report!.layout.requestTitleWidth >= 60, `the details' title has room: ${report!.layout.requestTitleWidth} px`);
    assert.deepStrictEqual(report!.layout.cutControls, [], 'nothing is cut with the details open');
    await panelHands({ action: 'button', id: 'request-close' });
    await panelHands({ action: 'button', id: 'tab-console' });
  });
});
