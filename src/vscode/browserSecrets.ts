import type * as vscodeTypes from 'vscode';

type VSCode = typeof vscodeTypes;

/** Where the names are kept (names are not secret; values live in SecretStorage only). */
const NAMES_KEY = 'playwrightBridge.secretNames';
const valueKey = (name: string) => `playwrightBridge.secret.${name}`;
/** What a secret's name may look like: the model writes it as the text to type, so keep it plain. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Values the person keeps in VS Code's SecretStorage, handed to the child at start so upstream types
 * a value where the model writes its name. The model, the panel and the log see only the name.
 */
export class BrowserSecrets {
  constructor(
    private readonly vscode: VSCode,
    private readonly context: Pick<vscodeTypes.ExtensionContext, 'secrets' | 'globalState'>,
  ) {}

  names(): string[] {
    return [...(this.context.globalState.get<string[]>(NAMES_KEY) ?? [])].sort();
  }

  /** Name to value, for the next browser start. A name whose value is gone is left out. */
  async values(): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const name of this.names()) {
      const value = await this.context.secrets.get(valueKey(name));
      if (value) values[name] = value;
    }
    return values;
  }

  /** The Set Secret command: a name, then the value in a password box. The name saved, if one was. */
  async set(): Promise<string | undefined> {
    const name = await this.vscode.window.showInputBox({
      title: 'Set a secret for the browser (1/2)',
      prompt: 'A name the agent writes instead of the value, for example SITE_PASSWORD. The agent sees only this name.',
      placeHolder: 'SITE_PASSWORD',
      ignoreFocusOut: true,
      validateInput: text => (SECRET_NAME.test(text) ? undefined : 'Letters, digits and _, starting with a letter or _ (at most 64).'),
    });
    if (!name || !SECRET_NAME.test(name)) return undefined;
    const value = await this.vscode.window.showInputBox({
      title: `Set a secret for the browser (2/2): ${name}`,
      prompt: `The value typed wherever the agent writes ${name}. Kept in VS Code's secret storage; never shown to the model, the panel or the log.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: text => (text ? undefined : 'The value may not be empty.'),
    });
    if (!value) return undefined;
    await this.context.secrets.store(valueKey(name), value);
    await this.context.globalState.update(NAMES_KEY, [...new Set([...this.names(), name])]);
    return name;
  }

  /** The Delete Secret command: pick a name; its value leaves SecretStorage. */
  async remove(): Promise<string | undefined> {
    const names = this.names();
    if (!names.length) {
      void this.vscode.window.showInformationMessage('No secrets are set. "Playwright Bridge: Set a Secret for the Browser…" adds one.');
      return undefined;
    }
    const name = await this.vscode.window.showQuickPick(names, { title: 'Delete a secret of the browser', placeHolder: 'Which secret?' });
    if (!name || !SECRET_NAME.test(name)) return undefined;
    await this.context.secrets.delete(valueKey(name));
    await this.context.globalState.update(NAMES_KEY, names.filter(n => n !== name));
    return name;
  }
}
