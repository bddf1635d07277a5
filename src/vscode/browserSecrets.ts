import type * as vscodeTypes from 'vscode';
import { SecretEntry } from '../protocol/childMessages';
import { parseSecretSites } from '../core/settings/secretSites';

type VSCode = typeof vscodeTypes;

/** The connection's credential headers (playwrightBridge.connect.endpoint), as JSON. */
const CONNECTION_KEY = 'playwrightBridge.connect.credentials';
/** What an HTTP header's name may look like. */
const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;

/** The first step of a Set command: a name and what it may look like. */
interface NameStep {
  prompt: string;
  placeHolder?: string;
  value?: string;
  pattern: RegExp;
  problem: string;
}

/** Where the names are kept (names are not secret; values live in SecretStorage only). */
const NAMES_KEY = 'playwrightBridge.secretNames';
/** Each secret's sites: the origins it may be typed into (not secret either; the person's, in global state). */
const SITES_KEY = 'playwrightBridge.secretSites';
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

  /** The origins a secret may be typed into; none for a secret set before secrets had sites. */
  sites(name: string): string[] {
    return this.context.globalState.get<Record<string, string[]>>(SITES_KEY)?.[name] ?? [];
  }

  private async setSites(name: string, sites: string[] | undefined): Promise<void> {
    const all = { ...this.context.globalState.get<Record<string, string[]>>(SITES_KEY) };
    if (sites) all[name] = sites;
    else delete all[name];
    await this.context.globalState.update(SITES_KEY, all);
  }

  /** Name to value and sites, for the next browser start. A name whose value is gone is left out. */
  async values(): Promise<Record<string, SecretEntry>> {
    const values: Record<string, SecretEntry> = {};
    for (const name of this.names()) {
      const value = await this.context.secrets.get(valueKey(name));
      if (value) values[name] = { value, origins: this.sites(name) };
    }
    return values;
  }

  /** The sites step: origins, prefilled with the secret's own or the open page's. Undefined when the person cancels. */
  private async askSites(title: string, name: string, prefill: string[]): Promise<string[] | undefined> {
    const typed = await this.vscode.window.showInputBox({
      title,
      prompt:
        `The sites ${name} may be typed into, as origins separated by commas (https://bank.example, http://localhost:3000). ` +
        'Anywhere else, and in a frame of another site inside these, the bridge refuses to type it.',
      value: prefill.join(', '),
      placeHolder: 'https://example.com',
      ignoreFocusOut: true,
      validateInput: text => parseSecretSites(text).problem,
    });
    if (typed === undefined) return undefined;
    const parsed = parseSecretSites(typed);
    return parsed.problem ? undefined : parsed.origins;
  }

  /** The secrets as quick-pick items, each with its sites. */
  private pickItems(): { label: string; description: string }[] {
    return this.names().map(name => ({ label: name, description: this.sites(name).join(', ') || 'no sites: it is typed nowhere' }));
  }

  /**
   * The two steps of both Set commands: a name checked against `pattern`, then its value in a
   * password box (empty only where `emptyValue` allows it). Undefined when the person cancels.
   */
  private async askNameThenValue(title: string, name: NameStep, value: { prompt: (name: string) => string; emptyValue: boolean }, steps = 2) {
    const chosen = await this.vscode.window.showInputBox({
      title: `${title} (1/${steps})`,
      prompt: name.prompt,
      placeHolder: name.placeHolder,
      value: name.value,
      ignoreFocusOut: true,
      validateInput: text => (name.pattern.test(text) ? undefined : name.problem),
    });
    if (!chosen || !name.pattern.test(chosen)) return undefined;
    const typed = await this.vscode.window.showInputBox({
      title: `${title} (2/${steps}): ${chosen}`,
      prompt: value.prompt(chosen),
      password: true,
      ignoreFocusOut: true,
      validateInput: text => (text || value.emptyValue ? undefined : 'The value may not be empty.'),
    });
    if (typed === undefined || (!typed && !value.emptyValue)) return undefined;
    return { name: chosen, value: typed };
  }

  /**
   * The Set Secret command: a name, the value in a password box, then the sites it may be typed
   * into (the open page's origin by default). Nothing is saved unless all three are given.
   */
  async set(currentUrl?: string): Promise<string | undefined> {
    const title = 'Set a secret for the browser';
    const answer = await this.askNameThenValue(
      title,
      {
        prompt: 'A name the agent writes instead of the value, for example SITE_PASSWORD. The agent sees only this name.',
        placeHolder: 'SITE_PASSWORD',
        pattern: SECRET_NAME,
        problem: 'Letters, digits and _, starting with a letter or _ (at most 64).',
      },
      {
        prompt: name => `The value typed wherever the agent writes ${name}. Kept in VS Code's secret storage; never shown to the model, the panel or the log.`,
        emptyValue: false,
      },
      3,
    );
    if (!answer) return undefined;
    const known = this.sites(answer.name);
    const current = currentUrl ? parseSecretSites(currentUrl).origins : [];
    const sites = await this.askSites(`${title} (3/3): ${answer.name}`, answer.name, known.length ? known : current);
    if (!sites) return undefined;
    await this.context.secrets.store(valueKey(answer.name), answer.value);
    await this.setSites(answer.name, sites);
    await this.context.globalState.update(NAMES_KEY, [...new Set([...this.names(), answer.name])]);
    return answer.name;
  }

  /** The Choose Sites command: pick a secret (listed with its sites), then edit its origins. */
  async chooseSites(currentUrl?: string): Promise<string | undefined> {
    if (!this.names().length) {
      void this.vscode.window.showInformationMessage('No secrets are set. "Playwright Bridge: Set Browser Secret…" adds one.');
      return undefined;
    }
    const picked = await this.vscode.window.showQuickPick(this.pickItems(), { title: 'Choose the sites of a secret', placeHolder: 'Which secret?' });
    if (!picked || !SECRET_NAME.test(picked.label)) return undefined;
    const known = this.sites(picked.label);
    const current = currentUrl ? parseSecretSites(currentUrl).origins : [];
    const sites = await this.askSites(`Sites of ${picked.label}`, picked.label, known.length ? known : current);
    if (!sites) return undefined;
    await this.setSites(picked.label, sites);
    return picked.label;
  }

  /** Credential headers for connecting to a browser elsewhere, for the next start. */
  async connectionHeaders(): Promise<Record<string, string>> {
    const raw = await this.context.secrets.get(CONNECTION_KEY);
    return raw ? (JSON.parse(raw) as Record<string, string>) : {};
  }

  /** The Set Connection Credentials command: a header (Authorization by default) and its value; empty clears it. */
  async setConnectionCredentials(): Promise<string | undefined> {
    const answer = await this.askNameThenValue(
      'Connection credentials',
      {
        prompt: "The header sent when connecting to playwrightBridge.connect.endpoint. Kept in VS Code's secret storage, never in settings files.",
        value: 'Authorization',
        pattern: HEADER_NAME,
        problem: 'A header name: letters, digits and -.',
      },
      { prompt: () => 'Its value, for example "Bearer <token>". Leave empty to remove this header.', emptyValue: true },
    );
    if (!answer) return undefined;
    const headers = await this.connectionHeaders();
    if (answer.value) headers[answer.name] = answer.value;
    else delete headers[answer.name];
    await this.context.secrets.store(CONNECTION_KEY, JSON.stringify(headers));
    return answer.name;
  }

  /** The Delete Secret command: pick a name; its value leaves SecretStorage. */
  async remove(): Promise<string | undefined> {
    const names = this.names();
    if (!names.length) {
      void this.vscode.window.showInformationMessage('No secrets are set. "Playwright Bridge: Set Browser Secret…" adds one.');
      return undefined;
    }
    const picked = await this.vscode.window.showQuickPick(this.pickItems(), { title: 'Delete a secret of the browser', placeHolder: 'Which secret?' });
    const name = picked?.label;
    if (!name || !SECRET_NAME.test(name)) return undefined;
    await this.context.secrets.delete(valueKey(name));
    await this.setSites(name, undefined);
    await this.context.globalState.update(
      NAMES_KEY,
      names.filter(n => n !== name),
    );
    return name;
  }
}
