import { randomBytes } from 'crypto';
import * as fs from 'fs';
import type * as vscodeTypes from 'vscode';
import { COMMANDS, PANEL_WEBVIEW_TYPE } from '../core/contributionIds';
import { FrameGate } from '../core/liveView/frameGate';
import { LiveViewStore } from '../core/liveView/liveViewStore';
import { RowBatch } from '../core/liveView/rowBatch';
import { LiveViewParams } from '../protocol/childMessages';
import { NoBrowserError, Supervisor } from '../core/supervision/supervisor';
import { ConsoleRow, FrameMessage, HostToPanel, PanelCommand, PanelReport, PanelToHost, parsePanelMessage } from '../protocol/panelMessages';
import { isMarker } from '../protocol/panelRows';
import type { PickParams } from '../protocol/childMessages';
import { attachToChat, describeConsoleErrors, describeElement } from './addToChat';
import { openCardDocs, runCardAction } from './devtoolsCards';
import type { TimeTravel } from './timeTravel';
import { pickDevice, type PanelBridge } from './devicePicker';
import { requestDetailMessage, runRequestAction } from './requestDetails';

type VSCode = typeof vscodeTypes;

/** One webview showing the panel (the side-bar view or an editor tab), with its own frame gate. */
class PanelConnection implements vscodeTypes.Disposable {
  private readonly gate: FrameGate<FrameMessage>;
  /** Rows go to the webview gathered, one message a list at most every 100 ms. */
  private readonly rows = new RowBatch(message => void this.webview.postMessage(message));
  private readonly disposables: vscodeTypes.Disposable[] = [];
  private ready = false;
  size = { width: 0, height: 0 };
  /** Answers awaited from the webview, by request id. */
  private readonly reportWaiters = new Map<number, (report: PanelReport) => void>();
  private nextRequestId = 1;
  /** The step asked for last, and when (for the scrub figure: request received to picture drawn). */
  private scrub: { index: number; at: number } | undefined;

  constructor(
    readonly webview: vscodeTypes.Webview,
    private readonly store: LiveViewStore,
    private readonly isVisible: () => boolean,
    private readonly hub: BrowserPanelHub,
  ) {
    this.gate = new FrameGate(frame => void webview.postMessage(frame));
    this.disposables.push(
      webview.onDidReceiveMessage(raw => this.onMessage(raw)),
      store.onMessage(message => this.send(message)),
      store.onFrame(frame => {
        if (this.ready && this.isVisible()) this.gate.offer(frame);
      }),
    );
  }

  private send(message: HostToPanel): void {
    if (!this.ready) return;
    if (RowBatch.isRowMessage(message)) return this.rows.add(message);
    // Anything else (a state, a step) goes now, after the rows that came before it.
    this.rows.flush();
    void this.webview.postMessage(message);
  }

  /** Called when the webview becomes visible again: it may have missed frames. */
  resync(): void {
    this.gate.reset();
    const frame = this.store.latestFrame;
    if (this.ready && frame) this.gate.offer(frame);
  }

  describe(): Promise<PanelReport> {
    const id = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.reportWaiters.delete(id);
        reject(new Error('the panel did not answer'));
      }, 5000);
      this.reportWaiters.set(id, report => {
        clearTimeout(timer);
        resolve(report);
      });
      void this.webview.postMessage({ type: 'describe', id } satisfies HostToPanel);
    });
  }

  private onMessage(raw: unknown): void {
    const message = parsePanelMessage(raw);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.gate.reset();
        this.rows.clear();
        void this.webview.postMessage(this.store.snapshot());
        if (this.store.exportStatus) void this.webview.postMessage({ type: 'exportStatus', status: this.store.exportStatus } satisfies HostToPanel);
        if (this.store.latestFrame) this.gate.offer(this.store.latestFrame);
        this.hub.updateLiveView();
        return;
      case 'frameDrawn':
        this.gate.ack();
        return;
      case 'devtoolsCard':
        void this.hub.devtoolsCard(message.callId, message.action);
        return;
      case 'devtoolsDocs':
        void this.hub.devtoolsDocs(message.callId, message.url);
        return;
      case 'resize':
        this.size = { width: Math.round(message.width * message.devicePixelRatio), height: Math.round(message.height * message.devicePixelRatio) };
        this.hub.updateLiveView();
        return;
      case 'command':
        void this.hub.runCommand(message.command);
        return;
      case 'input':
        this.hub.supervisor.sendInput(message.event);
        return;
      case 'pageAction':
        void this.hub.supervisor.pageAction(message.pageAction);
        return;
      case 'pick':
        void this.hub.pick(message.pick);
        return;
      case 'networkControl':
        void this.hub.networkControl(message.control);
        return;
      case 'consoleControl':
        if (message.control.action === 'clear') this.store.clearConsole();
        else this.store.setPreserveConsole(message.control.on);
        return;
      case 'exportTest':
        void this.hub.vscode.commands.executeCommand(COMMANDS.exportTest, { callIds: message.callIds });
        return;
      case 'showStep': {
        const at = performance.now();
        const reply = this.hub.timeTravel.view(message.callId);
        this.scrub = reply.view ? { index: reply.view.index, at } : undefined;
        void this.webview.postMessage(reply);
        return;
      }
      case 'stepDrawn':
        if (this.scrub?.index === message.index) this.hub.timeTravel.scrubDrawn(performance.now() - this.scrub.at);
        this.scrub = undefined;
        return;
      case 'restoreStep':
        void this.hub.timeTravel.restore(message.index, 'person').then(outcome => {
          // Back to live once the browser is there again; a step that could not be restored stays shown, with why.
          const reply: HostToPanel = outcome.ok
            ? { type: 'stepView', view: null }
            : { type: 'stepView', view: this.hub.timeTravel.timeline.view(message.index, false) ?? null, problem: outcome.text };
          void this.webview.postMessage(reply);
        });
        return;
      case 'saveTrace':
        void this.hub.vscode.commands.executeCommand(COMMANDS.saveTrace, { callIds: message.callIds });
        return;
      case 'openRequest':
        void requestDetailMessage(this.hub.supervisor, message.id, {
          bodyChars: message.bodyChars,
          pretty: true,
          ...(message.ahead ? { ahead: true } : {}),
        }).then(reply => this.send(reply));
        return;
      case 'requestAction':
        void runRequestAction(this.hub.vscode, this.hub.supervisor, this.hub.outputDir(), this.hub.bridge.secretSites(), message.id, message.action);
        return;
      case 'pickDevice':
        void pickDevice(this.hub.vscode, this.hub.supervisor, this.hub.bridge);
        return;
      case 'watchContext':
        this.hub.supervisor.tell('watchContext', { sessionId: message.sessionId });
        return;
      case 'report': {
        const waiter = this.reportWaiters.get(message.id);
        this.reportWaiters.delete(message.id);
        waiter?.(message.report);
        return;
      }
    }
  }

  get streaming(): boolean {
    return this.ready && this.isVisible();
  }

  dispose(): void {
    this.rows.clear();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/** The toolbar's buttons and the VS Code commands they run. */
const PANEL_COMMANDS: Record<Exclude<PanelCommand, 'togglePause' | 'addConsoleErrorsToChat'>, string> = {
  restart: COMMANDS.restartBrowser,
  start: COMMANDS.startBrowser,
  saveScreenshot: COMMANDS.saveScreenshot,
  saveHar: COMMANDS.saveNetworkHar,
  takeControl: COMMANDS.takeControl,
  handBack: COMMANDS.handBack,
};

/**
 * Hosts the browser panel: the side-bar view and any editor tabs showing it. Frames stream only
 * while at least one of them is visible and not paused, sized to the largest one.
 */
export class BrowserPanelHub implements vscodeTypes.WebviewViewProvider, vscodeTypes.Disposable {
  private readonly connections = new Set<PanelConnection>();
  private readonly disposables: vscodeTypes.Disposable[] = [];
  private lastWish = '';
  /** The panel as an editor tab, while one is open. */
  private editorPanel: vscodeTypes.WebviewPanel | undefined;

  constructor(
    readonly vscode: VSCode,
    private readonly extensionUri: vscodeTypes.Uri,
    private readonly store: LiveViewStore,
    readonly supervisor: Supervisor,
    private readonly log: vscodeTypes.LogOutputChannel,
    /** Where Add to Chat writes what it attaches (the bridge's output folder). */
    readonly outputDir: () => string,
    /** Activity as a timeline: a step shown as it was, and Continue from here. */
    readonly timeTravel: TimeTravel,
    /** The size picker's Playwright device (the browser restarts as it) and the secrets' sites for Copy as cURL. */
    readonly bridge: PanelBridge,
  ) {
    this.disposables.push(store.onDidChangePaused(() => this.updateLiveView()));
  }

  resolveWebviewView(view: vscodeTypes.WebviewView): void {
    const connection = this.connect(view.webview, () => view.visible);
    view.onDidChangeVisibility(() => {
      if (view.visible) connection.resync();
      this.updateLiveView();
    });
    view.onDidDispose(() => this.disconnect(connection));
  }

  /** The same panel as an editor tab: one, brought forward where it is when asked again (as VS Code's previews are). */
  openInEditor(): void {
    if (this.editorPanel) {
      this.editorPanel.reveal(undefined, false);
      return;
    }
    const panel = this.vscode.window.createWebviewPanel(PANEL_WEBVIEW_TYPE, 'Browser', this.vscode.ViewColumn.Beside, {
      enableScripts: true,
      retainContextWhenHidden: false,
      localResourceRoots: this.resourceRoots(),
    });
    this.editorPanel = panel;
    panel.iconPath = this.vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    const connection = this.connect(panel.webview, () => panel.visible);
    panel.onDidChangeViewState(() => {
      if (panel.visible) connection.resync();
      this.updateLiveView();
    });
    panel.onDidDispose(() => {
      if (this.editorPanel === panel) this.editorPanel = undefined;
      this.disconnect(connection);
    });
  }

  /**
   * What the visible panels show, read from their DOM (for the integration tests and diagnostics). A panel that
   * does not answer (its page reloading as it is shown again: a message before its page is ready is lost) is
   * left out, not taken as all of them failing: a caller waiting for a panel to show something asks again.
   */
  async describe(): Promise<PanelReport[]> {
    const answers = await Promise.allSettled([...this.connections].filter(c => c.streaming).map(c => c.describe()));
    return answers.flatMap(answer => (answer.status === 'fulfilled' ? [answer.value] : []));
  }

  private connect(webview: vscodeTypes.Webview, isVisible: () => boolean): PanelConnection {
    webview.options = { enableScripts: true, localResourceRoots: this.resourceRoots() };
    webview.html = this.html(webview);
    const connection = new PanelConnection(webview, this.store, isVisible, this);
    this.connections.add(connection);
    return connection;
  }

  private disconnect(connection: PanelConnection): void {
    connection.dispose();
    this.connections.delete(connection);
    this.updateLiveView();
  }

  /** Tells the browser whether to stream, and how large, from what the panels show now. */
  updateLiveView(): void {
    const visible = [...this.connections].filter(c => c.streaming);
    const enabled = visible.length > 0 && !this.store.isPaused;
    const wish: LiveViewParams = {
      enabled,
      maxWidth: Math.max(320, ...visible.map(c => c.size.width)),
      maxHeight: Math.max(180, ...visible.map(c => c.size.height)),
      quality: 70,
    };
    const key = JSON.stringify(wish);
    if (key === this.lastWish) return;
    this.lastWish = key;
    this.supervisor.setLiveView(wish);
  }

  /** Add to Chat: outline on hover; on choose, the element goes onto the chat input. */
  async pick(params: PickParams): Promise<void> {
    try {
      const { element, region } = await this.supervisor.ask('pick', params);
      if (params.phase === 'choose' && element) await attachToChat(this.vscode, this.outputDir(), 'element', describeElement(element));
      if (region) await attachToChat(this.vscode, this.outputDir(), 'region', Buffer.from(region.png, 'base64'), 'png');
    } catch (error) {
      // Without a browser there is nothing to pick (the panel shows no page then).
      if (!(error instanceof NoBrowserError)) this.log.warn(`Add to Chat: ${(error as Error).message}`);
    }
  }

  /** A DevTools card's Learn more or Rule docs (devtoolsCards.ts). */
  async devtoolsDocs(callId: number, url: string): Promise<void> {
    await openCardDocs(this.vscode, this.store.cardOf(callId), url);
  }

  /** A DevTools card's Open trace or Add to Chat (devtoolsCards.ts). */
  async devtoolsCard(callId: number, action: 'openTrace' | 'addToChat'): Promise<void> {
    try {
      await runCardAction(this.vscode, this.store.cardOf(callId), action, this.outputDir());
    } catch (error) {
      void this.vscode.window.showErrorMessage(`${action === 'openTrace' ? 'Open trace' : 'Add to Chat'} failed: ${(error as Error).message}`);
    }
  }

  /** The panel's toolbar: pausing and adding errors to chat are the panel's own; every other button runs the command of the same name. */
  /** The Network pane's Clear and Preserve log (the list's own), throttling and Disable cache (in the browser). */
  async networkControl(control: Extract<PanelToHost, { type: 'networkControl' }>['control']): Promise<void> {
    if (control.action === 'clear') return this.store.clearNetwork();
    if (control.action === 'preserveLog') return this.store.setPreserveLog(control.on);
    try {
      this.store.showNetworkConditions(await this.supervisor.ask('networkConditions', control.conditions));
    } catch (error) {
      const why = error instanceof NoBrowserError ? 'no browser runs. Start it, then choose again.' : (error as Error).message;
      void this.vscode.window.showWarningMessage(`The network was not changed: ${why}`);
      // The panel's controls go back to what the browser applies.
      this.store.showNetworkConditions(this.store.state().network);
    }
  }

  async runCommand(command: PanelCommand): Promise<void> {
    if (command === 'togglePause') return this.store.setPaused(!this.store.isPaused);
    if (command === 'addConsoleErrorsToChat') {
      const rows = this.store.snapshot().console.filter((row): row is ConsoleRow => !isMarker(row));
      await attachToChat(this.vscode, this.outputDir(), 'console-errors', describeConsoleErrors(rows, this.store.currentTab?.url));
      return;
    }
    await this.vscode.commands.executeCommand(PANEL_COMMANDS[command]);
  }

  private resourceRoots(): vscodeTypes.Uri[] {
    return [this.vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), this.vscode.Uri.joinPath(this.extensionUri, 'media')];
  }

  /**
   * The panel's script: panel.js as the VSIX ships it; panel-test.js (the same with the tests' describe
   * hook) where a build or a test put it beside it (a development checkout, the tests' installed copy).
   */
  private get panelScript(): string {
    const test = this.vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'panel-test.js').fsPath;
    return fs.existsSync(test) ? 'panel-test.js' : 'panel.js';
  }

  private html(webview: vscodeTypes.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const uri = (...parts: string[]) => webview.asWebviewUri(this.vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    const template = fs.readFileSync(this.vscode.Uri.joinPath(this.extensionUri, 'media', 'panel.html').fsPath, 'utf8');
    const csp = [
      "default-src 'none'",
      `img-src ${webview.cspSource} blob: data:`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return template
      .replace(/\{\{csp\}\}/g, csp)
      .replace(/\{\{nonce\}\}/g, nonce)
      .replace(/\{\{codicons\}\}/g, uri('dist', 'webview', 'codicon.css'))
      .replace(/\{\{styles\}\}/g, uri('media', 'panel.css'))
      .replace(/\{\{script\}\}/g, uri('dist', 'webview', this.panelScript));
  }

  dispose(): void {
    for (const connection of this.connections) connection.dispose();
    this.connections.clear();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}
