/**
 * Who may set each setting, beside the table of what each setting is (settingsTable.ts). Decided as a
 * person who clones a stranger's repository would want: a workspace (its `.vscode/settings.json`, or a
 * folder's) never turns on a tool group or a door, never raises a budget, never chooses a program, its
 * arguments, where files go or whose logins the browser has. It may turn such things off, and it may
 * set what only shapes how the browser looks (its size, a headed window, how much a snapshot says).
 *
 * The reader (settings.ts) reads every level of a setting on its own, types each alone (a value of the
 * wrong type at one level is dropped alone, and the problem names that level), and combines the
 * well-typed ones by the rule here. package.json follows the table: `ignored` settings are
 * `"scope": "machine"` and listed in `restrictedConfigurations`, the others are `"scope": "window"`
 * (test/unit/scopePolicy.test.ts holds it); README's settings table says the rule per key.
 */
import { ALL_CAPABILITIES, type CapabilityId } from './capabilities';
import { originRuleCovers } from './originRules';
import type { EnumValue, KeyOfKind, SettingKey } from './settingsTable';
import { toolPatternCovers } from '../tools/toolPatterns';

/** Where a value was set: the person's own settings (user, or a remote machine's), the workspace, one of its folders. */
export type SettingLevel = 'user' | 'workspace' | 'folder';

/** How a workspace's value narrows the person's; each kind of setting has the narrowings its values allow. */
export type Narrowing =
  /** A boolean whose `true` restricts (readonly): any level may turn it on, none below the person's turn it off. */
  | { by: 'turningOn' }
  /** A boolean whose `true` widens (a tool group): a workspace may turn it off, never on. */
  | { by: 'turningOff' }
  /** A number that is a budget (megabytes, minutes, a deadline): a workspace may lower it, never raise it. */
  | { by: 'lowering' }
  /** An enum: a workspace's value is taken when what it grants is among what the person's value grants. */
  | { by: 'granting'; grants: Readonly<Record<string, readonly string[]>> }
  /** A list of things refused (a deny list, blocked origins): every level's entries add up. */
  | { by: 'adding' }
  /**
   * A list of things allowed, where empty means all (an allow list, allowed origins): only entries that every
   * level's non-empty list covers are kept; none in common allows nothing (`nothing`), never all.
   */
  | { by: 'within'; covers: (outer: string, inner: string) => boolean; nothing: string };

export type ScopeRule =
  /** Any level may set it, the most specific well-typed one wins: it widens nothing an agent may do. */
  | { workspace: 'sets'; why: string }
  /** Only the person's own settings: a workspace's value is ignored and the person told so. */
  | { workspace: 'ignored'; why: string }
  /** A workspace may only narrow the person's value, as `narrowing` says. */
  | { workspace: 'narrows'; narrowing: Narrowing; why: string };

/** The narrowings a setting's kind allows, so that the table cannot give a number a list's rule. */
type NarrowingOf<K extends SettingKey> =
  K extends KeyOfKind<'boolean'> ? Extract<Narrowing, { by: 'turningOn' | 'turningOff' }>
    : K extends KeyOfKind<'number'> ? Extract<Narrowing, { by: 'lowering' }>
      : K extends KeyOfKind<'enum'> ? { by: 'granting'; grants: Readonly<Record<Extract<EnumValue<K & KeyOfKind<'enum'>>, string>, readonly string[]>> }
        : K extends KeyOfKind<'stringList'> ? Extract<Narrowing, { by: 'adding' | 'within' }>
          : never;

type RuleOf<K extends SettingKey> =
  | { workspace: 'sets' | 'ignored'; why: string }
  | { workspace: 'narrows'; narrowing: NarrowingOf<K>; why: string };

/**
 * An origin no request can have (`.invalid` is reserved): what allowedOrigins becomes when the levels' lists
 * share no origin, because upstream reads an empty list as "all".
 */
export const NO_ORIGIN_ALLOWED = 'https://no-origin-allowed.invalid';
/** A tools.allow entry no tool is named (tool names have no space): the levels' allow lists share no tool. */
export const NO_TOOL_ALLOWED = 'no tool (the allow lists share none)';

const TOOL_GROUP = (id: CapabilityId): RuleOf<`capabilities.${CapabilityId}`> => id === 'storage'
  ? { workspace: 'ignored', why: 'hand your login profile\'s cookies and storage to agents' }
  : { workspace: 'narrows', narrowing: { by: 'turningOff' }, why: `turn on the ${id} tools for agents` };

const BUDGET = (what: string): RuleOf<KeyOfKind<'number'>> => ({ workspace: 'narrows', narrowing: { by: 'lowering' }, why: `raise ${what}` });

export const SCOPE_POLICY: { readonly [K in SettingKey]: RuleOf<K> } = {
  browser: { workspace: 'ignored', why: 'choose which program runs' },
  executablePath: { workspace: 'ignored', why: 'choose a program to run' },
  headless: { workspace: 'sets', why: 'a window on your screen widens nothing an agent may do' },
  profile: {
    workspace: 'narrows',
    narrowing: { by: 'granting', grants: { isolated: [], persistent: ['cookies and logins kept between browsers'] } },
    why: 'keep the browser\'s cookies and logins between restarts',
  },
  viewport: { workspace: 'sets', why: 'the page\'s size widens nothing an agent may do' },
  exposure: {
    workspace: 'narrows',
    narrowing: { by: 'granting', grants: { languageModelTools: ['chat\'s tools'], mcp: ['the MCP server'], both: ['chat\'s tools', 'the MCP server'] } },
    why: 'open a door to the browser (the MCP server, or chat\'s tools)',
  },
  ...Object.fromEntries(ALL_CAPABILITIES.map(id => [`capabilities.${id}`, TOOL_GROUP(id)])) as { [K in `capabilities.${CapabilityId}`]: RuleOf<K> },
  launchArgs: { workspace: 'ignored', why: 'choose the browser\'s arguments' },
  outputDir: { workspace: 'ignored', why: 'choose where files go' },
  outputMaxSizeMB: BUDGET('how much the bridge may write'),
  mcpSessionIdleMinutes: BUDGET('how long an idle MCP client keeps its session'),
  handBackTimeoutMinutes: { workspace: 'sets', why: 'how long an agent waits for you widens nothing it may do' },
  readonly: { workspace: 'narrows', narrowing: { by: 'turningOn' }, why: 'turn readonly mode off' },
  'tools.allow': { workspace: 'narrows', narrowing: { by: 'within', covers: toolPatternCovers, nothing: NO_TOOL_ALLOWED }, why: 'allow a tool your list does not' },
  'tools.deny': { workspace: 'narrows', narrowing: { by: 'adding' }, why: 'allow a tool your list denies' },
  snapshotMode: { workspace: 'sets', why: 'how much a result says widens nothing an agent may do' },
  imageResponses: { workspace: 'sets', why: 'whether screenshots come as images widens nothing an agent may do' },
  consoleLevel: { workspace: 'sets', why: 'which console lines a result lists widens nothing an agent may do' },
  'network.allowedOrigins': {
    workspace: 'narrows', narrowing: { by: 'within', covers: originRuleCovers, nothing: NO_ORIGIN_ALLOWED }, why: 'allow an origin your list does not',
  },
  'network.blockedOrigins': { workspace: 'narrows', narrowing: { by: 'adding' }, why: 'unblock an origin your list blocks' },
  isolation: {
    workspace: 'narrows',
    narrowing: { by: 'granting', grants: { perClient: [], shared: ['one browser context shared by MCP clients'] } },
    why: 'let MCP clients share one browser context',
  },
  sessionIdleMinutes: BUDGET('how long an idle client keeps its browser context'),
  allowRunCodeForClients: { workspace: 'ignored', why: 'let MCP clients run code in every context of the browser' },
  loginProfile: { workspace: 'ignored', why: 'hand your logins to agents' },
  // A folder inside the workspace, checked where it is used: a workspace may name its own tests folder.
  'testExport.folder': { workspace: 'sets', why: 'a folder inside the workspace, where its own tests go' },
  'timeTravel.enabled': { workspace: 'narrows', narrowing: { by: 'turningOff' }, why: 'turn on checkpoints and the restore tool' },
  'timeTravel.maxMB': { workspace: 'ignored', why: 'choose how much of the extension host\'s memory checkpoints keep' },
  'connect.endpoint': { workspace: 'ignored', why: 'choose which browser to reach' },
  'connect.headers': { workspace: 'ignored', why: 'choose what is sent to a browser elsewhere' },
  'connect.allowNonLoopback': { workspace: 'ignored', why: 'let the bridge reach another machine' },
  'timeouts.actionMs': BUDGET('how long a page action may wait'),
  'timeouts.navigationMs': BUDGET('how long a navigation may take'),
  'timeouts.callSeconds': BUDGET('how long one tool call may run'),
};

/** The rule of one setting, as the reader uses it (any kind's narrowing). */
export function scopeRuleOf(key: SettingKey): ScopeRule {
  return SCOPE_POLICY[key] as ScopeRule;
}

/** Keys only the person's own settings may set: package.json gives them `"scope": "machine"` and restricts them. */
export const USER_ONLY_SETTINGS: readonly SettingKey[] = (Object.keys(SCOPE_POLICY) as SettingKey[])
  .filter(key => SCOPE_POLICY[key].workspace === 'ignored');

/** The outcome of a workspace's well-typed value against the value so far: the new value, or why it was refused. */
export type Narrowed = { value: unknown } | { widens: string };

/**
 * One narrowing step: `value` (a workspace's or a folder's, well typed) against `base` (the person's own, or the
 * default, already narrowed by the levels above). Lists are handled by `withinLists` and `addedLists` over all levels.
 */
export function narrowed(narrowing: Narrowing, base: unknown, value: unknown): Narrowed {
  switch (narrowing.by) {
    case 'turningOn': return base === true && value !== true ? { widens: 'would turn it off' } : { value };
    case 'turningOff': return value === true && base !== true ? { widens: 'would turn it on' } : { value };
    case 'lowering': return (value as number) > (base as number) ? { widens: `would raise it above ${String(base)}` } : { value };
    case 'granting': {
      const granted = narrowing.grants[String(base)] ?? [];
      const extra = (narrowing.grants[String(value)] ?? []).filter(grant => !granted.includes(grant));
      return extra.length ? { widens: `would add ${extra.join(' and ')}` } : { value };
    }
    case 'adding': return { value: [...new Set([...(base as string[]), ...(value as string[])])] };
    case 'within': return { value: withinLists(narrowing, [base as string[], value as string[]]) };
  }
}

/** The entries every non-empty list covers (an empty list means all and narrows nothing); none in common is `nothing`. */
export function withinLists(narrowing: Extract<Narrowing, { by: 'within' }>, lists: readonly (readonly string[])[]): string[] {
  const limiting = lists.filter(list => list.length);
  if (!limiting.length) return [];
  const kept = [...new Set(limiting.flat())].filter(entry => limiting.every(list => list.some(other => narrowing.covers(other, entry))));
  return kept.length ? kept : [narrowing.nothing];
}
