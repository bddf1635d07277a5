import type * as vscodeTypes from 'vscode';
import { COMMANDS, STATUS_BAR_ID } from '../core/contributionIds';
import { BrowserStateParams } from '../protocol/childMessages';
import { BridgeStatus } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

const LABELS: Record<BridgeStatus['state'], { icon: string; text: string }> = {
  idle: { icon: '$(globe)', text: 'Browser: idle' },
  starting: { icon: '$(loading~spin)', text: 'Browser: starting' },
  ready: { icon: '$(globe)', text: 'Browser: ready' },
  restarting: { icon: '$(loading~spin)', text: 'Browser: restarting' },
  failed: { icon: '$(error)', text: 'Browser: failed' },
  disposed: { icon: '$(circle-slash)', text: 'Browser: stopped' },
};

/** The bridge's state at a glance; a click opens the log. */
export class BridgeStatusBar implements vscodeTypes.Disposable {
  private readonly item: vscodeTypes.StatusBarItem;
  private status: BridgeStatus = { state: 'idle', generation: 0 };
  private browser: BrowserStateParams | undefined;

  constructor(private readonly vscode: VSCode, private readonly browserLabel: () => string, private readonly endpointLabel: () => string) {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Playwright Bridge';
    this.item.command = COMMANDS.showLog;
    this.render();
    this.item.show();
  }

  update(status: BridgeStatus): void {
    this.status = status;
    this.render();
  }

  refresh(): void {
    this.render();
  }

  updateBrowser(browser: BrowserStateParams): void {
    this.browser = browser;
    this.render();
  }

  private render(): void {
    const { state, generation, detail, pid } = this.status;
    const browserFailed = state === 'ready' && this.browser?.state === 'failed';
    const label = browserFailed ? LABELS.failed : LABELS[state];
    this.item.text = `${label.icon} ${label.text}`;
    this.item.backgroundColor = state === 'failed' || browserFailed ? new this.vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const lines = [
      `**Playwright Bridge**: ${state}`,
      `Browser: ${this.browserLabel()}${this.browser ? ` (${this.browser.state})` : ' (not launched yet)'}`,
      generation ? `Server process: #${generation}${pid ? `, pid ${pid}` : ''}` : 'Server process: starts on the first tool call',
      `MCP endpoint: ${this.endpointLabel()}`,
    ];
    const why = this.browser?.state === 'failed' ? this.browser.message : detail;
    if (why) lines.push('', why.split('\n').join('  \n'));
    lines.push('', 'Click to show the log.');
    const tooltip = new this.vscode.MarkdownString(lines.join('  \n'));
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `Playwright Bridge ${label.text}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
