/**
 * The person's ways onto the managed CDP endpoint (core/cdpDoor/): Open DevTools (Chrome DevTools' own frontend
 * on the panel's current tab, in an editor tab beside it, following that tab), Share over CDP (after the person's
 * word, the address copied for another CDP client) and Revoke. Only these commands publish a capability: no tool
 * hands one to a model, and none reaches the log or a file. In a remote window the address is the one VS Code
 * forwards the port to (still loopback on both sides).
 */
import type * as vscodeTypes from 'vscode';
import type { CdpEndpoint } from '../core/cdpDoor/cdpEndpoint';
import { DebuggerDoor } from '../core/cdpDoor/debuggerDoor';
import type { Supervisor } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

const DEVTOOLS_VIEW_TYPE = 'playwrightBridge.devtools';

/**
 * Where the person's side reaches the port: itself locally; in a remote window VS Code's forwarding of it (another
 * port, or a path under the editor's own server, as code-server proxies). Its origin may open sockets.
 */
async function reachable(vscode: VSCode, endpoint: CdpEndpoint, port: number): Promise<{ origin: string; base: string; secure: boolean }> {
  const local = vscode.Uri.parse(`http://127.0.0.1:${port}/`);
  const external = await vscode.env.asExternalUri(local);
  const origin = `${external.scheme}://${external.authority}`;
  if (external.toString() !== local.toString()) endpoint.allowOrigin(origin);
  return { origin, base: `${external.authority}${external.path.replace(/\/$/, '')}`, secure: external.scheme === 'https' };
}

function refusal(vscode: VSCode, what: string, error: unknown): void {
  void vscode.window.showWarningMessage(`Playwright Bridge: ${what}: ${(error as Error).message}`);
}

export class CdpCommands {
  private devtools: vscodeTypes.WebviewPanel | undefined;
  private shownTarget: string | undefined;
  /** The panel's current tab when DevTools last looked: a tabs event for another one moves DevTools to it. */
  private shownTab: string | undefined;
  private readonly disposables: vscodeTypes.Disposable[] = [];
  /** The debugger's doors, one per debug session, each closed with its session or its capability. */
  private readonly doors = new Set<DebuggerDoor>();

  constructor(
    private readonly vscode: VSCode,
    private readonly endpoint: CdpEndpoint,
    private readonly supervisor: Supervisor,
    /** The browser secrets' names: sharing while any is set says so by name. */
    private readonly secretNames: () => string[],
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.disposables.push(
      endpoint.onDidRevoke(({ audience, why }) => {
        if (audience === 'devtools') {
          this.browserGone(why);
          for (const door of this.doors) door.close();
          this.doors.clear();
        } else void vscode.window.showInformationMessage(`Playwright Bridge: the shared CDP address no longer works (${why}).`);
      }),
      // DevTools follows the panel's current tab, and comes back on it once a browser runs again after one went (a
      // tab of that browser is how it shows it is ready; nothing is started for DevTools).
      supervisor.onObservation(event => {
        if (event.kind !== 'tabs' || !this.devtools) return;
        const current = event.tabs.find(tab => tab.current)?.id;
        if (current && current !== this.shownTab) void this.follow();
      }),
      supervisor.onDidChangeHealth(health => {
        if (health.state === 'ready' && this.devtools && this.shownTarget === undefined && supervisor.tabs.some(tab => tab.current)) void this.follow();
      }),
    );
  }

  /** Open DevTools: the frontend on the current tab, in an editor tab beside the panel (or the one open, brought forward). */
  async openDevTools(): Promise<void> {
    let published;
    try {
      published = await this.endpoint.publish('devtools');
    } catch (error) {
      return refusal(this.vscode, 'DevTools cannot open', error);
    }
    const address = await reachable(this.vscode, this.endpoint, published.port);
    if (!this.devtools) {
      this.devtools = this.vscode.window.createWebviewPanel(
        DEVTOOLS_VIEW_TYPE,
        'DevTools',
        { viewColumn: this.vscode.ViewColumn.Beside, preserveFocus: false },
        {
          // The frame's own scripts (DevTools) run only if the webview allows scripts: a frame gets no more than its
          // parent's sandbox. This document itself runs none (its policy has no script source).
          enableScripts: true,
          retainContextWhenHidden: true,
        },
      );
      this.devtools.onDidDispose(() => {
        this.devtools = undefined;
        this.shownTarget = this.shownTab = undefined;
      });
    } else {
      this.devtools.reveal(undefined, false);
    }
    this.show(address, published.capability, published.currentTargetId);
  }

  private async follow(): Promise<void> {
    const published = await this.endpoint.publish('devtools').catch(error => {
      // Tried again at the next tab or health change; the log says why it waits.
      this.log(`DevTools did not follow the current tab yet: ${(error as Error).message}`);
      return undefined;
    });
    if (!published || !this.devtools || published.currentTargetId === this.shownTarget) return;
    this.show(await reachable(this.vscode, this.endpoint, published.port), published.capability, published.currentTargetId);
  }

  private show(address: { origin: string; base: string; secure: boolean }, capability: string, targetId: string | undefined): void {
    const panel = this.devtools;
    if (!panel) return;
    this.shownTarget = targetId;
    const tab = this.supervisor.tabs.find(candidate => candidate.current);
    this.shownTab = tab?.id;
    panel.title = tab?.title ? `DevTools: ${tab.title.slice(0, 40)}` : 'DevTools';
    const base = `${address.base}/${capability}`;
    const src = `${address.secure ? 'https' : 'http'}://${base}/frontend/inspector.html?${address.secure ? 'wss' : 'ws'}=${base}/devtools/page/${targetId ?? ''}`;
    // The frame is the endpoint's own page; the webview runs no script of its own.
    panel.webview.html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; frame-src ${address.origin}; style-src 'unsafe-inline'">
<style>html,body,iframe{margin:0;padding:0;border:0;width:100%;height:100%;overflow:hidden}</style></head>
<body><iframe src="${escapeAttribute(src)}" title="Chrome DevTools on the watched tab"></iframe></body></html>`;
  }

  private browserGone(why: string): void {
    const panel = this.devtools;
    if (!panel) return;
    this.shownTarget = this.shownTab = undefined;
    panel.title = 'DevTools (closed)';
    panel.webview.html = `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:1em}</style></head>
<body><p role="status">DevTools closed: ${escapeText(why)}. It opens again here, on the agent's tab, once a browser runs (the agent's next browser call, or <b>Playwright Bridge: Start Browser</b>).</p></body></html>`;
  }

  /** Share over CDP: the person's word first, then the address on the clipboard. */
  async share(): Promise<void> {
    const share = 'Share and Copy Address';
    const secrets = this.secretNames();
    const secretWords = secrets.length
      ? ` ${secrets.length === 1 ? 'A browser secret is' : `${secrets.length} browser secrets are`} set (${secrets.slice(0, 5).join(', ')}): ` +
        'the bridge keeps their values out of what it shows and sends, but a CDP client reads pages directly, so it can read a secret on a page it was typed into.'
      : '';
    const choice = await this.vscode.window.showWarningMessage(
      'Share the watched browser over CDP?',
      {
        modal: true,
        detail:
          'The address lets any CDP client (Puppeteer, chrome-devtools-mcp, another DevTools) read and control everything in this browser: ' +
          "every page and context (other MCP clients' too), cookies and storage, and what is typed, your browser secrets included. " +
          'It listens on 127.0.0.1 only, refuses web pages, and stops working when you revoke it, when the browser closes or restarts, and when this window closes.' +
          secretWords,
      },
      share,
    );
    if (choice !== share) return;
    try {
      const published = await this.endpoint.publish('share');
      const address = await reachable(this.vscode, this.endpoint, published.port);
      await this.vscode.env.clipboard.writeText(`${address.secure ? 'wss' : 'ws'}://${address.base}/${published.capability}/devtools/browser`);
      void this.vscode.window.showInformationMessage(
        'Playwright Bridge: CDP address copied (for Puppeteer connect, chrome-devtools-mcp --wsEndpoint, …). Revoke it with "Playwright Bridge: Revoke Shared CDP Address".',
      );
    } catch (error) {
      refusal(this.vscode, 'nothing was shared', error);
    }
  }

  /**
   * Debug in VS Code: VS Code's JavaScript debugger attached to the watched browser, through a door that lives as
   * long as its debug session (core/cdpDoor/debuggerDoor.ts says how it is guarded). A breakpoint in a workspace
   * source (mapped from the page's URL under the workspace folder, source maps honoured) pauses the page; the
   * agent's call waits and says so, and the panel shows it.
   */
  async debug(): Promise<{ started: boolean; why?: string }> {
    let published;
    try {
      published = await this.endpoint.publish('devtools');
    } catch (error) {
      refusal(this.vscode, 'the debugger cannot attach', error);
      return { started: false, why: (error as Error).message };
    }
    const door = await DebuggerDoor.open({ port: published.port, capability: published.capability }, this.log);
    this.doors.add(door);
    const folder = this.vscode.workspace.workspaceFolders?.[0];
    const tab = this.supervisor.tabs.find(candidate => candidate.current);
    const origin = tab && /^https?:/.test(tab.url) ? new URL(tab.url).origin : undefined;
    const ended = this.vscode.debug.onDidTerminateDebugSession(session => {
      if (session.configuration.port !== door.port) return;
      door.close();
      this.doors.delete(door);
      ended.dispose();
    });
    const started = await this.vscode.debug.startDebugging(folder, {
      type: 'chrome',
      request: 'attach',
      name: 'Playwright Bridge: watched browser',
      address: '127.0.0.1',
      port: door.port,
      // The door is on the machine the extension host runs on (the remote one in a remote window).
      browserAttachLocation: 'workspace',
      ...(folder ? { webRoot: folder.uri.fsPath } : {}),
      // The watched tab's site only: other tabs (and other clients' contexts) are not the person's pick.
      ...(origin ? { urlFilter: `${origin}/*` } : {}),
    });
    if (!started) {
      door.close();
      this.doors.delete(door);
      ended.dispose();
      void this.vscode.window.showWarningMessage(
        "Playwright Bridge: VS Code's JavaScript debugger did not start (is the built-in JavaScript Debugger extension enabled?).",
      );
    }
    return { started };
  }

  revoke(): void {
    if (!this.endpoint.isPublished('share')) {
      void this.vscode.window.showInformationMessage('Playwright Bridge: no CDP address is shared now.');
      return;
    }
    this.endpoint.revoke('share', 'you revoked it');
  }

  dispose(): void {
    for (const door of this.doors) door.close();
    this.doors.clear();
    this.devtools?.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
