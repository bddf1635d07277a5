import { SETTINGS_SECTION } from '../contributionIds';
import { ALL_CAPABILITIES } from './capabilities';
import { PROFILE_NAME } from '../profiles/loginProfiles';
import { endpointHoldsCredentials, parseConnection } from './browserConnection';
import { ORIGIN_FORMS, originText, parseOriginRule } from './originRules';
import { NO_ORIGIN_ALLOWED, narrowed, withinLists, type SettingLevel } from './scopePolicy';
import { SETTINGS_TABLE, specOf, type BridgeSettings, type SettingKey, type SettingSpec } from './settingsTable';
export { BROWSERS, type BrowserChoice, type BrowserName } from '../../protocol/childConfig';
export type { SettingLevel } from './scopePolicy';
export type { BridgeSettings } from './settingsTable';

/** How chat sees the browser: our language-model tools, VS Code's MCP client on our endpoint, or both. */
export type Exposure = BridgeSettings['exposure'];

/** A setting that could not be used as given (at one level); what applies instead is said in the message. */
export interface SettingProblem {
  key: string;
  message: string;
  /** The level whose value it is about. */
  level: SettingLevel;
}

/** Reads one setting by its key below the section (for example `browser` or `capabilities.vision`). */
export type SettingReader = (key: string) => unknown;
/** Reads one setting at every level it is set (VS Code's `inspect`): the person's own, the workspace's, a folder's. */
export type SettingLevelsReader = (key: SettingKey) => Partial<Record<SettingLevel, unknown>>;

export { NO_ORIGIN_ALLOWED, NO_TOOL_ALLOWED } from './scopePolicy';
export { USER_ONLY_SETTINGS } from './settingsTable';

/** Browser flags refused in launchArgs: they open a control port or swap the browser's profile. */
const REFUSED_LAUNCH_ARGS: { pattern: RegExp; why: string }[] = [
  { pattern: /^--remote-debugging-(port|pipe|address)\b/, why: 'opens a debugging port (or pipe) through which any local program could control the browser' },
  { pattern: /^--remote-allow-origins\b/, why: "lets web pages reach the browser's debugging port" },
  {
    pattern: /^--(user-data-dir|profile-directory)\b/,
    why: 'points the browser at another profile (perhaps your own, with its logins); use playwrightBridge.profile instead',
  },
];

const LEVELS: readonly SettingLevel[] = ['user', 'workspace', 'folder'];
/** How a problem names the level it is about: the person's own settings say nothing more, as they always did. */
const WHERE: Record<SettingLevel, string> = { user: '', workspace: "in this workspace's settings ", folder: "in a workspace folder's settings " };

/** One level's value typed on its own: the key's value, or what is wrong with it (an entry may be left out and said). */
type Typed = { value: unknown } | { wrong: string };

/** The person's words for a value (a list or map as JSON, text in quotes). */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
}

/**
 * One level's raw value, typed by the key's kind and parser (settingsTable.ts): the table's range and values, a
 * viewport's shape, each launch argument and origin checked (a bad entry is left out and said through `entry`).
 */
function typedValue(spec: SettingSpec, raw: unknown, entry: (message: string) => void): Typed {
  // A viewport, launch arguments and origins have a shape or entries of their own; every other key is typed by its kind.
  const typing = spec.parser === 'viewport' || spec.parser === 'launchArgs' || spec.parser === 'origins' ? spec.parser : spec.kind;
  switch (typing) {
    case 'boolean':
      return typeof raw === 'boolean' ? { value: raw } : { wrong: `must be true or false; got ${shown(raw)}.` };
    case 'number': {
      const { min, max } = spec as Extract<SettingSpec, { kind: 'number' }>;
      return typeof raw === 'number' && Number.isFinite(raw) && raw >= min && raw <= max
        ? { value: raw }
        : { wrong: `must be a number from ${min} to ${max}; got ${shown(raw)}.` };
    }
    case 'enum': {
      const { values } = spec as Extract<SettingSpec, { kind: 'enum' }>;
      return (values as readonly unknown[]).includes(raw) ? { value: raw } : { wrong: `must be one of ${values.join(', ')}; got ${shown(raw)}.` };
    }
    case 'viewport':
      return raw === '' || parseViewport(raw) ? { value: raw } : { wrong: `must look like 1280x720 (each side 100 to 8000); got ${shown(raw)}.` };
    case 'string':
      return typeof raw === 'string' ? { value: raw.trim() } : { wrong: `must be text; got ${shown(raw)}.` };
    case 'stringMap':
      return raw && typeof raw === 'object' && !Array.isArray(raw) && Object.values(raw).every(v => typeof v === 'string')
        ? { value: raw }
        : { wrong: 'must be an object of header names to string values.' };
    case 'stringList':
    case 'launchArgs':
    case 'origins': {
      if (!Array.isArray(raw) || !raw.every(item => typeof item === 'string')) return { wrong: `must be a list of strings; got ${shown(raw)}.` };
      const given = raw.map(item => item.trim()).filter(item => item !== '');
      if (spec.parser === 'launchArgs') {
        return {
          value: given.filter(arg => {
            const refused = REFUSED_LAUNCH_ARGS.find(r => r.pattern.test(arg));
            if (refused) entry(`holds "${arg}", which ${refused.why}. It is left out.`);
            return !refused;
          }),
        };
      }
      if (spec.parser !== 'origins') return { value: given };
      // Each entry written back from the rule read from it (originRules.ts), so upstream acts on what was checked.
      const kept = [
        ...new Set(
          given.flatMap(origin => {
            const rule = parseOriginRule(origin);
            if (!('problem' in rule)) return [originText(rule)];
            entry(`holds "${origin}", which ${rule.problem}. It is left out.`);
            return [];
          }),
        ),
      ];
      // Upstream reads an empty list as "all": an allow list whose every entry was left out must still allow nothing.
      if (spec.key === 'network.allowedOrigins' && !kept.length && given.length) {
        entry(`has no entry left, so the browser may request none (an empty list would allow all). Write ${ORIGIN_FORMS}.`);
        return { value: [NO_ORIGIN_ALLOWED] };
      }
      return { value: kept };
    }
  }
}

/** What stands when the person's own value is dropped, in their words: the default, or nothing for a list. */
function fallbackWords(spec: SettingSpec): string {
  if (spec.kind === 'stringList' || spec.kind === 'stringMap') return 'Ignoring it.';
  return `Using ${spec.kind === 'string' && spec.default === '' ? 'none' : String(spec.default)}.`;
}

/**
 * One setting's value from all its levels: each typed alone (a wrong one is dropped alone, and the problem names
 * its level and what still applies), then combined by the key's scope rule (scopePolicy.ts).
 */
function settingValue(spec: SettingSpec, levels: Partial<Record<SettingLevel, unknown>>, problem: Problem): unknown {
  const rule = spec.workspace;
  const typed: Partial<Record<SettingLevel, unknown>> = {};
  for (const level of LEVELS) {
    const raw = levels[level];
    if (raw === undefined) continue;
    const say = (message: string) => problem(spec.key, `${WHERE[level]}${message}`, level);
    if (level !== 'user' && rule.workspace === 'ignored') {
      say(`is set, but a workspace may not ${rule.why}. Set it in your user settings; the workspace value is ignored.`);
      continue;
    }
    const value = typedValue(spec, raw, say);
    if ('value' in value) {
      typed[level] = value.value;
      continue;
    }
    const what = spec.kind === 'stringList' ? 'list' : 'value';
    say(
      level === 'user'
        ? `${value.wrong} ${fallbackWords(spec)}`
        : `${value.wrong} The ${level === 'folder' ? 'folder' : 'workspace'}'s value is ignored; ${typed.user !== undefined ? `your own ${what}` : 'the default'} still applies.`,
    );
  }
  const base = 'user' in typed ? typed.user : spec.default;
  if (rule.workspace === 'ignored') return base;
  if (rule.workspace === 'sets') return typed.folder ?? typed.workspace ?? base;
  const { narrowing } = rule;
  if (narrowing.by === 'within') {
    const lists = LEVELS.filter(level => level in typed).map(level => typed[level] as string[]);
    const within = withinLists(narrowing, lists);
    if (within.length === 1 && within[0] === narrowing.nothing && lists.filter(list => list.length).length > 1) {
      problem(
        spec.key,
        `lists in your user settings and this workspace's share no ${spec.key === 'tools.allow' ? 'tool' : 'origin'}, so agents may use none. ` +
          'A workspace can only narrow your list.',
        'workspace',
      );
    }
    return within;
  }
  let value = base;
  for (const level of ['workspace', 'folder'] as const) {
    if (!(level in typed)) continue;
    const outcome = narrowed(narrowing, value, typed[level]);
    if ('value' in outcome) value = outcome.value;
    else {
      problem(
        spec.key,
        `${WHERE[level]}is ${shown(typed[level])}, which ${outcome.widens}: a workspace may narrow this setting, never ${rule.why}. ` +
          `${shown(value)} stays; only your user settings can change that.`,
        level,
      );
    }
  }
  return value;
}

/** How a problem is reported: the key below the section, a sentence ready to show, the level it is about. */
type Problem = (key: string, message: string, level: SettingLevel) => void;
type FieldValue = BridgeSettings[keyof BridgeSettings];

/**
 * The fields made from their keys' values: most are their key's value as it is (text's "" meaning not set); a viewport
 * is parsed, a login profile's name checked, and several keys make `capabilities` and `connection`.
 */
function fieldValue(spec: SettingSpec, value: (key: SettingKey) => unknown, problem: Problem): FieldValue {
  switch (spec.parser) {
    case 'viewport':
      return parseViewport(value('viewport')) ?? parseViewport(specOf('viewport').default)!;
    case 'capabilities':
      return ALL_CAPABILITIES.filter(id => value(`capabilities.${id}`) === true);
    case 'loginProfile': {
      const name = optionalString(value('loginProfile'));
      if (!name || PROFILE_NAME.test(name)) return name;
      problem('loginProfile', `"${name}" is not a profile name (see Playwright Bridge: List Login Profiles). Starting without one.`, 'user');
      return undefined;
    }
    case 'connection': {
      const endpoint = optionalString(value('connect.endpoint'));
      if (!endpoint) return undefined;
      const parsed = parseConnection(endpoint, value('connect.headers') as Record<string, string>, value('connect.allowNonLoopback') as boolean);
      if ('problem' in parsed) problem('connect.endpoint', `${parsed.problem} Launching a browser here instead.`, 'user');
      if (endpointHoldsCredentials(endpoint)) {
        // Used as written (and never shown with them), but a settings file is plain text and often synced or shared.
        problem(
          'connect.endpoint',
          'holds credentials (a user name and password, or a token in its query). The bridge keeps them out of ' +
            'everything it shows, but settings files are plain text: put them in a header with Playwright Bridge: Set Connection Credentials ' +
            "(kept in VS Code's secret storage) and remove them from the address.",
          'user',
        );
      }
      return 'problem' in parsed ? undefined : parsed.connection;
    }
    default: {
      const own = value(spec.key as SettingKey);
      return (spec.kind === 'string' ? optionalString(own) : own) as FieldValue;
    }
  }
}

/**
 * Turns the configuration's levels into settings: each key's levels typed alone and combined by its scope rule
 * (scopePolicy.ts), then the fields as the table (settingsTable.ts) names them. Never throws: a bad value is dropped
 * and reported, so one typo cannot keep the browser from starting, nor a cloned workspace's typo undo your settings.
 */
export function readSettingLevels(read: SettingLevelsReader): { settings: BridgeSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const problem: Problem = (key, message, level) => problems.push({ key: `${SETTINGS_SECTION}.${key}`, message, level });
  const values = new Map<string, unknown>();
  for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) values.set(spec.key, settingValue(spec, read(spec.key as SettingKey), problem));
  const settings: Record<string, FieldValue> = {};
  for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) {
    if (!(spec.field in settings)) settings[spec.field] = fieldValue(spec, key => values.get(key), problem);
  }
  return { settings: settings as unknown as BridgeSettings, problems };
}

/** The person's own settings alone (no workspace): each key's value as read. */
export function readSettings(read: SettingReader): { settings: BridgeSettings; problems: SettingProblem[] } {
  return readSettingLevels(key => ({ user: read(key) }));
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
