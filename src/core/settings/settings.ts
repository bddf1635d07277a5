import { SETTINGS_SECTION } from '../contributionIds';
import { ALL_CAPABILITIES, CapabilityId } from './capabilities';
import { PROFILE_NAME } from '../profiles/loginProfiles';
import { BrowserConnection, endpointHoldsCredentials, parseConnection } from './browserConnection';
import { ORIGIN_FORMS, originRuleCovers, parseOriginRule } from './originRules';


import type { BrowserChoice } from '../../protocol/childConfig';
import { specOf, USER_ONLY_SETTINGS, type EnumValue, type KeyOfKind } from './settingsTable';
export { BROWSERS, type BrowserChoice, type BrowserName } from '../../protocol/childConfig';
export { RESTRICTIONS, USER_ONLY_SETTINGS } from './settingsTable';

export const PROFILE_MODES = specOf('profile').values;
export type ProfileMode = (typeof PROFILE_MODES)[number];

/** How chat sees the browser: our language-model tools, VS Code's MCP client on our endpoint, or both. */
export const EXPOSURES = specOf('exposure').values;
export type Exposure = (typeof EXPOSURES)[number];

export function readExposure(raw: unknown): Exposure {
  return (EXPOSURES as readonly unknown[]).includes(raw) ? (raw as Exposure) : specOf('exposure').default;
}

/** Everything the user can set that shapes the child and its browser. Validated, never raw. */
export interface BridgeSettings {
  browser: BrowserChoice;
  executablePath: string | undefined;
  headless: boolean;
  profile: ProfileMode;
  viewport: { width: number; height: number };
  capabilities: CapabilityId[];
  launchArgs: string[];
  /** Empty means "under the extension's storage". */
  outputDir: string | undefined;
  outputMaxSizeMB: number;
  actionTimeoutMs: number;
  navigationTimeoutMs: number;
  /** How long one tool call may take before the bridge gives up on it. */
  callTimeoutSeconds: number;
  /** An MCP client session that sends nothing for this long is closed. */
  mcpSessionIdleMinutes: number;
  /** How long an agent's call waits while the person has taken control of the browser. */
  handBackTimeoutMinutes: number;
  /** Only observation tools, at every door. */
  readonly: boolean;
  /** Tool names or `*` patterns agents may use (empty: all) and may not use. */
  toolsAllow: string[];
  toolsDeny: string[];
  /** Upstream's page snapshot after actions: `full`, or `none` to leave it out (fewer characters). */
  snapshotMode: SnapshotMode;
  /** Upstream's image responses: `allow`, `omit` (text only) or `only`. */
  imageResponses: ImageResponses;
  /** The lowest console level upstream returns. */
  consoleLevel: ConsoleLevel;
  /** Origins the browser may request (empty: all) and may not; upstream's rules. */
  allowedOrigins: string[];
  blockedOrigins: string[];
  /** `shared`: every door drives one browser context. `perClient`: each MCP client session gets its own. */
  isolation: Isolation;
  /** A client's own context closes after this long without a call (isolation `perClient`). */
  sessionIdleMinutes: number;
  /**
   * With isolation `perClient`: MCP clients may call browser_run_code_unsafe, whose Node code reaches every
   * context of the browser (other clients' cookies too). User settings only.
   */
  allowRunCodeForClients: boolean;
  /** The login profile new contexts start from (a name from Save Login Profile); undefined for none. */
  loginProfile: string | undefined;
  /** Connect to this browser instead of launching one (see browserConnection.ts); undefined: launch. */
  connection: BrowserConnection | undefined;
  /** Where exported tests go, relative to the workspace folder; undefined: ask the first time. */
  testExportFolder: string | undefined;
  /** Time travel: a checkpoint after each step of the window's browser. */
  timeTravel: boolean;
  /** What the checkpoints may keep in the extension host, in megabytes (the oldest go first). */
  timeTravelMaxMB: number;
}

export const ISOLATIONS = specOf('isolation').values;
export type Isolation = (typeof ISOLATIONS)[number];

export const SNAPSHOT_MODES = specOf('snapshotMode').values;
export type SnapshotMode = (typeof SNAPSHOT_MODES)[number];
export const IMAGE_RESPONSES = specOf('imageResponses').values;
export type ImageResponses = (typeof IMAGE_RESPONSES)[number];
export const CONSOLE_LEVELS = specOf('consoleLevel').values;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

/** The settings as they are when nobody set anything: the table's defaults (settingsTable.ts), in the reader's shapes. */
export const DEFAULT_SETTINGS: BridgeSettings = {
  // A first call should just work wherever any supported browser is installed.
  browser: specOf('browser').default,
  executablePath: undefined,
  headless: specOf('headless').default,
  profile: specOf('profile').default,
  viewport: parseViewport(specOf('viewport').default)!,
  capabilities: [],
  launchArgs: [],
  outputDir: undefined,
  outputMaxSizeMB: specOf('outputMaxSizeMB').default,
  actionTimeoutMs: specOf('timeouts.actionMs').default,
  navigationTimeoutMs: specOf('timeouts.navigationMs').default,
  callTimeoutSeconds: specOf('timeouts.callSeconds').default,
  mcpSessionIdleMinutes: specOf('mcpSessionIdleMinutes').default,
  handBackTimeoutMinutes: specOf('handBackTimeoutMinutes').default,
  readonly: specOf('readonly').default,
  toolsAllow: [],
  toolsDeny: [],
  snapshotMode: specOf('snapshotMode').default,
  imageResponses: specOf('imageResponses').default,
  consoleLevel: specOf('consoleLevel').default,
  allowedOrigins: [],
  blockedOrigins: [],
  isolation: specOf('isolation').default,
  sessionIdleMinutes: specOf('sessionIdleMinutes').default,
  allowRunCodeForClients: specOf('allowRunCodeForClients').default,
  loginProfile: undefined,
  connection: undefined,
  testExportFolder: undefined,
  timeTravel: specOf('timeTravel.enabled').default,
  timeTravelMaxMB: specOf('timeTravel.maxMB').default,
};

/** A setting that could not be used as given; the default stands in and the user is told why. */
export interface SettingProblem {
  key: string;
  message: string;
}

/** Reads one setting by its key below the section (for example `browser` or `capabilities.vision`). */
export type SettingReader = (key: string) => unknown;

/**
 * What allowedOrigins becomes when the levels' lists share no origin: an origin no request can have
 * (`.invalid` is reserved), because upstream reads an empty list as "all".
 */
export const NO_ORIGIN_ALLOWED = 'https://no-origin-allowed.invalid';

/**
 * Readonly is on if any level turns it on, and so is isolation `perClient`; deny and block lists from all levels add up; an allow
 * list comes from the person's user settings, or from the workspace only where the user has none.
 * Allowed origins narrow: only origins every level's list allows (an empty list, upstream's "all",
 * narrows nothing), so a workspace's list, even `[]`, can never widen the person's.
 */
export function restrictiveValue(
  key: string,
  inspected: { globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
): unknown {
  const levels = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].filter(v => v !== undefined);
  if (!levels.length) return undefined;
  if (key === 'readonly') return levels.some(v => v === true) ? true : levels.find(v => typeof v !== 'boolean') ?? false;
  // perClient keeps clients apart: any level may turn it on, none (a cloned workspace) may turn the person's off.
  if (key === 'isolation') return levels.includes('perClient') ? 'perClient' : levels[levels.length - 1];
  if (key === 'network.allowedOrigins') return narrowedOrigins(levels);
  if (levels.some(v => !Array.isArray(v))) return levels.find(v => !Array.isArray(v));
  const lists = levels as unknown[][];
  if (key === 'tools.allow') return lists.find(list => list.length) ?? [];
  return [...new Set(lists.flat())];
}

/** The origins every level allows; a level that is not a list of strings is left out (readSettings reports it if none is). */
function narrowedOrigins(levels: unknown[]): unknown {
  const lists = levels.filter((v): v is string[] => Array.isArray(v) && v.every(item => typeof item === 'string'))
    .map(list => list.map(origin => origin.trim()).filter(origin => origin !== ''));
  if (!lists.length) return levels[0];
  const narrowing = lists.filter(list => list.length);
  if (!narrowing.length) return [];
  const kept = [...new Set(narrowing.flat())].filter(origin => narrowing.every(list => list.some(other => originRuleCovers(other, origin))));
  return kept.length ? kept : [NO_ORIGIN_ALLOWED];
}

/** Browser flags refused in launchArgs: they open a control port or swap the browser's profile. */
const REFUSED_LAUNCH_ARGS: { pattern: RegExp; why: string }[] = [
  { pattern: /^--remote-debugging-(port|pipe|address)\b/, why: 'opens a debugging port (or pipe) through which any local program could control the browser' },
  { pattern: /^--remote-allow-origins\b/, why: 'lets web pages reach the browser\'s debugging port' },
  {
    pattern: /^--(user-data-dir|profile-directory)\b/,
    why: 'points the browser at another profile (perhaps your own, with its logins); use playwrightBridge.profile instead',
  },
];

/**
 * Turns raw configuration values into settings. Never throws: a bad value falls back to its
 * default and is reported, so one typo cannot keep the browser from starting.
 */
export function readSettings(
  read: SettingReader,
  setByWorkspace: (key: string) => boolean = () => false,
): { settings: BridgeSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const d = DEFAULT_SETTINGS;
  const problem = (key: string, message: string) => problems.push({ key: `${SETTINGS_SECTION}.${key}`, message });
  // Defaults, ranges and values from the table (settingsTable.ts): a key's rule is written there once.
  const readNumber = (key: KeyOfKind<'number'>) => {
    const spec = specOf(key);
    return num(read(key), spec.default, spec.min, spec.max, key, problem);
  };
  const readBoolean = (key: KeyOfKind<'boolean'>) => bool(read(key), specOf(key).default, key, problem);
  const readEnum = <K extends KeyOfKind<'enum'>>(key: K): EnumValue<K> => {
    const spec = specOf(key) as { values: readonly string[]; default: string };
    return oneOf(read(key), spec.values, spec.default, key, problem) as EnumValue<K>;
  };
  for (const key of USER_ONLY_SETTINGS) {
    // `read` gives only the person's own value for these; say why the workspace's one has no effect.
    if (setByWorkspace(key)) {
      problem(key, 'is set in this workspace\'s settings, which may not choose a program to run, its arguments, where files go or ' +
        'which browser to reach, nor hand your logins, cookies or other clients\' sessions to agents. ' +
        'Set it in your user settings; the workspace value is ignored.');
    }
  }

  const browser = readEnum('browser');

  const executablePath = optionalString(read('executablePath'));

  const headless = readBoolean('headless');
  const profile = readEnum('profile');

  let viewport = d.viewport;
  const viewportRaw = read('viewport');
  if (viewportRaw !== undefined && viewportRaw !== '') {
    const parsed = parseViewport(viewportRaw);
    if (parsed) viewport = parsed;
    else {
      const fallback = `${d.viewport.width}x${d.viewport.height}`;
      problem('viewport', `must look like 1280x720 (each side 100 to 8000); got ${JSON.stringify(viewportRaw)}. Using ${fallback}.`);
    }
  }

  const capabilities = ALL_CAPABILITIES.filter(id => readBoolean(`capabilities.${id}`));

  let launchArgs = d.launchArgs;
  const argsRaw = read('launchArgs');
  if (Array.isArray(argsRaw) && argsRaw.every(a => typeof a === 'string')) {
    launchArgs = argsRaw.map(a => a.trim()).filter(a => a !== '').filter(arg => {
      const refused = REFUSED_LAUNCH_ARGS.find(r => r.pattern.test(arg));
      if (refused) problem('launchArgs', `holds "${arg}", which ${refused.why}. It is left out.`);
      return !refused;
    });
  } else if (argsRaw !== undefined) problem('launchArgs', 'must be a list of strings. Ignoring it.');

  const outputDir = optionalString(read('outputDir'));
  const outputMaxSizeMB = readNumber('outputMaxSizeMB');
  const actionTimeoutMs = readNumber('timeouts.actionMs');
  const navigationTimeoutMs = readNumber('timeouts.navigationMs');
  const callTimeoutSeconds = readNumber('timeouts.callSeconds');
  const mcpSessionIdleMinutes = readNumber('mcpSessionIdleMinutes');
  const handBackTimeoutMinutes = readNumber('handBackTimeoutMinutes');
  const readonly = readBoolean('readonly');
  const toolsAllow = stringList(read('tools.allow'), 'tools.allow', problem);
  const toolsDeny = stringList(read('tools.deny'), 'tools.deny', problem);
  const snapshotMode = readEnum('snapshotMode');
  const imageResponses = readEnum('imageResponses');
  const consoleLevel = readEnum('consoleLevel');
  const origins = (key: string, given: string[]) => given.filter(origin => {
    const rule = parseOriginRule(origin);
    if ('problem' in rule) problem(key, `holds "${origin}", which ${rule.problem}. It is left out.`);
    return !('problem' in rule);
  });
  const allowedGiven = stringList(read('network.allowedOrigins'), 'network.allowedOrigins', problem);
  let allowedOrigins = origins('network.allowedOrigins', allowedGiven);
  if (allowedOrigins.length === 1 && allowedOrigins[0] === NO_ORIGIN_ALLOWED) {
    problem('network.allowedOrigins', 'lists in your user settings and this workspace\'s share no origin, so the browser may request none. ' +
      'A workspace can only narrow your list.');
  } else if (!allowedOrigins.length && allowedGiven.length) {
    // Upstream reads an empty list as "all": a list whose every entry was left out must still allow nothing.
    allowedOrigins = [NO_ORIGIN_ALLOWED];
    problem('network.allowedOrigins', `has no entry left, so the browser may request none (an empty list would allow all). Write ${ORIGIN_FORMS}.`);
  }
  const blockedOrigins = origins('network.blockedOrigins', stringList(read('network.blockedOrigins'), 'network.blockedOrigins', problem));
  const isolation = readEnum('isolation');
  const sessionIdleMinutes = readNumber('sessionIdleMinutes');
  const allowRunCodeForClients = readBoolean('allowRunCodeForClients');
  let loginProfile = optionalString(read('loginProfile'));
  if (loginProfile && !PROFILE_NAME.test(loginProfile)) {
    problem('loginProfile', `"${loginProfile}" is not a profile name (see Playwright Bridge: List Login Profiles). Starting without one.`);
    loginProfile = undefined;
  }

  const testExportFolder = optionalString(read('testExport.folder'));
  const timeTravel = readBoolean('timeTravel.enabled');
  const timeTravelMaxMB = readNumber('timeTravel.maxMB');

  let connection: BrowserConnection | undefined;
  const endpoint = optionalString(read('connect.endpoint'));
  const headersSetting = read('connect.headers');
  const allowNonLoopback = readBoolean('connect.allowNonLoopback');
  if (endpoint) {
    const headersRaw = headersSetting ?? {};
    const headers = headersRaw && typeof headersRaw === 'object' && !Array.isArray(headersRaw) &&
      Object.values(headersRaw).every(v => typeof v === 'string') ? headersRaw as Record<string, string> : undefined;
    if (!headers) problem('connect.headers', 'must be an object of header names to string values. Ignoring it.');
    const parsed = parseConnection(endpoint, headers ?? {}, allowNonLoopback);
    if ('problem' in parsed) problem('connect.endpoint', `${parsed.problem} Launching a browser here instead.`);
    else connection = parsed.connection;
    if (endpointHoldsCredentials(endpoint)) {
      // Used as written (and never shown with them), but a settings file is plain text and often synced or shared.
      problem('connect.endpoint', 'holds credentials (a user name and password, or a token in its query). The bridge keeps them out of ' +
        'everything it shows, but settings files are plain text: put them in a header with Playwright Bridge: Set Connection Credentials ' +
        '(kept in VS Code\'s secret storage) and remove them from the address.');
    }
  }

  return {
    settings: {
      browser, executablePath, headless, profile, viewport, capabilities, launchArgs, outputDir, outputMaxSizeMB,
      actionTimeoutMs, navigationTimeoutMs, callTimeoutSeconds, mcpSessionIdleMinutes, handBackTimeoutMinutes,
      readonly, toolsAllow, toolsDeny, snapshotMode, imageResponses, consoleLevel, allowedOrigins, blockedOrigins,
      isolation, sessionIdleMinutes, allowRunCodeForClients, loginProfile, connection, testExportFolder,
      timeTravel, timeTravelMaxMB,
    },
    problems,
  };
}

export function parseViewport(raw: unknown): { width: number; height: number } | undefined {
  if (typeof raw !== 'string') return undefined;
  const m = /^\s*(\d+)\s*[x×,]\s*(\d+)\s*$/i.exec(raw);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 100 || height < 100 || width > 8000 || height > 8000) return undefined;
  return { width, height };
}

function optionalString(raw: unknown): string | undefined {
  return typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
}

function stringList(raw: unknown, key: string, problem: (k: string, m: string) => void): string[] {
  if (raw === undefined) return [];
  if (Array.isArray(raw) && raw.every(item => typeof item === 'string')) return raw.map(item => item.trim()).filter(item => item !== '');
  problem(key, 'must be a list of strings. Ignoring it.');
  return [];
}

function oneOf<T extends string>(raw: unknown, allowed: readonly T[], fallback: T, key: string, problem: (k: string, m: string) => void): T {
  if (raw === undefined) return fallback;
  if ((allowed as readonly unknown[]).includes(raw)) return raw as T;
  problem(key, `must be one of ${allowed.join(', ')}; got ${JSON.stringify(raw)}. Using ${fallback}.`);
  return fallback;
}

function bool(raw: unknown, fallback: boolean, key: string, problem: (k: string, m: string) => void): boolean {
  if (raw === undefined) return fallback;
  if (typeof raw === 'boolean') return raw;
  problem(key, `must be true or false; got ${JSON.stringify(raw)}. Using ${fallback}.`);
  return fallback;
}

function num(raw: unknown, fallback: number, min: number, max: number, key: string, problem: (k: string, m: string) => void): number {
  if (raw === undefined) return fallback;
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= min && raw <= max) return raw;
  problem(key, `must be a number from ${min} to ${max}; got ${JSON.stringify(raw)}. Using ${fallback}.`);
  return fallback;
}
