/**
 * Every setting of `playwrightBridge.*`, declared once: its key, kind, default, range or values, who
 * is read into. Who may set it, and how a workspace's value combines with the person's own, is the
 * table beside this one (scopePolicy.ts). The reader (settings.ts) takes defaults and ranges from here, and
 * a test (test/unit/settingsTable.test.ts) holds package.json's `contributes.configuration` to it:
 * type, default, minimum/maximum, enum, scope, and a description in package.nls.json.
 */
import { BROWSERS, ImageResponsesSchema, IsolationSchema, SnapshotModeSchema } from '../../protocol/childConfig';
import { ConsoleLevelSchema } from '../../protocol/childMessages';
import { ALL_CAPABILITIES, type CapabilityId } from './capabilities';
import type { BridgeSettings } from './settings';

interface SpecBase {
  /** Below the section: `timeouts.actionMs` is `playwrightBridge.timeouts.actionMs`. */
  key: string;
  /** The field of BridgeSettings it is read into (several keys may make one field: `connect.*` is `connection`). */
  field: keyof BridgeSettings;
  /**
   * When a change applies: `atOnce`, read per call or per use (the tool policy, timeouts, idle limits, which doors
   * are offered); else (the default) when the browser next starts, and the person is offered a restart. No setting
   * needs a window reload.
   */
  applies?: 'atOnce';
  /**
   * Read by its own parser in settings.ts (FIELD_PARSERS) rather than by its kind alone: a value with a shape
   * (a viewport), a list checked entry by entry, a name checked against the profiles, or several keys making one field.
   */
  parser?: FieldParser;
}

/** The fields read by a parser of their own (settings.ts FIELD_PARSERS has one for each). */
export type FieldParser = 'viewport' | 'capabilities' | 'launchArgs' | 'origins' | 'loginProfile' | 'connection';

export type SettingSpec = SpecBase & (
  | { kind: 'boolean'; default: boolean }
  | { kind: 'number'; default: number; min: number; max: number }
  | { kind: 'enum'; values: readonly string[]; default: string }
  /** A string whose empty value means "not set" (a path, a name, an address). */
  | { kind: 'string'; default: string }
  | { kind: 'stringList'; default: readonly string[] }
  | { kind: 'stringMap'; default: Readonly<Record<string, string>> }
);

/** One boolean per tool group, all making the field `capabilities`. */
function capabilitySpec(id: CapabilityId): { key: `capabilities.${CapabilityId}`; field: 'capabilities'; parser: 'capabilities'; kind: 'boolean'; default: false } {
  return { key: `capabilities.${id}`, field: 'capabilities', parser: 'capabilities', kind: 'boolean', default: false };
}

export const SETTINGS_TABLE = [
  { key: 'browser', field: 'browser', kind: 'enum', values: BROWSERS, default: 'auto' },
  { key: 'executablePath', field: 'executablePath', kind: 'string', default: '' },
  { key: 'headless', field: 'headless', kind: 'boolean', default: true },
  { key: 'profile', field: 'profile', kind: 'enum', values: ['persistent', 'isolated'], default: 'persistent' },
  { key: 'viewport', field: 'viewport', parser: 'viewport', kind: 'string', default: '1280x720' },
  { key: 'exposure', field: 'exposure', applies: 'atOnce', kind: 'enum', values: ['languageModelTools', 'mcp', 'both'], default: 'languageModelTools' },
  ...ALL_CAPABILITIES.map(capabilitySpec),
  { key: 'launchArgs', field: 'launchArgs', parser: 'launchArgs', kind: 'stringList', default: [] },
  { key: 'outputDir', field: 'outputDir', kind: 'string', default: '' },
  { key: 'outputMaxSizeMB', field: 'outputMaxSizeMB', kind: 'number', default: 50, min: 1, max: 100000 },
  { key: 'mcpSessionIdleMinutes', field: 'mcpSessionIdleMinutes', applies: 'atOnce', kind: 'number', default: 30, min: 1, max: 1440 },
  { key: 'handBackTimeoutMinutes', field: 'handBackTimeoutMinutes', applies: 'atOnce', kind: 'number', default: 10, min: 1, max: 240 },
  { key: 'readonly', field: 'readonly', applies: 'atOnce', kind: 'boolean', default: false },
  { key: 'tools.allow', field: 'toolsAllow', applies: 'atOnce', kind: 'stringList', default: [] },
  { key: 'tools.deny', field: 'toolsDeny', applies: 'atOnce', kind: 'stringList', default: [] },
  { key: 'snapshotMode', field: 'snapshotMode', kind: 'enum', values: SnapshotModeSchema.options, default: 'full' },
  { key: 'imageResponses', field: 'imageResponses', kind: 'enum', values: ImageResponsesSchema.options, default: 'allow' },
  { key: 'consoleLevel', field: 'consoleLevel', kind: 'enum', values: ConsoleLevelSchema.options, default: 'info' },
  { key: 'network.allowedOrigins', field: 'allowedOrigins', parser: 'origins', kind: 'stringList', default: [] },
  { key: 'network.blockedOrigins', field: 'blockedOrigins', parser: 'origins', kind: 'stringList', default: [] },
  { key: 'isolation', field: 'isolation', kind: 'enum', values: IsolationSchema.options, default: 'shared' },
  { key: 'sessionIdleMinutes', field: 'sessionIdleMinutes', kind: 'number', default: 15, min: 1, max: 1440 },
  { key: 'allowRunCodeForClients', field: 'allowRunCodeForClients', kind: 'boolean', default: false },
  { key: 'loginProfile', field: 'loginProfile', parser: 'loginProfile', kind: 'string', default: '' },
  { key: 'testExport.folder', field: 'testExportFolder', kind: 'string', default: '' },
  { key: 'timeTravel.enabled', field: 'timeTravel', kind: 'boolean', default: true },
  { key: 'timeTravel.maxMB', field: 'timeTravelMaxMB', kind: 'number', default: 64, min: 4, max: 4096 },
  { key: 'connect.endpoint', field: 'connection', parser: 'connection', kind: 'string', default: '' },
  { key: 'connect.headers', field: 'connection', parser: 'connection', kind: 'stringMap', default: {} },
  { key: 'connect.allowNonLoopback', field: 'connection', parser: 'connection', kind: 'boolean', default: false },
  { key: 'timeouts.actionMs', field: 'actionTimeoutMs', kind: 'number', default: 5000, min: 100, max: 600000 },
  { key: 'timeouts.navigationMs', field: 'navigationTimeoutMs', kind: 'number', default: 60000, min: 1000, max: 600000 },
  { key: 'timeouts.callSeconds', field: 'callTimeoutSeconds', applies: 'atOnce', kind: 'number', default: 300, min: 5, max: 3600 },
] as const satisfies readonly SettingSpec[];

type Spec = (typeof SETTINGS_TABLE)[number];
export type SettingKey = Spec['key'];
type SpecOf<K extends SettingKey> = Extract<Spec, { key: K }>;
/** The keys of one kind (`KeyOfKind<'number'>`: every number setting). */
export type KeyOfKind<Kind extends SettingSpec['kind']> = Extract<Spec, { kind: Kind }>['key'];
/** The values an enum setting takes. */
export type EnumValue<K extends KeyOfKind<'enum'>> = SpecOf<K> extends { values: readonly (infer V)[] } ? V : never;

const BY_KEY = new Map<string, SettingSpec>(SETTINGS_TABLE.map(spec => [spec.key, spec]));

/** The declaration of one setting (typed by its key, so `specOf('headless').default` is a boolean). */
export function specOf<K extends SettingKey>(key: K): SpecOf<K> {
  return BY_KEY.get(key) as SpecOf<K>;
}

/** Every key, in package.json's order. */
export const SETTING_KEYS: readonly SettingKey[] = SETTINGS_TABLE.map(spec => spec.key);

/** The fields whose changes apply at once (read per call or per use): no restart is offered for them. */
export const FIELDS_APPLIED_AT_ONCE: ReadonlySet<string> = new Set(
  (SETTINGS_TABLE as readonly SettingSpec[]).filter(spec => spec.applies === 'atOnce').map(spec => spec.field),
);
