import * as path from 'path';
import { planBrowserLaunch } from '../settings/browserDiscovery';
import { originListForUpstream } from '../settings/originRules';
import { BridgeSettings } from '../settings/settings';
import type { ChildConfig, ChildStartInput } from '../../protocol/childConfig';
import type { ChildPrivateInput } from '../../protocol/childMessages';
import type { ChildSpawnSpec } from './childProcess';

export type { ChildPrivateInput, SecretEntry } from '../../protocol/childMessages';
/** The child's configuration and start input: schemas and types in src/protocol/childConfig.ts. */
export type { ChildConfig, ChildStartInput } from '../../protocol/childConfig';

/**
 * Names the file descriptor on which the child reads its start input: its configuration (which holds
 * the endpoint, perhaps with credentials in it), the secrets and the endpoint's credential headers.
 * Never the environment: a process's starting environment stays readable in /proc/<pid>/environ for
 * its whole life, whatever it deletes from `process.env`, and the browser would inherit it.
 */
export const PRIVATE_INPUT_FD_ENV = 'PLAYWRIGHT_BRIDGE_PRIVATE_FD';
/** The child's fourth stdio slot: a pipe the host writes the start input into once, then closes. */
export const PRIVATE_INPUT_FD = 3;

/** The folder the bridge writes into, inside the output folder a person chose (or the default one). */
export const OUTPUT_SUBFOLDER = 'playwright-bridge';

/** Folders the extension owns; the child gets paths below them, never the shared default profile. */
export interface BridgePaths {
  /** Per-workspace storage (for the persistent profile and default output). */
  storageDir: string;
  workspaceFolders: string[];
  /** Where login profiles live (the extension's global storage: they are the person's, not a workspace's). */
  loginProfilesDir?: string;
}

export function buildChildConfig(
  settings: BridgeSettings,
  paths: BridgePaths,
  isRoot: boolean = typeof process.getuid === 'function' && process.getuid() === 0,
  exists?: (p: string) => boolean,
): ChildConfig {
  const launch = planBrowserLaunch(settings.browser, settings.executablePath, exists);
  return {
    launch,
    headless: settings.headless,
    // Keyed by the browser that runs, so `auto` and naming that browser share one profile.
    userDataDir: settings.profile === 'persistent' ? path.join(paths.storageDir, 'profile', launch.browser) : undefined,
    viewport: settings.viewport,
    launchArgs: settings.launchArgs,
    // Chromium refuses to start as root with its sandbox on; there is nothing else to do but turn it off.
    chromiumSandbox: !isRoot && !settings.launchArgs.includes('--no-sandbox'),
    roots: paths.workspaceFolders,
    screencast: true,
    outputBudgetBytes: Math.round(settings.outputMaxSizeMB * 1024 * 1024),
    checkpoints: settings.timeTravel,
    ...(settings.connection ? { connection: settings.connection } : {}),
    ...(settings.loginProfile && paths.loginProfilesDir ? { storageStatePath: path.join(paths.loginProfilesDir, `${settings.loginProfile}.json`) } : {}),
    isolation: settings.isolation,
    sessionIdleMs: settings.sessionIdleMinutes * 60_000,
    allowRunCodeForClients: settings.allowRunCodeForClients,
    mcp: {
      capabilities: settings.capabilities,
      outputDir: path.join(settings.outputDir ?? path.join(paths.storageDir, 'output'), OUTPUT_SUBFOLDER),
      // The output folder sits in the extension's storage, far from the workspace: relative links would be unreadable.
      filePaths: 'absolute',
      // idle 0: with our own context the upstream idle relaunch cannot work (it never asks again).
      timeouts: { action: settings.actionTimeoutMs, navigation: settings.navigationTimeoutMs, idle: 0 },
      snapshot: { mode: settings.snapshotMode },
      imageResponses: settings.imageResponses,
      console: { level: settings.consoleLevel },
      // Only what is set (the config travels as JSON, and an absent list means upstream's default), each entry
      // written back from its rule: upstream matches the text it is given, so it gets the text the bridge checked.
      network: {
        ...(settings.allowedOrigins.length ? { allowedOrigins: originListForUpstream(settings.allowedOrigins, 'allowed') } : {}),
        ...(settings.blockedOrigins.length ? { blockedOrigins: originListForUpstream(settings.blockedOrigins, 'blocked') } : {}),
      },
    },
  };
}

/** Where the child program is and which runtime runs it. */
export interface ChildRuntime {
  /** The editor's own runtime (`process.execPath`), run as plain Node: nothing else needs installing. */
  execPath: string;
  /** dist/child.js inside the installed extension. */
  childScript: string;
  baseEnv: NodeJS.ProcessEnv;
  /** A short, resolved temp folder: Chromium's socket paths break past ~107 characters. */
  tmpDir: string;
  /** Secrets and credentials: written to the child's private pipe, never into its environment or argv. */
  privateInput?: ChildPrivateInput;
}

export function childSpawnSpec(config: ChildConfig, runtime: ChildRuntime): ChildSpawnSpec & { cwd: string; privateInput: string } {
  const tmpDir = path.resolve(runtime.tmpDir);
  const start: ChildStartInput = { config, secrets: runtime.privateInput?.secrets ?? {}, connectHeaders: runtime.privateInput?.connectHeaders ?? {} };
  return {
    command: runtime.execPath,
    args: [runtime.childScript],
    env: {
      ...runtime.baseEnv,
      ELECTRON_RUN_AS_NODE: '1',
      [PRIVATE_INPUT_FD_ENV]: String(PRIVATE_INPUT_FD),
      TMPDIR: tmpDir,
      TMP: tmpDir,
      TEMP: tmpDir,
    },
    privateInput: JSON.stringify(start),
    // Upstream falls back to the working folder for output; never let that be the user's project.
    cwd: config.mcp.outputDir,
    facts: { outputDir: config.mcp.outputDir, isolation: config.isolation, allowRunCodeForClients: config.allowRunCodeForClients },
  };
}
