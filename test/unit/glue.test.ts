/**
 * The VS Code glue in plain Node, against the fake `vscode` (test/support/fakeVscode.ts) and a real
 * supervisor over a scripted child: what the tools, the MCP provider, the status bar, the panel host
 * and the commands do with what VS Code hands them. The real-VS-Code suite covers the workbench.
 */
import * as assert from 'assert';
import { readLevels } from '../support/settingLevels';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { COMMANDS } from '../../src/core/contributionIds';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { Supervisor } from '../../src/core/supervision/supervisor';
import { capabilityHint, ManifestTool } from '../../src/core/tools/toolManifest';
import { OPEN_POLICY } from '../../src/core/tools/toolPolicy';
import { EXPORT_TEST_TOOL, RESTORE_STEP_TOOL } from '../../src/core/tools/ownTools';
import type { PickParams } from '../../src/protocol/childMessages';
import { HostToPanel } from '../../src/protocol/panelMessages';
import { restartBrowser, startBrowser } from '../../src/vscode/browserCommands';
import { pickDevice } from '../../src/vscode/devicePicker';
import { BrowserPanelHub } from '../../src/vscode/browserPanel';
import { TimeTravel } from '../../src/vscode/timeTravel';
import { Timeline } from '../../src/core/timeTravel/timeline';
import { registerLanguageModelTools } from '../../src/vscode/languageModelTools';
import { PlaywrightMcpServerProvider } from '../../src/vscode/mcpServerProvider';
import { BridgeStatusBar } from '../../src/vscode/statusBar';
import { BrowserHealthTracker } from '../../src/core/supervision/browserHealth';
import {
  CancellationTokenSource,
  createFakeVscode,
  EventEmitter,
  LanguageModelDataPart,
  LanguageModelTextPart,
  McpHttpServerDefinition,
  Uri,
} from '../support/fakeVscode';
import { ScriptedChild } from '../support/scriptedChild';
import { waitFor } from '../support/realBridge';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');
const MANIFEST: ManifestTool[] = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools;

/** A real supervisor over scripted children that answer each call with `reply`. */
function scriptedSupervisor(
  reply: (name: string, args: unknown) => { text?: string; image?: string; isError?: boolean } = () => ({ text: 'done' }),
  policy = OPEN_POLICY,
) {
  const children: ScriptedChild[] = [];
  const tools: Tool[] = MANIFEST.map(t => ({ name: t.name, inputSchema: t.inputSchema as Tool['inputSchema'], annotations: { title: t.displayName } }));
  const supervisor = new Supervisor({
    factory: async events => {
      const child = new ScriptedChild(events, tools);
      child.respond = (name, args) => {
        const r = reply(name, args);
        return {
          isError: r.isError,
          content: [
            ...(r.text ? [{ type: 'text' as const, text: r.text }] : []),
            ...(r.image ? [{ type: 'image' as const, data: r.image, mimeType: 'image/png' }] : []),
          ],
        };
      };
      children.push(child);
      return child;
    },
    log: () => undefined,
    callTimeoutMs: () => 5000,
    toolPolicy: () => policy,
    // As the extension wires it: no capability group turned on in these settings.
    capabilityHint: tool => {
      const entry = MANIFEST.find(t => t.name === tool);
      return entry && capabilityHint(entry, [], undefined);
    },
  });
  return { supervisor, children };
}

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('VS Code glue against a fake vscode', () => {
  describe('language-model tools', () => {
    const places = { outputDir: () => '/storage/output/playwright-bridge', roots: () => ['/ws'] };

    it('registers every manifest tool, and a call returns text and image parts', async () => {
      const fake = createFakeVscode();
      const { supervisor } = scriptedSupervisor(name => (name === 'browser_take_screenshot' ? { text: '### Result\nshot', image: PNG_1X1 } : { text: 'ok' }));
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, places);
      // The host's own tools (bridge_export_test) too: their calls go through the same pipeline.
      assert.deepStrictEqual([...fake.tools.keys()].sort(), MANIFEST.map(t => t.name).sort());
      const tool = fake.tools.get('browser_take_screenshot') as { invoke(o: unknown, t: unknown): Promise<{ content: unknown[] }> };
      const result = await tool.invoke({ input: { type: 'png' } }, new CancellationTokenSource().token);
      assert.ok(result.content[0] instanceof LanguageModelTextPart);
      assert.strictEqual((result.content[0] as LanguageModelTextPart).value, '### Result\nshot');
      assert.ok(result.content[1] instanceof LanguageModelDataPart);
      assert.strictEqual((result.content[1] as LanguageModelDataPart).mimeType, 'image/png');
      await supervisor.dispose();
    });

    it('prepares a message naming the call, and a confirmation naming the exact file it writes', () => {
      const fake = createFakeVscode();
      const { supervisor } = scriptedSupervisor();
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, places);
      const snapshot = fake.tools.get('browser_snapshot') as {
        prepareInvocation(o: unknown): { invocationMessage: string; confirmationMessages?: { title: string; message: { value: string } } };
      };
      assert.strictEqual(snapshot.prepareInvocation({ input: {} }).confirmationMessages, undefined);
      const writing = snapshot.prepareInvocation({ input: { filename: 'inside.yml' } });
      assert.strictEqual(writing.confirmationMessages?.title, 'Write a file?');
      assert.match(writing.confirmationMessages!.message.value, /`\/storage\/output\/playwright-bridge\/inside\.yml`/);
      const navigate = fake.tools.get('browser_navigate') as typeof snapshot;
      assert.strictEqual(navigate.prepareInvocation({ input: { url: 'http://127.0.0.1:1/x' } }).invocationMessage, 'Opening http://127.0.0.1:1/x');
      void supervisor.dispose();
    });

    it('says which setting turns on a capability tool instead of calling it', async () => {
      const fake = createFakeVscode();
      const { supervisor, children } = scriptedSupervisor();
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, places);
      const pdf = fake.tools.get('browser_pdf_save') as { invoke(o: unknown, t: unknown): Promise<{ content: LanguageModelTextPart[] }> };
      const result = await pdf.invoke({ input: {} }, new CancellationTokenSource().token);
      assert.match(result.content[0].value, /Turn on the setting playwrightBridge\.capabilities\.pdf/);
      assert.strictEqual(children.length, 0, 'nothing was started for it');
      await supervisor.dispose();
    });

    it('turns a cancelled call into a CancellationError', async () => {
      const fake = createFakeVscode();
      const { supervisor, children } = scriptedSupervisor();
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, places);
      await supervisor.callTool('browser_snapshot', {});
      children[0].holdCalls = true;
      const cancel = new CancellationTokenSource();
      const navigate = fake.tools.get('browser_navigate') as { invoke(o: unknown, t: unknown): Promise<unknown> };
      const pending = navigate.invoke({ input: { url: 'about:blank' } }, cancel.token);
      cancel.cancel();
      children[0].die();
      await assert.rejects(pending, (error: Error) => error.constructor.name === 'CancellationError');
      await supervisor.dispose();
    });

    it('runs a code file exactly as its confirmation showed it, and nothing if it changed', async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-glue-'));
      fs.writeFileSync(path.join(root, 'script.js'), 'async (page) => page.title()');
      const fake = createFakeVscode();
      const sent: unknown[] = [];
      const { supervisor } = scriptedSupervisor((_name, args) => (sent.push(args), { text: 'ran' }));
      // A relative code file is read from the output folder, where the bridge's writers put files (one rule for relative names).
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, { ...places, outputDir: () => root });
      const tool = fake.tools.get('browser_run_code_unsafe') as {
        prepareInvocation(o: unknown): { confirmationMessages: { message: { value: string } } };
        invoke(o: unknown, t: unknown): Promise<{ content: LanguageModelTextPart[] }>;
      };
      const input = { filename: 'script.js' };
      assert.match(tool.prepareInvocation({ input }).confirmationMessages.message.value, /async \(page\) => page\.title\(\)/);
      await tool.invoke({ input }, new CancellationTokenSource().token);
      assert.deepStrictEqual(sent, [{ code: 'async (page) => page.title()' }], 'the shown text ran, as code');
      tool.prepareInvocation({ input });
      fs.writeFileSync(path.join(root, 'script.js'), 'async (page) => { /* swapped */ }');
      const refused = await tool.invoke({ input }, new CancellationTokenSource().token);
      assert.match(refused.content[0].value, /changed after it was shown for confirmation; nothing ran/);
      assert.strictEqual(sent.length, 1);
      await supervisor.dispose();
    });
  });

  describe("the host's own tools, through the one pipeline", () => {
    const places = { outputDir: () => '/storage/output/playwright-bridge', roots: () => ['/ws'] };
    type HostLmTool = {
      prepareInvocation(o: unknown): { invocationMessage: string };
      invoke(o: unknown, t: unknown): Promise<{ content: LanguageModelTextPart[] }>;
    };
    const text = (result: { content: LanguageModelTextPart[] }) => result.content.map(part => part.value).join('');

    it('readonly mode refuses bridge_restore_step as an error, and its handler never runs', async () => {
      const fake = createFakeVscode();
      const { supervisor } = scriptedSupervisor(undefined, { ...OPEN_POLICY, readonly: true });
      const ran: unknown[] = [];
      supervisor.registerHostTool(RESTORE_STEP_TOOL, async args => (ran.push(args), { text: 'restored' }));
      registerLanguageModelTools(fake.vscode, MANIFEST, supervisor, () => undefined, places);
      const result = await (fake.tools.get(RESTORE_STEP_TOOL) as HostLmTool).invoke({ input: { stepsBack: 1 } }, new CancellationTokenSource().token);
      assert.match(text(result), /^The tool bridge_restore_step failed: bridge_restore_step is not available: the browser is in readonly mode/);
      assert.deepStrictEqual(ran, []);
      const direct = await supervisor.callTool(RESTORE_STEP_TOOL, { stepsBack: 1 });
      assert.strictEqual(direct.isError, true);
      await supervisor.dispose();
    });

    it('waits while the person has the browser, runs once they hand it back, and a failed export is an error the model reads as failed', async () => {
      const fake = createFakeVscode();
      const { supervisor } = scriptedSupervisor();
      const ran: string[] = [];
      supervisor.registerHostTool(RESTORE_STEP_TOOL, async () => (ran.push('restore'), { text: 'The browser was restored to step 1.' }));
      supervisor.registerHostTool(EXPORT_TEST_TOOL, async () => (ran.push('export'), { failed: true, text: 'Nothing to export yet.' }));
      registerLanguageModelTools(
        fake.vscode,
        MANIFEST,
        supervisor,
        () => undefined,
        places,
        new Map([[RESTORE_STEP_TOOL, () => ({ invocationMessage: 'Putting the browser back to step 1' })]]),
      );
      const restore = fake.tools.get(RESTORE_STEP_TOOL) as HostLmTool;
      void supervisor.takeControl();
      assert.match(restore.prepareInvocation({ input: { step: 1 } }).invocationMessage, /^Putting the browser back to step 1 \(waiting: you have the browser/);
      const pending = restore.invoke({ input: { step: 1 } }, new CancellationTokenSource().token);
      await new Promise(resolve => setTimeout(resolve, 50));
      assert.deepStrictEqual(ran, [], 'it waits for the person');
      await supervisor.handBack();
      // The person's note comes first, as on every tool's result.
      assert.match(text(await pending), /^Note: the person drove the browser for \d+ s while this call waited\.[^]*\n\nThe browser was restored to step 1\.$/);
      const exported = await (fake.tools.get(EXPORT_TEST_TOOL) as HostLmTool).invoke({ input: {} }, new CancellationTokenSource().token);
      assert.strictEqual(text(exported), 'The tool bridge_export_test failed: Nothing to export yet.');
      assert.deepStrictEqual(ran, ['restore', 'export']);
      await supervisor.dispose();
    });

    it("a misspelled argument is refused by the tool's own schema, and the MCP door cannot reach a host tool", async () => {
      const { supervisor } = scriptedSupervisor();
      const ran: unknown[] = [];
      supervisor.registerHostTool(RESTORE_STEP_TOOL, async args => (ran.push(args), { text: 'restored' }));
      const misspelled = await supervisor.callTool(RESTORE_STEP_TOOL, { stepBack: 1 });
      assert.strictEqual(misspelled.isError, true);
      assert.match(JSON.stringify(misspelled.content), /does not take the argument \\"stepBack\\". It takes: step, stepsBack/);
      const viaMcp = await supervisor.callTool(RESTORE_STEP_TOOL, { step: 1 }, { door: 'mcp' });
      assert.strictEqual(viaMcp.isError, true);
      assert.match(JSON.stringify(viaMcp.content), /answered only through chat's tools in VS Code/);
      assert.deepStrictEqual(ran, []);
      await supervisor.dispose();
    });
  });

  describe('MCP server definition provider', () => {
    it('offers nothing with the language-model tools, and one server with a token and a version that holds through tool changes', async () => {
      const fake = createFakeVscode({ settings: { 'playwrightBridge.exposure': 'languageModelTools' } });
      const { supervisor, children } = scriptedSupervisor();
      const endpoint = new McpEndpoint(supervisor, '0.0.0-test', () => undefined);
      // The doors as the host reads them (a user setting here, so every value applies).
      const provider = new PlaywrightMcpServerProvider(
        fake.vscode,
        endpoint,
        () => readLevels({ exposure: { user: fake.userSettings['playwrightBridge.exposure'] } }).settings.exposure,
      );
      let changes = 0;
      provider.onDidChangeMcpServerDefinitions(() => changes++);
      try {
        assert.deepStrictEqual(await provider.provideMcpServerDefinitions(), []);
        await fake.vscode.workspace.getConfiguration('playwrightBridge').update('exposure', 'mcp', 1);
        assert.strictEqual(changes, 1, 'an exposure change tells VS Code');
        const [definition] = (await provider.provideMcpServerDefinitions()) as unknown as McpHttpServerDefinition[];
        assert.match(definition.uri.toString(), /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
        assert.match(definition.headers.Authorization, /^Bearer [\w-]{43}$/);
        // The browser starts, its tools "change", it restarts: none of it may change what VS Code connects to.
        await supervisor.callTool('browser_navigate', { url: 'about:blank' });
        children[0].events.onToolsChanged();
        await supervisor.restart('test');
        const [again] = (await provider.provideMcpServerDefinitions()) as unknown as McpHttpServerDefinition[];
        assert.strictEqual(again.version, definition.version);
        assert.strictEqual(changes, 1);
        await fake.vscode.workspace.getConfiguration('playwrightBridge').update('exposure', 'both', 1);
        const [both] = (await provider.provideMcpServerDefinitions()) as unknown as McpHttpServerDefinition[];
        assert.notStrictEqual(both.version, definition.version);
      } finally {
        provider.dispose();
        await endpoint.dispose();
        await supervisor.dispose();
      }
    });
  });

  describe('status bar', () => {
    it("shows the browser's health, turns red on failure, and opens the log on click", () => {
      const fake = createFakeVscode();
      const health = new BrowserHealthTracker();
      const bar = new BridgeStatusBar(
        fake.vscode,
        () => health.current,
        () => 'Chromium at /usr/bin/chromium',
        () => 'not listening',
      );
      health.onDidChange(() => bar.refresh());
      const [item] = fake.statusBarItems;
      assert.strictEqual(item.text, '$(globe) Browser: Not started');
      assert.strictEqual(item.command, COMMANDS.showLog);
      assert.ok(item.shown);
      health.serverChanged({ state: 'ready', generation: 1, pid: 42 });
      health.browserChanged({ state: 'failed', message: 'Playwright Bridge could not start Chromium.' });
      assert.strictEqual(item.text, '$(error) Browser: Failed to start');
      assert.ok(item.backgroundColor);
      assert.match((item.tooltip as { value: string }).value, /Chromium at \/usr\/bin\/chromium \(failed\)[^]*could not start Chromium/);
      // Restart Browser: the new server has launched nothing yet, so the old server's failure is not shown as its own.
      health.serverChanged({ state: 'restarting', generation: 2 });
      health.serverChanged({ state: 'ready', generation: 2, pid: 43 });
      assert.strictEqual(item.text, '$(globe) Browser: Not started', 'a server without a browser is not called Ready');
      assert.strictEqual(item.backgroundColor, undefined);
      assert.match((item.tooltip as { value: string }).value, /\(not launched yet\)/);
      health.browserChanged({ state: 'ready' });
      assert.strictEqual(item.text, '$(globe) Browser: Ready');
      health.browserChanged({ state: 'lost', message: 'it crashed' });
      assert.strictEqual(item.text, '$(globe) Browser: Not started');
      assert.match((item.tooltip as { value: string }).value, /lost \(it crashed\); the next call starts a new one/);
      bar.dispose();
    });
  });

  describe('panel host', () => {
    /** A webview as the panel host sees one: it records what the host posts, and can "send" messages. */
    function fakeWebview() {
      const received = new EventEmitter<unknown>();
      const posted: HostToPanel[] = [];
      return {
        posted,
        send: (message: unknown) => received.fire(message),
        webview: {
          options: {},
          html: '',
          cspSource: 'vscode-resource:',
          asWebviewUri: (uri: Uri) => uri,
          onDidReceiveMessage: received.event,
          postMessage: async (message: HostToPanel) => void posted.push(message),
        },
      };
    }

    function hub() {
      const fake = createFakeVscode();
      const { supervisor } = scriptedSupervisor();
      const wishes: unknown[] = [];
      const realSetLiveView = supervisor.setLiveView.bind(supervisor);
      supervisor.setLiveView = wish => (wishes.push(wish), realSetLiveView(wish));
      const store = new LiveViewStore(supervisor, () => 'Chromium');
      const log = { info: () => undefined, warn: () => undefined } as never;
      const timeline = new Timeline(
        {
          onToolCall: supervisor.onToolCall,
          onObservation: supervisor.onObservation,
          onMessage: store.onMessage,
          onFrame: store.onFrame,
          clientsIsolated: () => false,
          watchingWindow: () => true,
          readSnapshot: () => undefined,
          checkpointNow: async () => undefined,
        },
        () => 1024 * 1024,
      );
      const timeTravel = new TimeTravel(fake.vscode, {
        timeline,
        supervisor,
        canRestore: () => true,
        browserName: () => 'chromium',
        viewport: () => ({ width: 1280, height: 720 }),
        saveFolders: { get: () => undefined, update: async () => undefined },
        workspaceFolders: () => [],
        log,
      });
      const panels = new BrowserPanelHub(fake.vscode, Uri.file(REPO_ROOT) as never, store, supervisor, log, () => os.tmpdir(), timeTravel, {
        currentDevice: undefined,
        useDevice: async () => undefined,
        secretSites: () => ({}),
      });
      const view = fakeWebview();
      let visible = true;
      panels.resolveWebviewView({
        webview: view.webview,
        get visible() {
          return visible;
        },
        onDidChangeVisibility: new EventEmitter<void>().event,
        onDidDispose: new EventEmitter<void>().event,
      } as never);
      return { fake, supervisor, store, panels, view, wishes, timeline, hide: () => (visible = false) };
    }

    it("shows an Activity row's step as it was, goes back to live, and says why a row that is no step cannot be shown", async () => {
      const h = hub();
      h.view.send({ type: 'ready' });
      await h.supervisor.callTool('browser_navigate', { url: 'https://example.test/' });
      await h.supervisor.callTool('browser_snapshot', {}, { door: 'panel' });
      const step = h.timeline.steps.at(-1)!;
      assert.strictEqual(h.timeline.steps.length, 1, "the panel's own read is not a step");
      h.view.send({ type: 'showStep', callId: step.callId });
      const shown = h.view.posted.at(-1) as Extract<HostToPanel, { type: 'stepView' }>;
      assert.deepStrictEqual(
        { index: shown.view?.index, total: shown.view?.total, tool: shown.view?.tool, restorable: shown.view?.restorable },
        { index: 1, total: 1, tool: 'browser_navigate', restorable: false },
      );
      h.view.send({ type: 'showStep', callId: step.callId + 1 });
      assert.match((h.view.posted.at(-1) as Extract<HostToPanel, { type: 'stepView' }>).problem ?? '', /not a step of this window's browser/);
      h.view.send({ type: 'showStep', callId: null });
      assert.deepStrictEqual(h.view.posted.at(-1), { type: 'stepView', view: null });
      h.view.send({ type: 'saveTrace', callIds: [] });
      await new Promise(resolve => setImmediate(resolve));
      assert.deepStrictEqual(
        h.fake.executed.map(e => e.command),
        [COMMANDS.saveTrace],
      );
      h.panels.dispose();
    });

    it('sends a snapshot when the webview is ready, asks for frames sized to it, and runs its toolbar commands', async () => {
      const h = hub();
      assert.match(h.view.webview.html, /Content-Security-Policy[^]*script-src 'nonce-/);
      h.view.send({ type: 'ready' });
      assert.strictEqual(h.view.posted[0].type, 'snapshot');
      h.view.send({ type: 'resize', width: 300, height: 169, devicePixelRatio: 2 });
      assert.deepStrictEqual(h.wishes.at(-1), { enabled: true, maxWidth: 600, maxHeight: 338, quality: 70 });
      h.view.send({ type: 'command', command: 'restart' });
      await new Promise(resolve => setImmediate(resolve));
      assert.deepStrictEqual(
        h.fake.executed.map(e => e.command),
        [COMMANDS.restartBrowser],
      );
      h.panels.dispose();
      h.store.dispose();
      await h.supervisor.dispose();
    });

    it('puts a picked element on the chat input as a file in the output folder, and the console errors too', async () => {
      const h = hub();
      h.view.send({ type: 'ready' });
      h.supervisor.ask = (async (_name: 'pick', params: PickParams) =>
        params.phase === 'choose'
          ? { element: { role: 'button', name: 'Sign in', ref: 'e12', tag: 'button', html: '<button>Sign in</button>', url: 'http://127.0.0.1/login' } }
          : params.phase === 'region'
            ? { region: { png: PNG_1X1, url: 'http://127.0.0.1/login', width: 1, height: 1 } }
            : {}) as Supervisor['ask'];
      h.view.send({ type: 'pick', pick: { phase: 'choose', x: 0.5, y: 0.5 } });
      await waitFor(() => h.fake.executed.length > 0, 2000, 'the chat to be opened');
      const [open] = h.fake.executed;
      assert.strictEqual(open.command, 'workbench.action.chat.open');
      const options = open.args[0] as { attachFiles: Uri[]; isPartialQuery: boolean };
      assert.strictEqual(options.isPartialQuery, true, 'nothing is sent: the person writes the prompt');
      const file = options.attachFiles[0].fsPath;
      assert.ok(file.startsWith(path.join(os.tmpdir(), 'chat', 'element-')));
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /- Role: button\n- Name: "Sign in"\n- Ref: e12/);
      assert.match(text, /```html\n<button>Sign in<\/button>\n```/);
      fs.rmSync(file);
      h.view.send({ type: 'command', command: 'addConsoleErrorsToChat' });
      await waitFor(() => h.fake.executed.length > 1, 2000, 'the errors to be attached');
      const errors = (h.fake.executed[1].args[0] as { attachFiles: Uri[] }).attachFiles[0].fsPath;
      assert.match(fs.readFileSync(errors, 'utf8'), /^# Console errors of the page/);
      fs.rmSync(errors);
      h.view.send({ type: 'pick', pick: { phase: 'region', x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.2 } });
      await waitFor(() => h.fake.executed.length > 2, 2000, 'the region to be attached');
      const region = (h.fake.executed[2].args[0] as { attachFiles: Uri[] }).attachFiles[0].fsPath;
      assert.match(region, /region-.*\.png$/);
      assert.strictEqual(fs.readFileSync(region).toString('base64'), PNG_1X1);
      fs.rmSync(region);
      h.panels.dispose();
      h.store.dispose();
      await h.supervisor.dispose();
    });

    it('drops malformed messages and matches each report to its request', async () => {
      const h = hub();
      h.view.send({ type: 'ready' });
      h.view.send({ type: 'command', command: 'rm -rf' });
      h.view.send({ type: 'eval', code: 'x' });
      await new Promise(resolve => setImmediate(resolve));
      assert.deepStrictEqual(h.fake.executed, []);
      const asked = h.panels.describe();
      const request = h.view.posted.find(m => m.type === 'describe') as Extract<HostToPanel, { type: 'describe' }>;
      const layout = {
        width: 300,
        cutControls: [],
        filterWidth: 200,
        levelsOnOneLine: true,
        frameBands: 0,
        addressWidth: 140,
        requestDetailPlace: 'closed' as const,
        requestTitleWidth: 0,
      };
      const report = {
        frameDrawn: false,
        consoleTexts: [],
        networkUrls: [],
        activityTitles: [],
        activityErrors: [],
        activityCards: [],
        header: 'Ready',
        layout,
        exportStatus: '',
        exportMarks: [],
        stepBanner: '',
        stepConsole: [],
        stepFrameShown: false,
        stepsInView: 0,
        requestDetail: '',
        sizeLabel: '1280×720',
        loadError: '',
        addressMessage: '',
        headerRows: 1,
      };
      h.view.send({ type: 'report', id: request.id + 1, report: { ...report, header: "someone else's" } });
      h.view.send({ type: 'report', id: request.id, report });
      assert.deepStrictEqual(await asked, [report]);
      h.panels.dispose();
      h.store.dispose();
      await h.supervisor.dispose();
    });
  });

  describe("the size picker's Playwright device", () => {
    const devices = [{ name: 'Pixel 7', width: 412, height: 839, scale: 2.625, mobile: true, touch: true }];
    const supervisor = (running: boolean) =>
      ({
        ask: async () => {
          if (!running) throw new Error('no browser');
          return { devices };
        },
      }) as never;

    it("offers Playwright's devices with their facts, and restarts as one only on the person's word", async () => {
      const fake = createFakeVscode();
      const used: (string | undefined)[] = [];
      const choice = { currentDevice: undefined, useDevice: async (device: string | undefined) => void used.push(device) };
      fake.answers.push('Pixel 7');
      fake.answerWith(() => undefined);
      await pickDevice(fake.vscode, supervisor(true), choice);
      assert.deepStrictEqual(used, [], 'dismissed: nothing restarts');
      assert.deepStrictEqual(fake.inputs.at(-1)?.items, ['Pixel 7']);
      fake.answers.push('Pixel 7');
      fake.answerWith((message, items) => (/"Pixel 7" needs a new browser context .* open pages close/.test(message) ? items[0] : undefined));
      await pickDevice(fake.vscode, supervisor(true), choice);
      assert.deepStrictEqual(used, ['Pixel 7']);
    });

    it('says to start the browser first when none runs', async () => {
      const fake = createFakeVscode();
      await pickDevice(fake.vscode, supervisor(false), { currentDevice: undefined, useDevice: async () => assert.fail('no restart') });
      assert.match(JSON.stringify(fake.shown), /start the browser first/);
    });
  });

  describe('commands', () => {
    it('Restart Browser says why it failed and offers the log; Start Browser says why the browser did not start', async () => {
      const fake = createFakeVscode();
      fake.answerWith((_message, items) => items[0]);
      let logShown = false;
      const bridge = {
        restart: async () => {
          throw new Error('Playwright Bridge could not start its browser server: spawn ENOENT');
        },
      };
      await restartBrowser(fake.vscode, bridge as never, { show: () => (logShown = true) } as never);
      assert.deepStrictEqual(
        fake.shown.map(m => [m.level, m.message, m.items]),
        [['error', 'Playwright Bridge could not start its browser server: spawn ENOENT', ['Show Log']]],
      );
      assert.ok(logShown);
      const { supervisor } = scriptedSupervisor(() => ({ isError: true, text: 'Playwright Bridge could not start Chromium.' }));
      await startBrowser(fake.vscode, supervisor);
      assert.match(fake.shown[1].message, /^The browser did not start: Playwright Bridge could not start Chromium\./);
      await supervisor.dispose();
    });
  });
});
