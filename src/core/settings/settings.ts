import { SETTINGS_SECTION } from '../contributionIds';
import { ALL_CAPABILITIES, CapabilityId } from './capabilities';
import { PROFILE_NAME } from '../profiles/loginProfiles';
import { BrowserConnection, endpointHoldsCredentials, parseConnection } from './browserConnection';
import { ORIGIN_FORMS, originRuleCovers, parseOriginRule } from './originRules';


import type { BrowserChoice } from '../../protocol/childConfig';
import { SETTINGS_TABLE, specOf, USER_ONLY_SETTINGS, type FieldParser, type SettingSpec } from './settingsTable';
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

/** How a problem is reported: the key below the section, and a sentence ready to show. */
type Problem = (key: string, message: string) => void;
type FieldValue = BridgeSettings[keyof BridgeSettings];

/**
 * The fields whose settings need more than their kind (settingsTable.ts `parser`): one parser each, reading
 * every key of its field. The rest are read by their kind alone, with the table's default, range and values.
 */
const FIELD_PARSERS: Record<FieldParser, (read: SettingReader, problem: Problem, key: string) => FieldValue> = {
  viewport: (read, problem) => {
    const fallback = parseViewport(specOf('viewport').default)!;
    const raw = read('viewport');
    if (raw === undefined || raw === '') return fallback;
    const parsed = parseViewport(raw);
    if (!parsed) problem('viewport', `must look like 1280x720 (each side 100 to 8000); got ${JSON.stringify(raw)}. Using ${fallback.width}x${fallback.height}.`);
    return parsed ?? fallback;
  },
  capabilities: (read, problem) => ALL_CAPABILITIES.filter(id => bool(read(`capabilities.${id}`), false, `capabilities.${id}`, problem)),
  launchArgs: (read, problem) => {
    const raw = read('launchArgs');
    if (raw === undefined) return [];
    if (!Array.isArray(raw) || !raw.every(a => typeof a === 'string')) {
      problem('launchArgs', 'must be a list of strings. Ignoring it.');
      return [];
    }
    return raw.map(a => a.trim()).filter(a => a !== '').filter(arg => {
      const refused = REFUSED_LAUNCH_ARGS.find(r => r.pattern.test(arg));
      if (refused) problem('launchArgs', `holds "${arg}", which ${refused.why}. It is left out.`);
      return !refused;
    });
  },
  origins: (read, problem, key) => {
    const given = stringList(read(key), key, problem);
    const kept = given.filter(origin => {
      const rule = parseOriginRule(origin);
      if ('problem' in rule) problem(key, `holds "${origin}", which ${rule.problem}. It is left out.`);
      return !('problem' in rule);
    });
    if (key !== 'network.allowedOrigins') return kept;
    if (kept.length === 1 && kept[0] === NO_ORIGIN_ALLOWED) {
      problem(key, 'lists in your user settings and this workspace\'s share no origin, so the browser may request none. ' +
        'A workspace can only narrow your list.');
    } else if (!kept.length && given.length) {
      // Upstream reads an empty list as "all": a list whose every entry was left out must still allow nothing.
      problem(key, `has no entry left, so the browser may request none (an empty list would allow all). Write ${ORIGIN_FORMS}.`);
      return [NO_ORIGIN_ALLOWED];
    }
    return kept;
  },
  loginProfile: (read, problem) => {
    const name = optionalString(read('loginProfile'));
    if (!name || PROFILE_NAME.test(name)) return name;
    problem('loginProfile', `"${name}" is not a profile name (see Playwright Bridge: List Login Profiles). Starting without one.`);
    return undefined;
  },
  connection: (read, problem) => {
    const endpoint = optionalString(read('connect.endpoint'));
    const headersRaw = read('connect.headers') ?? {};
    const allowNonLoopback = bool(read('connect.allowNonLoopback'), false, 'connect.allowNonLoopback', problem);
    if (!endpoint) return undefined;
    const headers = headersRaw && typeof headersRaw === 'object' && !Array.isArray(headersRaw) &&
      Object.values(headersRaw).every(v => typeof v === 'string') ? headersRaw as Record<string, string> : undefined;
    if (!headers) problem('connect.headers', 'must be an object of header names to string values. Ignoring it.');
    const parsed = parseConnection(endpoint, headers ?? {}, allowNonLoopback);
    if ('problem' in parsed) problem('connect.endpoint', `${parsed.problem} Launching a browser here instead.`);
    if (endpointHoldsCredentials(endpoint)) {
      // Used as written (and never shown with them), but a settings file is plain text and often synced or shared.
      problem('connect.endpoint', 'holds credentials (a user name and password, or a token in its query). The bridge keeps them out of ' +
        'everything it shows, but settings files are plain text: put them in a header with Playwright Bridge: Set Connection Credentials ' +
        '(kept in VS Code\'s secret storage) and remove them from the address.');
    }
    return 'problem' in parsed ? undefined : parsed.connection;
  },
};

/** A setting read by its kind alone: the table's default, range or values; a bad value is reported and the default stands. */
function byKind(spec: SettingSpec, raw: unknown, problem: Problem): FieldValue {
  switch (spec.kind) {
    case 'boolean': return bool(raw, spec.default, spec.key, problem);
    case 'number': return num(raw, spec.default, spec.min, spec.max, spec.key, problem);
    case 'enum': return oneOf(raw, spec.values, spec.default, spec.key, problem) as FieldValue;
    // An empty string means "not set" (a path, a name, an address).
    case 'string': return optionalString(raw);
    case 'stringList': return stringList(raw, spec.key, problem);
    case 'stringMap': throw new Error(`${spec.key}: a map is read by its field's parser`);
  }
}

/**
 * Turns raw configuration values into settings, field by field as the table (settingsTable.ts) names them.
 * Never throws: a bad value falls back to its default and is reported, so one typo cannot keep the browser from starting.
 */
export function readSettings(
  read: SettingReader,
  setByWorkspace: (key: string) => boolean = () => false,
): { settings: BridgeSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const problem: Problem = (key, message) => problems.push({ key: `${SETTINGS_SECTION}.${key}`, message });
  for (const key of USER_ONLY_SETTINGS) {
    // `read` gives only the person's own value for these; say why the workspace's one has no effect.
    if (setByWorkspace(key)) {
      problem(key, 'is set in this workspace\'s settings, which may not choose a program to run, its arguments, where files go or ' +
        'which browser to reach, nor hand your logins, cookies or other clients\' sessions to agents. ' +
        'Set it in your user settings; the workspace value is ignored.');
    }
  }
  const settings: Record<string, FieldValue> = {};
  for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) {
    if (!spec.field) continue;
    if (!spec.parser) settings[spec.field] = byKind(spec, read(spec.key), problem);
    // A parser reads its field once, all of its keys (several keys make `capabilities` and `connection`); origins read per key.
    else if (spec.parser === 'origins') settings[spec.field] = FIELD_PARSERS.origins(read, problem, spec.key);
    else if (!(spec.field in settings)) settings[spec.field] = FIELD_PARSERS[spec.parser](read, problem, spec.key);
  }
  return { settings: settings as unknown as BridgeSettings, problems };
}

/** The settings as they are when nobody set anything: read from the table's defaults, so there is no second copy. */
export const DEFAULT_SETTINGS: BridgeSettings = readSettings(() => undefined).settings;

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
