/**
 * The whole extension, built from the `vscode` it is given: settings, the supervisor, both doors, the
 * panel, the status bar and every command. src/extension.ts hands it the real `vscode`; a plain Node
 * test (test/unit/frontDoor.test.ts) starts it whole against test/support/fakeVscode.ts.
 */
import type * as vscodeTypes from 'vscode';
import { ManifestTool } from '../core/tools/toolManifest';
import { BridgeHost } from './bridgeHost';
import { BrowserFailureNotifier } from './browserFailureNotifier';
import { installBrowser } from './installBrowser';
import { registerLanguageModelTools } from './languageModelTools';
import { BridgeStatusBar } from './statusBar';
import { DEFAULT_ENDPOINT_LIMITS, McpEndpoint } from '../core/mcpDoor/mcpEndpoint';
import { CdpEndpoint } from '../core/cdpDoor/cdpEndpoint';
import { CdpCommands } from './cdpCommands';
import { LiveViewStore } from '../core/liveView/liveViewStore';
import { BrowserPanelHub } from './browserPanel';
import { COMMANDS, MCP_PROVIDER_ID, PANEL_VIEW_ID } from '../core/contributionIds';
import { saveScreenshot } from './saveScreenshot';
import { saveNetworkHar } from './saveHar';
import { deleteLoginProfile, listLoginProfiles, saveLoginProfile } from './loginProfileCommands';
import { restartBrowser, startBrowser } from './browserCommands';
import { createLog } from './log';
import { PanelReport } from '../protocol/panelMessages';
import { copyMcpClientConfig, PlaywrightMcpServerProvider } from './mcpServerProvider';
import type { BridgeSettings } from '../core/settings/settings';
import { StepJournal } from '../core/testExport/stepJournal';
import { readSnapshotFile } from '../core/testExport/specFiles';
import { Timeline } from '../core/timeTravel/timeline';
import { TimeTravel } from './timeTravel';
import { restoreStepTool } from './restoreStepTool';
import { EXPORT_TEST_TOOL, RESTORE_STEP_TOOL } from '../core/tools/ownTools';
import { TestExport } from './exportTest';
import { exportTestTool } from './exportTestTool';

/** What the extension hands to other code (its own integration tests): read-only facts. */
export interface PlaywrightBridgeApi {
  /** Milliseconds of work in activate(). */
  readonly activationMs: number;
  /** The server process's pid while it runs. */
  readonly childPid: number | undefined;
  readonly state: string;
  /** What each visible browser panel shows, read from its DOM. */
  describePanels(): Promise<PanelReport[]>;
  /** MCP client sessions at the endpoint: live now, and opened in all (a reconnecting client opens another). */
  readonly mcpSessions: { live: number; opened: number };
  /** True while the person has taken control of the browser in the panel. */
  readonly personHasControl: boolean;
  /** The folder the bridge writes into (tool output, Add to Chat files). */
  readonly outputDir: string;
  /** Time travel's scrubs, ms from the panel's request to its picture drawn. */
  readonly scrubTimes: readonly number[];
  /** The settings as the bridge read them last (every level combined by who may set what). */
  readonly settings: BridgeSettings;
  /** What that reading could not use as set, as the log says it: `playwrightBridge.<key> <why>`. */
  readonly settingProblems: readonly string[];
}

/** The running extension: what it hands out, and the one way to stop it (its whole process tree with it). */
export interface BridgeExtension {
  readonly api: PlaywrightBridgeApi;
  dispose(): Promise<void>;
}

export function startBridgeExtension(vscode: typeof vscodeTypes, context: vscodeTypes.ExtensionContext): BridgeExtension {
  const started = performance.now();
  const log = createLog(vscode);
  const bridge = new BridgeHost(vscode, context, log);
  const supervisor = bridge.supervisor;

  // The MCP door listens only once something asks for it (VS Code's MCP client or the copy command).
  const mcpEndpoint = new McpEndpoint(supervisor, context.extension.packageJSON.version, line => log.info(line), {
    ...DEFAULT_ENDPOINT_LIMITS,
    idleMs: () => bridge.currentSettings.mcpSessionIdleMinutes * 60_000,
    // A client that called a tool within its context's idle window still holds that context: never evicted for a newcomer.
    inUseAfterCallMs: () => bridge.currentSettings.sessionIdleMinutes * 60_000,
  });
  const mcpProvider = new PlaywrightMcpServerProvider(vscode, mcpEndpoint, () => bridge.currentSettings.exposure);
  // The CDP door listens only once the person opens DevTools or shares the browser.
  const cdpEndpoint = new CdpEndpoint(supervisor, line => log.info(line));
  const cdpCommands = new CdpCommands(
    vscode,
    cdpEndpoint,
    supervisor,
    () => bridge.secrets.names(),
    line => log.info(line),
  );

  const statusBar = new BridgeStatusBar(
    vscode,
    () => supervisor.health,
    () => bridge.browserLabel,
    () => {
      const address = mcpEndpoint.address;
      return address ? `up on ${address.url}, ${mcpEndpoint.sessionCount} client session${mcpEndpoint.sessionCount === 1 ? '' : 's'}` : 'not listening';
    },
  );
  const failures = new BrowserFailureNotifier(vscode, log);
  const liveView = new LiveViewStore(supervisor, () => bridge.browserLabel);
  // Time travel: a checkpoint after every step of the window's browser, kept here under the budget setting.
  const timeline = new Timeline(
    {
      onToolCall: supervisor.onToolCall,
      onObservation: supervisor.onObservation,
      onMessage: liveView.onMessage,
      onFrame: liveView.onFrame,
      clientsIsolated: () => bridge.currentSettings.isolation === 'perClient',
      watchingWindow: () => liveView.state().watching === 'window',
      readSnapshot: file => readSnapshotFile(file, bridge.outputDir),
      checkpointNow: () => (bridge.currentSettings.timeTravel ? supervisor.ask('checkpoint', {}).catch(() => undefined) : Promise.resolve(undefined)),
    },
    () => bridge.currentSettings.timeTravelMaxMB * 1024 * 1024,
  );
  const timeTravel = new TimeTravel(vscode, {
    timeline,
    supervisor,
    canRestore: () => bridge.currentSettings.timeTravel && bridge.currentSettings.connection?.protocol !== 'cdp',
    browserName: () => bridge.browserLaunch.engine,
    viewport: () => bridge.currentSettings.viewport,
    workspaceFolders: () => bridge.workspaceFolders,
    saveFolders: context.workspaceState,
    log,
  });
  const panels = new BrowserPanelHub(vscode, context.extensionUri, liveView, supervisor, log, () => bridge.outputDir, timeTravel, {
    get currentDevice() {
      return bridge.currentDevice;
    },
    useDevice: device => bridge.useDevice(device),
    secretSites: () => Object.fromEntries(bridge.secrets.names().map(name => [name, bridge.secrets.sites(name)])),
  });
  const manifest: ManifestTool[] = context.extension.packageJSON.contributes.languageModelTools;
  // The window's steps since the browser started, for Export Session as Playwright Test.
  const journal = new StepJournal(supervisor, () => bridge.currentSettings.isolation === 'perClient');
  const exporter = new TestExport(vscode, {
    journal,
    store: liveView,
    settings: () => bridge.currentSettings,
    browserLaunch: () => bridge.browserLaunch,
    workspaceFolders: () => bridge.workspaceFolders,
    secrets: () => bridge.secrets.values(),
    storageDir: context.globalStorageUri.fsPath,
    loginProfileFile: name => bridge.profiles.pathOf(name),
    outputDir: () => bridge.outputDir,
    secretNames: () => bridge.secrets.names(),
    workspaceState: context.workspaceState,
    log,
  });

  // The host's own tools: their handlers join the supervisor's pipeline, their presenters the language-model door.
  const restoreStep = restoreStepTool(vscode, timeTravel, supervisor);
  const exportTest = exportTestTool(vscode, exporter, supervisor);
  const presenters = new Map([
    [RESTORE_STEP_TOOL, restoreStep.presenter],
    [EXPORT_TEST_TOOL, exportTest.presenter],
  ]);

  context.subscriptions.push(
    log,
    statusBar,
    supervisor.onDidChangeStatus(status => {
      const server = status.generation ? ` (server #${status.generation}${status.pid ? `, pid ${status.pid}` : ''})` : '';
      log.info(`Bridge ${status.state}${server}; MCP endpoint ${mcpEndpoint.address ? `up, ${mcpEndpoint.sessionCount} session(s)` : 'down'}`);
    }),
    mcpEndpoint.onDidChangeSessions(() => statusBar.refresh()),
    mcpProvider,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcpProvider),
    vscode.commands.registerCommand(COMMANDS.copyMcpClientConfig, async () => {
      await copyMcpClientConfig(vscode, mcpEndpoint);
      statusBar.refresh();
    }),
    cdpCommands,
    vscode.commands.registerCommand(COMMANDS.openDevTools, () => cdpCommands.openDevTools()),
    vscode.commands.registerCommand(COMMANDS.shareCdp, () => cdpCommands.share()),
    vscode.commands.registerCommand(COMMANDS.debugBrowser, () => cdpCommands.debug()),
    vscode.commands.registerCommand(COMMANDS.revokeCdp, () => cdpCommands.revoke()),
    supervisor.onDidChangeHealth(health => {
      statusBar.refresh();
      failures.healthChanged(health);
    }),
    ...registerLanguageModelTools(
      vscode,
      manifest,
      supervisor,
      (name, isError) => log.debug(`${name} ${isError ? 'failed' : 'done'}`),
      {
        outputDir: () => bridge.outputDir,
        roots: () => bridge.workspaceFolders,
        secretNames: () => bridge.secrets.names(),
      },
      presenters,
    ),
    restoreStep.disposable,
    exportTest.disposable,
    vscode.commands.registerCommand(COMMANDS.restartBrowser, () => restartBrowser(vscode, bridge, log)),
    vscode.commands.registerCommand(COMMANDS.showLog, () => log.show()),
    liveView,
    panels,
    vscode.window.registerWebviewViewProvider(PANEL_VIEW_ID, panels),
    vscode.commands.registerCommand(COMMANDS.openPanel, () => vscode.commands.executeCommand(`${PANEL_VIEW_ID}.focus`)),
    vscode.commands.registerCommand(COMMANDS.openPanelInEditor, () => panels.openInEditor()),
    vscode.commands.registerCommand(COMMANDS.takeControl, () => supervisor.takeControl()),
    vscode.commands.registerCommand(COMMANDS.handBack, async () => {
      // Said, not silently nothing: the person may think they still hold the browser.
      if (!supervisor.personHasControl) {
        void vscode.window.showInformationMessage(
          'You do not have control of the browser: chat drives it. "Playwright Bridge: Take Control of Browser" takes it.',
        );
        return;
      }
      await supervisor.handBack();
    }),
    vscode.commands.registerCommand(COMMANDS.setSecret, async () => {
      const name = await bridge.secrets.set(liveView.currentTab?.url);
      if (name) await bridge.secretsChanged(`Secret ${name} saved: the agent types it by writing ${name} as the text, on its sites only.`);
    }),
    vscode.commands.registerCommand(COMMANDS.chooseSecretSites, async () => {
      const name = await bridge.secrets.chooseSites(liveView.currentTab?.url);
      if (name) await bridge.secretsChanged(`Sites of ${name} saved: ${bridge.secrets.sites(name).join(', ') || 'none (it is typed nowhere)'}.`);
    }),
    vscode.commands.registerCommand(COMMANDS.saveLoginProfile, () => saveLoginProfile(vscode, supervisor, bridge.profiles, () => liveView.currentTab?.url)),
    vscode.commands.registerCommand(COMMANDS.listLoginProfiles, () => listLoginProfiles(vscode, bridge.profiles)),
    vscode.commands.registerCommand(COMMANDS.deleteLoginProfile, () => deleteLoginProfile(vscode, bridge.profiles)),
    vscode.commands.registerCommand(COMMANDS.setConnectionCredentials, async () => {
      const header = await bridge.secrets.setConnectionCredentials();
      if (header) await bridge.secretsChanged(`Connection header ${header} saved in secret storage.`);
    }),
    vscode.commands.registerCommand(COMMANDS.deleteSecret, async () => {
      const name = await bridge.secrets.remove();
      if (name) await bridge.secretsChanged(`Secret ${name} deleted.`);
    }),
    vscode.commands.registerCommand(COMMANDS.startBrowser, () => startBrowser(vscode, supervisor)),
    vscode.commands.registerCommand(COMMANDS.saveScreenshot, () => saveScreenshot(vscode, supervisor, liveView, context.workspaceState)),
    // A Uri as the argument (from code in the extension host: a test) saves there without asking.
    vscode.commands.registerCommand(COMMANDS.saveNetworkHar, (target?: unknown) =>
      saveNetworkHar(
        vscode,
        supervisor,
        liveView,
        String(context.extension.packageJSON.version),
        context.workspaceState,
        target instanceof vscode.Uri ? target : undefined,
      ),
    ),
    journal,
    timeline,
    // From the palette: every kept step; from the panel: the range of rows the person selected, if any.
    vscode.commands.registerCommand(COMMANDS.saveTrace, (request?: { callIds?: unknown }) => timeTravel.saveTrace(selectedCallIds(request) ?? [])),
    // From the palette with nothing, from the panel with the rows the person selected.
    vscode.commands.registerCommand(COMMANDS.exportTest, (request?: { callIds?: unknown }) =>
      exporter.run({
        callIds: selectedCallIds(request),
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.installBrowser, () => installBrowser(vscode, context.extensionPath, log, bridge.browserName)),
  );

  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms; ${manifest.length} tools registered; the browser starts on the first tool call.`);
  const api: PlaywrightBridgeApi = {
    activationMs,
    get childPid() {
      return supervisor.status.pid;
    },
    get state() {
      return supervisor.status.state;
    },
    describePanels: () => panels.describe(),
    get mcpSessions() {
      return { live: mcpEndpoint.sessionCount, opened: mcpEndpoint.sessionsOpened };
    },
    get personHasControl() {
      return supervisor.personHasControl;
    },
    get outputDir() {
      return bridge.outputDir;
    },
    get scrubTimes() {
      return timeTravel.scrubTimes;
    },
    get settings() {
      return bridge.currentSettings;
    },
    get settingProblems() {
      return bridge.settingProblems;
    },
  };
  return {
    api,
    // The doors first (no new call or CDP socket comes in, every capability revoked), then the supervisor and its child.
    async dispose() {
      await cdpEndpoint.dispose();
      await mcpEndpoint.dispose();
      await bridge.dispose();
    },
  };
}

/** The Activity rows a panel command names (`{ callIds }`); undefined when run from the palette with nothing. */
function selectedCallIds(request: { callIds?: unknown } | undefined): number[] | undefined {
  return Array.isArray(request?.callIds) ? request.callIds.filter((id): id is number => typeof id === 'number') : undefined;
}
