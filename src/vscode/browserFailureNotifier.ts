import type * as vscodeTypes from 'vscode';
import { COMMANDS, SETTINGS_SECTION } from '../core/contributionIds';
import { BrowserStateParams } from '../protocol/childMessages';

type VSCode = typeof vscodeTypes;

/** Tells the person once, with the fixes one click away, when the browser cannot start. */
export class BrowserFailureNotifier {
  private lastShown: string | undefined;

  constructor(private readonly vscode: VSCode, private readonly log: vscodeTypes.LogOutputChannel) {}

  onBrowserState(state: BrowserStateParams): void {
    if (state.state === 'ready') this.lastShown = undefined;
    if (state.state !== 'failed' || !state.message || state.message === this.lastShown) return;
    this.lastShown = state.message;
    this.log.error(state.message);
    const [headline, ...rest] = state.message.split('\n');
    void this.vscode.window
      .showErrorMessage(headline, { detail: rest.join('\n'), modal: false }, 'Install Browser', 'Open Settings', 'Show Log')
      .then(choice => {
        if (choice === 'Install Browser') void this.vscode.commands.executeCommand(COMMANDS.installBrowser);
        else if (choice === 'Open Settings') void this.vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS_SECTION);
        else if (choice === 'Show Log') this.log.show();
      });
  }
}
