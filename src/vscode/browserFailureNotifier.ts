import type * as vscodeTypes from 'vscode';
import { COMMANDS, SETTINGS_SECTION } from '../core/contributionIds';
import type { HostHealth } from '../core/supervision/browserHealth';
import { leadingFix } from '../core/settings/browserDiscovery';
import { USER_ONLY_SETTINGS } from '../core/settings/settingsTable';

/** "playwrightBridge.executablePath" as the Settings editor titles it: "Executable Path". */
function settingTitle(key: string): string {
  const name = key.slice(key.lastIndexOf('.') + 1);
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, c => c.toUpperCase());
}

/**
 * The Settings editor on that setting, in the tab where it is listed: a machine setting shows only among the
 * remote's settings when VS Code runs remotely (code-server, SSH, a container), not under User.
 */
export async function openSettingWhereItLives(vscode: VSCode, key: string): Promise<void> {
  const remote = !!vscode.env.remoteName && (USER_ONLY_SETTINGS as readonly string[]).includes(key.replace(`${SETTINGS_SECTION}.`, ''));
  // An object, not the bare key: the remote command drops a string argument and opens its settings unfiltered.
  await vscode.commands.executeCommand(remote ? 'workbench.action.openRemoteSettings' : 'workbench.action.openSettings', { query: key });
}

type VSCode = typeof vscodeTypes;

/** Tells the person once, with the fixes one click away, when the browser cannot start (as the health says). */
export class BrowserFailureNotifier {
  private lastShown: string | undefined;

  constructor(
    private readonly vscode: VSCode,
    private readonly log: vscodeTypes.LogOutputChannel,
  ) {}

  healthChanged(health: HostHealth): void {
    if (health.browser === 'ready') this.lastShown = undefined;
    if (health.failed !== 'browser' || !health.detail || health.detail === this.lastShown) return;
    this.lastShown = health.detail;
    this.log.error(health.detail);
    const [headline, ...rest] = health.detail.split('\n');
    // The one fix that applies leads: the setting the message names (opened where it lives), or the download.
    const fix = leadingFix(health.detail);
    const install = 'Install Browser';
    const openSetting = fix.setting ? `Open Setting ${settingTitle(fix.setting)}` : 'Open Settings';
    const buttons = fix.install ? [install, openSetting, 'Show Log'] : [openSetting, 'Show Log'];
    void this.vscode.window.showErrorMessage(headline, { detail: rest.join('\n'), modal: false }, ...buttons).then(choice => {
      if (choice === install) void this.vscode.commands.executeCommand(COMMANDS.installBrowser);
      else if (choice === openSetting) void openSettingWhereItLives(this.vscode, fix.setting ?? SETTINGS_SECTION);
      else if (choice === 'Show Log') this.log.show();
    });
  }
}
