import type * as vscodeTypes from 'vscode';
import { COMMANDS, SETTINGS_SECTION } from '../core/contributionIds';
import type { HostHealth } from '../core/supervision/browserHealth';

type VSCode = typeof vscodeTypes;

/** Tells the person once, with the fixes one click away, when the browser cannot start (as the health says). */
export class BrowserFailureNotifier {
  private lastShown: string | undefined;

  constructor(private readonly vscode: VSCode, private readonly log: vscodeTypes.LogOutputChannel) {}

  healthChanged(health: HostHealth): void {
    if (health.browser === 'ready') this.lastShown = undefined;
    if (health.failed !== 'browser' || !health.detail || health.detail === this.lastShown) return;
    this.lastShown = health.detail;
    this.log.error(health.detail);
    const [headline, ...rest] = health.detail.split('\n');
    void this.vscode.window
      .showErrorMessage(headline, { detail: rest.join('\n'), modal: false }, 'Install Browser', 'Open Settings', 'Show Log')
      .then(choice => {
        if (choice === 'Install Browser') void this.vscode.commands.executeCommand(COMMANDS.installBrowser);
        else if (choice === 'Open Settings') void this.vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS_SECTION);
        else if (choice === 'Show Log') this.log.show();
      });
  }
}
