import type * as vscodeTypes from 'vscode';
import { COMMANDS, SETTINGS_SECTION } from '../core/contributionIds';
import { LoginProfiles, PROFILE_NAME, PROFILE_NAME_RULE } from '../core/profiles/loginProfiles';
import { Supervisor } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

/** A profile name from a page's address: its host, as a file-safe name. */
export function suggestedProfileName(url: string | undefined): string {
  try {
    const host = new URL(url ?? '').hostname.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
    return PROFILE_NAME.test(host) ? host : 'my-login';
  } catch {
    return 'my-login';
  }
}

/**
 * Save Login Profile: the person logs in by hand in the panel (the agent waits meanwhile), then the
 * context's cookies and local storage are saved under a name. Its content is never shown or logged.
 */
export async function saveLoginProfile(vscode: VSCode, supervisor: Supervisor, profiles: LoginProfiles, currentUrl: () => string | undefined): Promise<void> {
  if (!supervisor.running || !currentUrl() || currentUrl() === 'about:blank') {
    const url = await vscode.window.showInputBox({
      title: 'Save Login Profile: the sign-in page',
      prompt: 'The browser opens it in the browser panel; log in there by hand.',
      placeHolder: 'https://example.com/login',
      ignoreFocusOut: true,
      validateInput: text => (/^https?:\/\/\S+$/.test(text) ? undefined : 'An http(s) address.'),
    });
    if (!url) return;
    const opened = await supervisor.pageAction({ action: 'navigate', url });
    if (!opened.ok) {
      void vscode.window.showErrorMessage(`Could not open ${url}: ${opened.message}`);
      return;
    }
  }
  await vscode.commands.executeCommand(COMMANDS.openPanel);
  // The agent's calls wait while the person logs in, so nothing navigates away under them.
  const tookControl = !supervisor.personHasControl;
  if (tookControl) void supervisor.takeControl();
  try {
    const save = 'Save Profile';
    const choice = await vscode.window.showInformationMessage(
      "Log in to the site in the browser panel (chat's calls wait meanwhile). When you are logged in, press Save Profile.",
      save,
      'Cancel',
    );
    if (choice !== save) return;
    const name = await vscode.window.showInputBox({
      title: 'Save Login Profile: its name',
      value: suggestedProfileName(currentUrl()),
      prompt: 'New contexts can start from it (setting playwrightBridge.loginProfile). An existing profile of this name is kept as its previous version.',
      ignoreFocusOut: true,
      validateInput: text => (PROFILE_NAME.test(text) ? undefined : PROFILE_NAME_RULE),
    });
    if (!name) return;
    if (!supervisor.running) throw new Error('No browser is running: open the site in the browser panel and log in first.');
    const { state } = await supervisor.ask('storageState', {});
    const saved = await profiles.save(name, state);
    const cookies = (JSON.parse(state) as { cookies?: unknown[] }).cookies?.length ?? 0;
    const use = 'Use for New Contexts';
    const next = await vscode.window.showInformationMessage(
      `Login profile "${name}" saved (${cookies} cookie${cookies === 1 ? '' : 's'}, ${Math.ceil(saved.bytes / 1024)} KB), readable only by you.`,
      use,
    );
    if (next === use) await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('loginProfile', name, vscode.ConfigurationTarget.Global);
  } catch (error) {
    void vscode.window.showErrorMessage(`The login profile was not saved: ${(error as Error).message}`);
  } finally {
    if (tookControl) await supervisor.handBack();
  }
}

/** List Login Profiles: each with its size and date; pick one to use it, stop using it, or delete it. */
export async function listLoginProfiles(vscode: VSCode, profiles: LoginProfiles): Promise<void> {
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const inUse = configuration.inspect<string>('loginProfile')?.globalValue;
  const list = profiles.list();
  if (!list.length) {
    void vscode.window.showInformationMessage('No login profiles yet. "Playwright Bridge: Save Login Profile…" makes one.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    list.map(p => ({
      label: p.name,
      description: `${Math.ceil(p.bytes / 1024)} KB, saved ${p.savedAt.toLocaleString()}${p.name === inUse ? ', new contexts start from it' : ''}`,
    })),
    { title: 'Login profiles', placeHolder: 'Pick one to use, stop using or delete it' },
  );
  if (!picked) return;
  const actions = [picked.label === inUse ? 'Stop Using It' : 'Use for New Contexts', 'Delete'];
  const action = await vscode.window.showQuickPick(actions, { title: `Login profile "${picked.label}"` });
  if (action === 'Delete') return deleteLoginProfile(vscode, profiles, picked.label);
  if (action) await configuration.update('loginProfile', action === 'Stop Using It' ? undefined : picked.label, vscode.ConfigurationTarget.Global);
}

/** Delete a Login Profile: it and its previous version go; a setting that named it is cleared. */
export async function deleteLoginProfile(vscode: VSCode, profiles: LoginProfiles, name?: string): Promise<void> {
  const chosen =
    name ??
    (await vscode.window.showQuickPick(
      profiles.list().map(p => p.name),
      { title: 'Delete a login profile' },
    ));
  if (!chosen) return;
  try {
    await profiles.delete(chosen);
  } catch (error) {
    void vscode.window.showErrorMessage((error as Error).message);
    return;
  }
  const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  if (configuration.inspect<string>('loginProfile')?.globalValue === chosen) {
    await configuration.update('loginProfile', undefined, vscode.ConfigurationTarget.Global);
  }
  void vscode.window.showInformationMessage(`Login profile "${chosen}" deleted.`);
}
