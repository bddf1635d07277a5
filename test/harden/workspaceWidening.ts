/**
 * The `workspace` section of `npm run harden`, and the unit test that holds it at 0: a cloned repository's
 * `.vscode/settings.json` (and a folder's) tries every setting, with a wider value and with values of the
 * wrong type, against a person whose own settings are restrictive. The settings are read the way the
 * extension reads them (BridgeHost over the fake `vscode`, VS Code's `inspect` levels).
 *
 * The attacker's values are written here by hand for text, lists and maps, and are every value of the kind's domain
 * for the others: never taken from the scope policy under test.
 * A widening is any attempt after which the settings differ from the person's own, except for the keys this
 * file names as harmless to set (how the browser looks, what a result says); a wrongly typed value must
 * leave every setting as the person's own and be reported naming its level.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import type { BridgeSettings } from '../../src/core/settings/settings';
import { SETTING_KEYS, specOf, type KeyOfKind, type SettingKey, type SettingSpec } from '../../src/core/settings/settingsTable';
import { BridgeHost } from '../../src/vscode/bridgeHost';
import { createFakeVscode } from '../support/fakeVscode';

type Fake = ReturnType<typeof createFakeVscode>;

/** BridgeHost over the fake `vscode`, with what it logs; the storage goes with `cleanup`. */
export function hostFor(fake: Fake): { host: BridgeHost; logged: string[]; cleanup: () => Promise<void> } {
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-host-'));
  const logged: string[] = [];
  const log = { info: (line: string) => logged.push(line), warn: (line: string) => logged.push(line), error: (line: string) => logged.push(line) };
  const context = {
    storageUri: { fsPath: path.join(storage, 'workspace') },
    globalStorageUri: { fsPath: path.join(storage, 'global') },
    extension: { packageJSON: { contributes: { languageModelTools: [] } } },
    asAbsolutePath: (relative: string) => path.join(storage, relative),
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined },
    globalState: { get: () => undefined, update: async () => undefined },
  } as unknown as vscodeTypes.ExtensionContext;
  const host = new BridgeHost(fake.vscode as unknown as typeof vscodeTypes, context, log as unknown as vscodeTypes.LogOutputChannel);
  return {
    host,
    logged,
    cleanup: async () => {
      await host.dispose();
      fs.rmSync(storage, { recursive: true, force: true });
    },
  };
}

/** A careful person's own settings: things denied and blocked, a narrow allow list, readonly on, budgets below their maximum. */
export const PERSON: Partial<Record<SettingKey, unknown>> = {
  browser: 'chromium',
  executablePath: '/usr/bin/chromium',
  profile: 'isolated',
  exposure: 'languageModelTools',
  readonly: true,
  'tools.allow': ['browser_*'],
  'tools.deny': ['browser_evaluate', 'browser_run_code_unsafe'],
  'network.allowedOrigins': ['http://127.0.0.1:*'],
  'network.blockedOrigins': ['https://blocked.example.test'],
  isolation: 'perClient',
  outputMaxSizeMB: 20,
  mcpSessionIdleMinutes: 10,
  sessionIdleMinutes: 5,
  'timeTravel.enabled': false,
  'timeouts.actionMs': 3000,
  'timeouts.navigationMs': 20000,
  'timeouts.callSeconds': 120,
};

/**
 * What a hostile workspace writes for each key whose kind has no short list of values (text, lists, maps): written
 * here by hand. A key of a kind with a finite domain (a boolean, an enum, a number's bounds) is tried with
 * every value of that domain instead (a number: its largest; valuesToTry), so a new setting of such a kind is attacked without an entry here.
 */
export const WIDER: Record<KeyOfKind<'string' | 'stringList' | 'stringMap'>, unknown> = {
  executablePath: '/bin/false',
  viewport: '800x600',
  launchArgs: ['--remote-debugging-port=9333', '--lang=de'],
  outputDir: '/',
  'tools.allow': ['*'],
  'tools.deny': [],
  'network.allowedOrigins': ['*'],
  'network.blockedOrigins': [],
  loginProfile: 'work',
  'testExport.folder': 'e2e',
  'connect.endpoint': 'ws://127.0.0.1:1/',
  'connect.headers': { 'x-planted': '1' },
};

/** The values a workspace tries for one key: every value of its kind's domain, or the hand-written wider one. */
function valuesToTry(key: SettingKey): unknown[] {
  const spec = specOf(key) as SettingSpec;
  switch (spec.kind) {
    case 'boolean':
      return [true, false];
    case 'enum':
      return [...spec.values];
    case 'number':
      // Every number here is a budget (bytes, minutes, milliseconds): its largest value gives agents the most. A
      // smaller one gives them less, which a workspace may ask for, so it is not an attempt to widen.
      return [spec.max];
    default:
      return [WIDER[key as keyof typeof WIDER]];
  }
}

/**
 * The fields a workspace may change without giving agents more: how the page looks, how much a result says, how long
 * an agent waits for the person, where the workspace's own tests go. Any other field that moves is a widening.
 */
export const HARMLESS_FIELDS: readonly (keyof BridgeSettings)[] = [
  'headless',
  'viewport',
  'snapshotMode',
  'imageResponses',
  'consoleLevel',
  'handBackTimeoutMinutes',
  'testExportFolder',
];

/** The wrong types a cloned repository used against the deny list ("none", {}, true, 0), tried on every key. */
const WRONG_TYPES: unknown[] = ['none', {}, true, 0];

export interface WorkspaceFigures {
  /** Keys tried, each at workspace and at folder level. */
  keys: number;
  /** Attempts: a wider value and each wrongly typed value, at both levels. */
  attempts: number;
  /** Attempts after which a field other than the harmless ones differs from the person's own. Target: 0. */
  widenings: number;
  /** Wrongly typed attempts whose problem did not name the level it came from. Target: 0. */
  unnamed: number;
  details: string[];
}

function settingsWith(person: Partial<Record<SettingKey, unknown>>, level: 'workspace' | 'folder', key: SettingKey | undefined, value: unknown) {
  const prefixed = (values: Partial<Record<SettingKey, unknown>>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`playwrightBridge.${k}`, v]));
  const planted = key === undefined ? {} : prefixed({ [key]: value });
  return createFakeVscode({
    settings: prefixed(person),
    workspaceSettings: level === 'workspace' ? planted : {},
    folderSettings: level === 'folder' ? planted : {},
  });
}

export async function workspaceWidening(): Promise<WorkspaceFigures> {
  const read = async (fake: Fake) => {
    const { host, logged, cleanup } = hostFor(fake);
    const settings = host.currentSettings;
    await cleanup();
    return { settings: settings as unknown as Record<string, unknown>, logged };
  };
  const own = (await read(settingsWith(PERSON, 'workspace', undefined, undefined))).settings;
  const figures: WorkspaceFigures = { keys: 0, attempts: 0, widenings: 0, unnamed: 0, details: [] };
  for (const key of SETTING_KEYS) {
    figures.keys++;
    const tried = valuesToTry(key);
    const rightType = (value: unknown) => tried.some(good => typeof good === typeof value && Array.isArray(good) === Array.isArray(value));
    for (const level of ['workspace', 'folder'] as const) {
      // A "wrong" value that is the right type for this key (true for a boolean) is a value, not an attack on typing.
      const attempts = [
        ...tried.map(value => ['wider', value] as const),
        ...WRONG_TYPES.filter(wrong => !rightType(wrong)).map(wrong => ['wrong type', wrong] as const),
      ];
      for (const [what, value] of attempts) {
        figures.attempts++;
        const { settings, logged } = await read(settingsWith(PERSON, level, key, value));
        const moved = Object.keys(own).filter(field => JSON.stringify(settings[field]) !== JSON.stringify(own[field]));
        const widened = moved.filter(field => what === 'wrong type' || !(HARMLESS_FIELDS as readonly string[]).includes(field));
        if (widened.length) {
          figures.widenings++;
          figures.details.push(
            `${level} ${key} = ${JSON.stringify(value)} (${what}) moved ${widened.map(f => `${f}: ${JSON.stringify(own[f])} -> ${JSON.stringify(settings[f])}`).join(', ')}`,
          );
        }
        const levelWords = level === 'workspace' ? "in this workspace's settings" : "in a workspace folder's settings";
        if (what === 'wrong type' && !logged.some(line => line.includes(`playwrightBridge.${key} ${levelWords}`))) {
          figures.unnamed++;
          figures.details.push(`${level} ${key} = ${JSON.stringify(value)}: no problem names the ${level} level (${logged.join(' | ') || 'nothing logged'})`);
        }
      }
    }
  }
  return figures;
}
