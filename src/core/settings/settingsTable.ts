/**
 * Every setting of `playwrightBridge.*`, declared once: its key, kind, default, range or values, the field of
 * BridgeSettings it is read into (whose type is derived from here), and who may set it (`workspace`: the rule
 * a cloned repository's settings meet, scopePolicy.ts). The reader (settings.ts) takes defaults, ranges and
 * rules from here; tests hold package.json's `contributes.configuration` (type, default, minimum/maximum, enum,
 * scope, a description in package.nls.json) and `restrictedConfigurations` to it, and README's settings table
 * is generated from it.
 */
import { BROWSERS, ImageResponsesSchema, IsolationSchema, SnapshotModeSchema, type BrowserConnection } from '../../protocol/childConfig';
import { ConsoleLevelSchema } from '../../protocol/childMessages';
import { ALL_CAPABILITIES, type CapabilityId } from './capabilities';
import { originRuleCovers } from './originRules';
import { NO_ORIGIN_ALLOWED, NO_TOOL_ALLOWED, type Narrowing, type ScopeRule } from './scopePolicy';
import { toolPatternCovers } from '../tools/toolPatterns';

interface SpecBase {
  /** Below the section: `timeouts.actionMs` is `playwrightBridge.timeouts.actionMs`. */
  key: string;
  /** The field of BridgeSettings it is read into (several keys may make one field: `connect.*` is `connection`). */
  field: string;
  /**
   * When a change applies: `atOnce`, read per call or per use (the tool policy, timeouts, idle limits, which doors
   * are offered); else (the default) when the browser next starts, and the person is offered a restart. No setting
   * needs a window reload.
   */
  applies?: 'atOnce';
  /**
   * Read by a parser of its own in settings.ts rather than by its kind alone: a value with a shape (a viewport), a
   * list checked entry by entry, a name checked against the profiles, or several keys making one field.
   */
  parser?: FieldParser;
}

/** The fields read by a parser of their own. */
export type FieldParser = 'viewport' | 'capabilities' | 'launchArgs' | 'origins' | 'loginProfile' | 'connection';

/** Who may set a setting of one kind: any level, only the person's own, or a workspace only to narrow it as its kind allows. */
type RuleFor<N extends Narrowing['by']> =
  Exclude<ScopeRule, { workspace: 'narrows' }> | { workspace: 'narrows'; narrowing: Extract<Narrowing, { by: N }>; why: string };

export type SettingSpec = SpecBase &
  (
    | { kind: 'boolean'; default: boolean; workspace: RuleFor<'turningOn' | 'turningOff'> }
    | { kind: 'number'; default: number; min: number; max: number; workspace: RuleFor<'lowering'> }
    | { kind: 'enum'; values: readonly string[]; default: string; workspace: RuleFor<'granting'> }
    /** A string whose empty value means "not set" (a path, a name, an address). */
    | { kind: 'string'; default: string; workspace: RuleFor<never> }
    | { kind: 'stringList'; default: readonly string[]; workspace: RuleFor<'adding' | 'within'> }
    | { kind: 'stringMap'; default: Readonly<Record<string, string>>; workspace: RuleFor<never> }
  );

const sets = (why: string) => ({ workspace: 'sets', why }) as const;
const ignored = (why: string) => ({ workspace: 'ignored', why }) as const;
const narrows = <N extends Narrowing>(narrowing: N, why: string) => ({ workspace: 'narrows', narrowing, why }) as const;
const budget = (what: string) => narrows({ by: 'lowering' }, `raise ${what}`);

/** One boolean per tool group, all making the field `capabilities`; the storage tools hand a login profile's cookies to agents. */
function capabilitySpec(id: CapabilityId) {
  return {
    key: `capabilities.${id}`,
    field: 'capabilities',
    parser: 'capabilities',
    kind: 'boolean',
    default: false,
    workspace:
      id === 'storage'
        ? ignored("hand your login profile's cookies and storage to agents")
        : narrows({ by: 'turningOff' }, `turn on the ${id} tools for agents`),
  } as const;
}

export const SETTINGS_TABLE = [
  { key: 'browser', field: 'browser', kind: 'enum', values: BROWSERS, default: 'auto', workspace: ignored('choose which program runs') },
  { key: 'executablePath', field: 'executablePath', kind: 'string', default: '', workspace: ignored('choose a program to run') },
  { key: 'headless', field: 'headless', kind: 'boolean', default: true, workspace: sets('a window on your screen widens nothing an agent may do') },
  {
    key: 'profile',
    field: 'profile',
    kind: 'enum',
    values: ['persistent', 'isolated'],
    default: 'persistent',
    workspace: narrows(
      { by: 'granting', grants: { isolated: [], persistent: ['cookies and logins kept between browsers'] } },
      "keep the browser's cookies and logins between restarts",
    ),
  },
  {
    key: 'viewport',
    field: 'viewport',
    parser: 'viewport',
    kind: 'string',
    default: '1280x720',
    workspace: sets("the page's size widens nothing an agent may do"),
  },
  {
    key: 'exposure',
    field: 'exposure',
    applies: 'atOnce',
    kind: 'enum',
    values: ['languageModelTools', 'mcp', 'both'],
    default: 'languageModelTools',
    workspace: narrows(
      { by: 'granting', grants: { languageModelTools: ["chat's tools"], mcp: ['the MCP server'], both: ["chat's tools", 'the MCP server'] } },
      "open a door to the browser (the MCP server, or chat's tools)",
    ),
  },
  ...ALL_CAPABILITIES.map(capabilitySpec),
  { key: 'launchArgs', field: 'launchArgs', parser: 'launchArgs', kind: 'stringList', default: [], workspace: ignored("choose the browser's arguments") },
  { key: 'outputDir', field: 'outputDir', kind: 'string', default: '', workspace: ignored('choose where files go') },
  { key: 'outputMaxSizeMB', field: 'outputMaxSizeMB', kind: 'number', default: 50, min: 1, max: 100000, workspace: budget('how much the bridge may write') },
  {
    key: 'mcpSessionIdleMinutes',
    field: 'mcpSessionIdleMinutes',
    applies: 'atOnce',
    kind: 'number',
    default: 30,
    min: 1,
    max: 1440,
    workspace: budget('how long an idle MCP client keeps its session'),
  },
  {
    key: 'handBackTimeoutMinutes',
    field: 'handBackTimeoutMinutes',
    applies: 'atOnce',
    kind: 'number',
    default: 10,
    min: 1,
    max: 240,
    workspace: sets('how long an agent waits for you widens nothing it may do'),
  },
  { key: 'readonly', field: 'readonly', applies: 'atOnce', kind: 'boolean', default: false, workspace: narrows({ by: 'turningOn' }, 'turn readonly mode off') },
  {
    key: 'tools.allow',
    field: 'toolsAllow',
    applies: 'atOnce',
    kind: 'stringList',
    default: [],
    workspace: narrows({ by: 'within', covers: toolPatternCovers, nothing: NO_TOOL_ALLOWED }, 'allow a tool your list does not'),
  },
  {
    key: 'tools.deny',
    field: 'toolsDeny',
    applies: 'atOnce',
    kind: 'stringList',
    default: [],
    workspace: narrows({ by: 'adding' }, 'allow a tool your list denies'),
  },
  {
    key: 'snapshotMode',
    field: 'snapshotMode',
    kind: 'enum',
    values: SnapshotModeSchema.options,
    default: 'full',
    workspace: sets('how much a result says widens nothing an agent may do'),
  },
  {
    key: 'imageResponses',
    field: 'imageResponses',
    kind: 'enum',
    values: ImageResponsesSchema.options,
    default: 'allow',
    workspace: sets('whether screenshots come as images widens nothing an agent may do'),
  },
  {
    key: 'consoleLevel',
    field: 'consoleLevel',
    kind: 'enum',
    values: ConsoleLevelSchema.options,
    default: 'info',
    workspace: sets('which console lines a result lists widens nothing an agent may do'),
  },
  {
    key: 'network.allowedOrigins',
    field: 'allowedOrigins',
    parser: 'origins',
    kind: 'stringList',
    default: [],
    workspace: narrows({ by: 'within', covers: originRuleCovers, nothing: NO_ORIGIN_ALLOWED }, 'allow an origin your list does not'),
  },
  {
    key: 'network.blockedOrigins',
    field: 'blockedOrigins',
    parser: 'origins',
    kind: 'stringList',
    default: [],
    workspace: narrows({ by: 'adding' }, 'unblock an origin your list blocks'),
  },
  {
    key: 'isolation',
    field: 'isolation',
    kind: 'enum',
    values: IsolationSchema.options,
    default: 'shared',
    workspace: narrows(
      { by: 'granting', grants: { perClient: [], shared: ['one browser context shared by MCP clients'] } },
      'let MCP clients share one browser context',
    ),
  },
  {
    key: 'sessionIdleMinutes',
    field: 'sessionIdleMinutes',
    kind: 'number',
    default: 15,
    min: 1,
    max: 1440,
    workspace: budget('how long an idle client keeps its browser context'),
  },
  {
    key: 'allowRunCodeForClients',
    field: 'allowRunCodeForClients',
    kind: 'boolean',
    default: false,
    workspace: ignored('let MCP clients run code in every context of the browser'),
  },
  { key: 'loginProfile', field: 'loginProfile', parser: 'loginProfile', kind: 'string', default: '', workspace: ignored('hand your logins to agents') },
  // A folder inside the workspace, checked where it is used: a workspace may name its own tests folder.
  {
    key: 'testExport.folder',
    field: 'testExportFolder',
    kind: 'string',
    default: '',
    workspace: sets('a folder inside the workspace, where its own tests go'),
  },
  {
    key: 'timeTravel.enabled',
    field: 'timeTravel',
    kind: 'boolean',
    default: true,
    workspace: narrows({ by: 'turningOff' }, 'turn on checkpoints and the restore tool'),
  },
  {
    key: 'timeTravel.maxMB',
    field: 'timeTravelMaxMB',
    kind: 'number',
    default: 64,
    min: 4,
    max: 4096,
    workspace: ignored("choose how much of the extension host's memory checkpoints keep"),
  },
  { key: 'connect.endpoint', field: 'connection', parser: 'connection', kind: 'string', default: '', workspace: ignored('choose which browser to reach') },
  {
    key: 'connect.headers',
    field: 'connection',
    parser: 'connection',
    kind: 'stringMap',
    default: {},
    workspace: ignored('choose what is sent to a browser elsewhere'),
  },
  {
    key: 'connect.allowNonLoopback',
    field: 'connection',
    parser: 'connection',
    kind: 'boolean',
    default: false,
    workspace: ignored('let the bridge reach another machine'),
  },
  {
    key: 'timeouts.actionMs',
    field: 'actionTimeoutMs',
    kind: 'number',
    default: 5000,
    min: 100,
    max: 600000,
    workspace: budget('how long a page action may wait'),
  },
  {
    key: 'timeouts.navigationMs',
    field: 'navigationTimeoutMs',
    kind: 'number',
    default: 60000,
    min: 1000,
    max: 600000,
    workspace: budget('how long a navigation may take'),
  },
  {
    key: 'timeouts.callSeconds',
    field: 'callTimeoutSeconds',
    applies: 'atOnce',
    kind: 'number',
    default: 300,
    min: 5,
    max: 3600,
    workspace: budget('how long one tool call may run'),
  },
] as const satisfies readonly SettingSpec[];

type Spec = (typeof SETTINGS_TABLE)[number];
export type SettingKey = Spec['key'];
type SpecOf<K extends SettingKey> = Extract<Spec, { key: K }>;
/** The keys of one kind (`KeyOfKind<'number'>`: every number setting). */
export type KeyOfKind<Kind extends SettingSpec['kind']> = Extract<Spec, { kind: Kind }>['key'];

/** A page's size in CSS pixels. */
export interface Viewport {
  width: number;
  height: number;
}

/** What a key's field holds, by its parser or its kind: text's "" is read as not set. */
type FieldType<S> = S extends { parser: 'viewport' }
  ? Viewport
  : S extends { parser: 'capabilities' }
    ? CapabilityId[]
    : S extends { parser: 'connection' }
      ? BrowserConnection | undefined
      : S extends { kind: 'boolean' }
        ? boolean
        : S extends { kind: 'number' }
          ? number
          : S extends { kind: 'enum'; values: readonly (infer V)[] }
            ? V
            : S extends { kind: 'string' }
              ? string | undefined
              : S extends { kind: 'stringList' }
                ? string[]
                : never;

/** Everything the person can set, validated, as the table declares it: one field per key, or per group of keys. */
export type BridgeSettings = { [S in Spec as S['field']]: FieldType<S> };

const BY_KEY = new Map<string, SettingSpec>(SETTINGS_TABLE.map(spec => [spec.key, spec]));

/** The declaration of one setting (typed by its key, so `specOf('headless').default` is a boolean). */
export function specOf<K extends SettingKey>(key: K): SpecOf<K> {
  return BY_KEY.get(key) as SpecOf<K>;
}

/** Who may set one setting (its row's `workspace`). */
export function scopeRuleOf(key: SettingKey): ScopeRule {
  return (BY_KEY.get(key) as SettingSpec).workspace;
}

/** Every key, in package.json's order. */
export const SETTING_KEYS: readonly SettingKey[] = SETTINGS_TABLE.map(spec => spec.key);

/** Keys only the person's own settings may set: package.json gives them `"scope": "machine"` and restricts them. */
export const USER_ONLY_SETTINGS: readonly SettingKey[] = SETTINGS_TABLE.filter(spec => spec.workspace.workspace === 'ignored').map(spec => spec.key);

/** The fields whose changes apply at once (read per call or per use): no restart is offered for them. */
export const FIELDS_APPLIED_AT_ONCE: ReadonlySet<string> = new Set(
  (SETTINGS_TABLE as readonly SettingSpec[]).filter(spec => spec.applies === 'atOnce').map(spec => spec.field),
);
