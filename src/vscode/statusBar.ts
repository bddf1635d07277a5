import type * as vscodeTypes from 'vscode';
import { COMMANDS, STATUS_BAR_ID } from '../core/contributionIds';
import type { HostHealth } from '../core/supervision/browserHealth';
import type { HealthState } from '../protocol/panelMessages';

type VSCode = typeof vscodeTypes;

const ICONS: Record<HealthState, string> = {
  notStarted: '$(globe)',
  starting: '$(loading~spin)',
  restarting: '$(loading~spin)',
  ready: '$(globe)',
  failed: '$(error)',
  stopped: '$(circle-slash)',
};

/** The browser's health at a glance (as core/supervision/browserHealth.ts words it); a click opens the log. */
export class BridgeStatusBar implements vscodeTypes.Disposable {
  private readonly item: vscodeTypes.StatusBarItem;

  constructor(
    private readonly vscode: VSCode,
    private readonly health: () => HostHealth,
    private readonly browserLabel: () => string,
    private readonly endpointLabel: () => string,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Playwright Bridge';
    this.item.command = COMMANDS.showLog;
    this.refresh();
    this.item.show();
  }

  /** Shows the health as it is now (after it changed, or the endpoint did). */
  refresh(): void {
    const { state, label, detail, browser, generation, pid } = this.health();
    this.item.text = `${ICONS[state]} Browser: ${label}`;
    this.item.backgroundColor = state === 'failed' ? new this.vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    const lines = [
      `**Playwright Bridge**: ${label}`,
      `Browser: ${this.browserLabel()}${browser ? ` (${browser})` : ' (not launched yet)'}`,
      generation ? `Server process: #${generation}${pid ? `, pid ${pid}` : ''}` : 'Server process: starts on the first tool call',
      `MCP endpoint: ${this.endpointLabel()}`,
    ];
    if (detail) lines.push('', detail.split('\n').join('  \n'));
    lines.push('', 'Click to show the log.');
    this.item.tooltip = new this.vscode.MarkdownString(lines.join('  \n'));
    this.item.accessibilityInformation = { label: `Playwright Bridge browser: ${label}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
