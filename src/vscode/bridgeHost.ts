import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import { buildChildConfig, childSpawnSpec } from '../core/childProcess/childConfig';
import { ChildFactory, childFactoryFor } from '../core/childProcess/childProcess';
import { BrowserLaunchPlan, planBrowserLaunch } from '../core/settings/browserDiscovery';
import { COMMANDS, SETTINGS_SECTION } from '../core/contributionIds';
import { BridgeSettings, BrowserName, readSettingLevels } from '../core/settings/settings';
import { Supervisor } from '../core/supervision/supervisor';
import { toolPolicyOf, ToolPolicySettings } from '../core/tools/toolPolicy';
import { capabilityHint } from '../core/tools/toolManifest';
import { ToolPolicyKeys } from './toolPolicyKeys';
import { FIELDS_APPLIED_AT_ONCE } from '../core/settings/settingsTable';
import { BrowserSecrets } from './browserSecrets';
import { LoginProfiles } from '../core/profiles/loginProfiles';

type VSCode = typeof vscodeTypes;

/** The settings a running browser was started with: every field but those the table says apply at once. */
function childPart(settings: BridgeSettings): string {
  return JSON.stringify(Object.entries(settings).filter(([key]) => !FIELDS_APPLIED_AT_ONCE.has(key)));
}

/**
 * Owns the supervisor for this window and feeds it the current settings. Nothing starts here:
 * the first tool call starts the child.
 */
export class BridgeHost implements vscodeTypes.Disposable {
  readonly supervisor: Supervisor;
  private settings: BridgeSettings;
  /** The settings of the factory the supervisor uses now (its running child was made with them). */
  private childSettings: BridgeSettings;
  /** Made on the first start with mkdtemp: private to this user, and not a name another user can guess and plant first. */
  private tmpDir: string | undefined;
  private readonly disposables: vscodeTypes.Disposable[] = [];
  private reportedProblems = '';
  /** Which browser the next start launches, and why that one (for the status bar, panel and log). */
  private launchPlan: BrowserLaunchPlan | undefined;
  /** The Playwright device the person chose in the panel, for this window (see useDevice). */
  private device: string | undefined;
  private outputFolder = '';
  private readonly policyKeys: ToolPolicyKeys;
  private problems: readonly string[] = [];
  /** Values typed where the model writes their names; kept in SecretStorage. */
  readonly secrets: BrowserSecrets;
  /** Saved logins new contexts can start from; the person's, in global storage. */
  readonly profiles: LoginProfiles;

  constructor(
    private readonly vscode: VSCode,
    private readonly context: vscodeTypes.ExtensionContext,
    private readonly log: vscodeTypes.LogOutputChannel,
  ) {
    this.secrets = new BrowserSecrets(vscode, context);
    this.profiles = new LoginProfiles(path.join(context.globalStorageUri.fsPath, 'login-profiles'));
    this.settings = this.readSettings();
    this.childSettings = this.settings;
    // The activity list names calls as chat does: by the manifest's display names.
    const manifest: { name: string; displayName: string; when?: string }[] = context.extension.packageJSON.contributes?.languageModelTools ?? [];
    const displayNames = new Map(manifest.map(tool => [tool.name, tool.displayName]));
    const manifestEntries = new Map(manifest.map(tool => [tool.name, tool]));
    this.supervisor = new Supervisor({
      factory: this.createFactory(this.settings),
      log: line => this.log.info(line),
      callTimeoutMs: () => this.settings.callTimeoutSeconds * 1000,
      displayName: tool => displayNames.get(tool),
      handBackTimeoutMs: () => this.settings.handBackTimeoutMinutes * 60_000,
      toolPolicy: () => this.toolPolicy,
      capabilityHint: tool => {
        const entry = manifestEntries.get(tool);
        return entry && capabilityHint(entry, this.settings.capabilities, this.runningSettings?.capabilities);
      },
    });
    this.policyKeys = new ToolPolicyKeys(vscode, manifest);
    this.policyKeys.apply(this.toolPolicy, this.settings);
    this.disposables.push(
      this.supervisor.onDidChangeHealth(
        () => void this.applyPendingSettings().catch(error => this.log.error(`Applying the changed settings failed: ${error}`)),
      ),
      vscode.workspace.onDidChangeConfiguration(event => {
        if (event.affectsConfiguration(SETTINGS_SECTION)) void this.onSettingsChanged();
      }),
    );
  }

  /** Readonly mode and the allow/deny lists, as set now (they apply at once, no restart). */
  get toolPolicy(): ToolPolicySettings {
    return toolPolicyOf(this.settings);
  }

  get currentSettings(): BridgeSettings {
    return this.settings;
  }

  /** What the last reading of the settings could not use as set, one line each as the log says it. */
  get settingProblems(): readonly string[] {
    return this.problems;
  }

  /** The browser that runs, or runs on the first call: "Chromium at /usr/bin/chromium, picked automatically…". */
  get browserLabel(): string {
    return this.settings.connection?.summary ?? this.launchPlan?.summary ?? '';
  }

  /** The folder the bridge writes into (relative file names of tools land here). */
  get outputDir(): string {
    return this.outputFolder;
  }

  /** Local workspace folders: the MCP roots the tools may read and write in. */
  get workspaceFolders(): string[] {
    return (this.vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.fsPath);
  }

  /** How the browser launches (or launched): the plan of the running child, or of the settings as they are now. */
  get browserLaunch(): BrowserLaunchPlan {
    return this.launchPlan ?? planBrowserLaunch(this.settings.browser, this.settings.executablePath);
  }

  /** The browser that runs, with `auto` resolved. */
  get browserName(): BrowserName {
    return this.launchPlan?.browser ?? 'chromium';
  }

  /** The settings the running browser server was started with; undefined while none runs. */
  get runningSettings(): BridgeSettings | undefined {
    return this.supervisor.running ? this.childSettings : undefined;
  }

  /** Restart Browser: a new child with the settings as they are now. */
  async restart(reason: string): Promise<void> {
    this.settings = this.readSettings();
    this.childSettings = this.settings;
    await this.supervisor.restart(reason, this.createFactory(this.settings));
  }

  /**
   * The panel's size picker chose a Playwright device (undefined: back to the configured viewport). Its
   * user agent, touch and pixel ratio need a new context: the browser restarts with it (the person has
   * agreed), and the model reads why before its next result. Kept for this window, not written to settings.
   */
  async useDevice(device: string | undefined): Promise<void> {
    this.device = device;
    await this.restart(
      device
        ? `the person chose the device "${device}" in the browser panel: the page now has its size, pixel ratio, user agent and touch`
        : 'the person went back to the default size in the browser panel',
    );
  }

  /** The Playwright device the window's browser emulates, if the person chose one. */
  get currentDevice(): string | undefined {
    return this.device;
  }

  /** A secret was set or deleted: the running browser has the old set until it restarts. */
  async secretsChanged(what: string): Promise<void> {
    if (!this.supervisor.running) {
      void this.vscode.window.showInformationMessage(`${what} The browser uses it from its next start.`);
      return;
    }
    const restartNow = 'Restart Browser';
    const choice = await this.vscode.window.showInformationMessage(
      `${what} The running browser has the secrets it started with; restarting closes its pages.`,
      restartNow,
      'Later',
    );
    if (choice === restartNow) await this.vscode.commands.executeCommand(COMMANDS.restartBrowser);
  }

  private async onSettingsChanged(): Promise<void> {
    const before = this.settings;
    this.settings = this.readSettings();
    this.policyKeys.apply(this.toolPolicy, this.settings);
    if (JSON.stringify(toolPolicyOf(before)) !== JSON.stringify(this.toolPolicy)) {
      this.supervisor.toolPolicyChanged();
      this.log.info(
        `Tool policy: ${this.toolPolicy.readonly ? 'readonly mode, ' : ''}allow [${this.toolPolicy.allow.join(', ')}], ` +
          `deny [${this.toolPolicy.deny.join(', ')}]`,
      );
    }
    const factory = this.createFactory(this.settings);
    // Settings read per call need no restart.
    if (childPart(before) === childPart(this.settings)) {
      if (!this.supervisor.running) this.supervisor.useFactory(factory);
      return;
    }
    if (!this.supervisor.running) {
      this.childSettings = this.settings;
      this.supervisor.useFactory(factory);
      return;
    }
    if (this.nothingToLose(before)) {
      await this.applyNow(factory);
      return;
    }
    const restartNow = 'Restart Browser';
    const choice = await this.vscode.window.showInformationMessage(
      'Playwright Bridge settings changed. The running browser keeps its old settings until it restarts; restarting closes its pages.',
      restartNow,
      'Later',
    );
    if (choice === restartNow) await this.vscode.commands.executeCommand(COMMANDS.restartBrowser);
  }

  /**
   * The bridge's server runs but no browser does (none launched yet, its launch failed, it was closed or lost), and no
   * MCP client has a context of its own: a restart loses nothing, so changed settings apply without asking. A wrong
   * browser path fixed in Settings is then used by whichever command starts the browser next, not only Restart Browser.
   */
  private nothingToLose(before: BridgeSettings = this.childSettings): boolean {
    // The health already says whether a browser is there (browserHealth.ts): not started, or its launch failed.
    const { state, failed } = this.supervisor.health;
    const noBrowser = state === 'notStarted' || failed === 'browser';
    return noBrowser && this.settings.isolation === 'shared' && before.isolation === 'shared';
  }

  private async applyNow(factory: ChildFactory): Promise<void> {
    this.childSettings = this.settings;
    await this.supervisor.restart('its settings changed', factory, { browserWasOpen: false });
  }

  /** Settings the person left for later (Later) apply once the browser they were for is gone. */
  private async applyPendingSettings(): Promise<void> {
    if (!this.supervisor.running || childPart(this.childSettings) === childPart(this.settings) || !this.nothingToLose()) return;
    await this.applyNow(this.createFactory(this.settings));
  }

  private readSettings(): BridgeSettings {
    const configuration = this.vscode.workspace.getConfiguration(SETTINGS_SECTION);
    // Every level on its own: the reader types each alone and combines them by who may set what (scopePolicy.ts).
    const { settings, problems } = readSettingLevels(key => {
      const inspected = configuration.inspect(key);
      return { user: inspected?.globalValue, workspace: inspected?.workspaceValue, folder: inspected?.workspaceFolderValue };
    });
    const summary = problems.map(p => `${p.key} ${p.message}`).join('\n');
    if (summary && summary !== this.reportedProblems) {
      for (const problem of problems) this.log.warn(`Setting ${problem.key} ${problem.message}`);
      const what =
        problems.length === 1
          ? `${problems[0].key} ${problems[0].message}`
          : `${problems.length} settings could not be used as they are set; the log says which, and what applies instead.`;
      void this.vscode.window.showWarningMessage(`Playwright Bridge: ${what}`);
    }
    this.reportedProblems = summary;
    this.problems = problems.map(p => `${p.key} ${p.message}`);
    return settings;
  }

  private createFactory(settings: BridgeSettings): ChildFactory {
    const storageDir = (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
    const built = buildChildConfig(settings, { storageDir, workspaceFolders: this.workspaceFolders, loginProfilesDir: this.profiles.folder });
    // The person's own browser (CDP) keeps its own window: a device is for a context of ours.
    const config = this.device && settings.connection?.protocol !== 'cdp' ? { ...built, device: this.device } : built;
    this.launchPlan = config.launch;
    this.outputFolder = config.mcp.outputDir;
    const childScript = this.context.asAbsolutePath(path.join('dist', 'child.js'));
    return async events => {
      // Short and per window: Chromium's socket paths break past ~107 characters.
      this.tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-'));
      // Read at each start, so a secret set or deleted counts from the next browser on.
      const secrets = await this.secrets.values();
      const credentials = settings.connection ? await this.secrets.connectionHeaders() : {};
      const privateInput = { secrets, connectHeaders: credentials };
      const spec = childSpawnSpec(config, { execPath: process.execPath, childScript, baseEnv: process.env, tmpDir: this.tmpDir, privateInput });
      return childFactoryFor(spec)(events);
    };
  }

  async dispose(): Promise<void> {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    await this.supervisor.dispose();
    if (this.tmpDir) fs.rmSync(this.tmpDir, { recursive: true, force: true });
  }
}
