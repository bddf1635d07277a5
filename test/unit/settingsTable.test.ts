import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SETTINGS_SECTION } from '../../src/core/contributionIds';
import { DEFAULT_SETTINGS, readSettings } from '../../src/core/settings/settings';
import {
  FIELDS_APPLIED_AT_ONCE,
  scopeRuleOf,
  SETTINGS_TABLE,
  USER_ONLY_SETTINGS,
  type SettingKey,
  type SettingSpec,
} from '../../src/core/settings/settingsTable';
import { contributedSettings, restrictedConfigurations, settingWordKeys } from '../../src/core/settings/settingsManifest';
import { REPO_ROOT } from '../support/realBridge';

interface Contributed {
  type?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  scope?: string;
  items?: { type?: string };
  additionalProperties?: { type?: string };
  description?: string;
  markdownDescription?: string;
}

const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.nls.json'), 'utf8'));
const contributed: Record<string, Contributed> = packageJson.contributes.configuration.properties;

/** What package.json must say of a setting, from its row in the table. */
function expectedContribution(spec: SettingSpec): Contributed {
  // Who may set it is its row's `workspace` rule; VS Code keeps a workspace's value of a machine setting out.
  const scope = scopeRuleOf(spec.key as SettingKey).workspace === 'ignored' ? 'machine' : 'window';
  switch (spec.kind) {
    case 'boolean':
      return { type: 'boolean', default: spec.default, scope };
    case 'number':
      return { type: 'number', default: spec.default, minimum: spec.min, maximum: spec.max, scope };
    case 'enum':
      return { type: 'string', default: spec.default, enum: [...spec.values], scope };
    case 'string':
      return { type: 'string', default: spec.default, scope };
    case 'stringList':
      return { type: 'array', default: [...spec.default], items: { type: 'string' }, scope };
    case 'stringMap':
      return { type: 'object', default: { ...spec.default }, additionalProperties: { type: 'string' }, scope };
  }
}

describe('Settings: one table (settingsTable.ts) that package.json, the reader and the host follow', () => {
  it("package.json declares exactly the table's keys, each with its type, default, range, values, scope and a description", () => {
    const declared = Object.keys(contributed)
      .map(key => key.slice(SETTINGS_SECTION.length + 1))
      .sort();
    assert.deepStrictEqual(declared, SETTINGS_TABLE.map(spec => spec.key).sort());
    for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) {
      const entry = contributed[`${SETTINGS_SECTION}.${spec.key}`];
      const { type, default: fallback, minimum, maximum, enum: values, scope, items, additionalProperties } = entry;
      const actual = Object.fromEntries(
        Object.entries({ type, default: fallback, minimum, maximum, enum: values, scope, items, additionalProperties }).filter(
          ([, value]) => value !== undefined,
        ),
      );
      assert.deepStrictEqual(actual, expectedContribution(spec), `playwrightBridge.${spec.key}`);
      const description = entry.markdownDescription ?? entry.description ?? '';
      const text = /^%(.+)%$/.exec(description) ? nls[description.slice(1, -1)] : description;
      assert.ok(text && text.length > 20, `playwrightBridge.${spec.key} has a description people can read`);
    }
  });

  it("package.json's settings are what npm run generate:settings writes from the table and the words", () => {
    const hasWords = (key: string) => typeof nls[key] === 'string' && nls[key] !== '';
    assert.deepStrictEqual(contributed, contributedSettings(hasWords), 'run npm run generate:settings');
    assert.deepStrictEqual(packageJson.capabilities.untrustedWorkspaces.restrictedConfigurations, restrictedConfigurations());
    for (const key of settingWordKeys(hasWords)) assert.ok(hasWords(key), `package.nls.json has words for ${key}`);
  });

  it("the scope rules: package.json restricts exactly the user-only keys in untrusted workspaces, and an enum's grants name each of its values", () => {
    const restricted: string[] = packageJson.capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.deepStrictEqual([...restricted].sort(), USER_ONLY_SETTINGS.map(key => `${SETTINGS_SECTION}.${key}`).sort());
    for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) {
      if (spec.kind !== 'enum' || spec.workspace.workspace !== 'narrows') continue;
      assert.deepStrictEqual(Object.keys(spec.workspace.narrowing.grants).sort(), [...spec.values].sort(), spec.key);
    }
  });

  it("the reader takes each number's range from the table: just inside is kept, just outside falls back to the default and is reported", () => {
    for (const spec of SETTINGS_TABLE as readonly SettingSpec[]) {
      if (spec.kind !== 'number') continue;
      for (const [value, kept] of [
        [spec.min, true],
        [spec.max, true],
        [spec.min - 1, false],
        [spec.max + 1, false],
      ] as const) {
        const { settings, problems } = readSettings(key => (key === spec.key ? value : undefined));
        const all = settings as unknown as Record<string, unknown>;
        const changed = Object.keys(all).filter(
          field => JSON.stringify(all[field]) !== JSON.stringify((DEFAULT_SETTINGS as unknown as Record<string, unknown>)[field]),
        );
        if (kept) {
          assert.deepStrictEqual(problems, [], `${spec.key} = ${value}`);
          if (value !== spec.default) assert.strictEqual(changed.length, 1, `${spec.key} = ${value} changes one setting`);
        } else {
          assert.strictEqual(problems.length, 1, `${spec.key} = ${value}`);
          assert.match(problems[0].message, new RegExp(`from ${spec.min} to ${spec.max}; got ${value}\\. Using ${spec.default}\\.`));
          assert.deepStrictEqual(changed, [], `${spec.key} = ${value} falls back to the default`);
        }
      }
    }
  });

  it("the defaults are the table's: reading no settings at all gives DEFAULT_SETTINGS and no problem", () => {
    const { settings, problems } = readSettings(() => undefined);
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, DEFAULT_SETTINGS);
    assert.deepStrictEqual(settings.viewport, { width: 1280, height: 720 });
    assert.strictEqual(settings.sessionIdleMinutes, 15);
  });

  it('names the field each setting is read into, every field of BridgeSettings has its settings, and says which apply at once', () => {
    const specs = SETTINGS_TABLE as readonly SettingSpec[];
    assert.deepStrictEqual([...new Set(specs.map(spec => spec.field).filter(Boolean))].sort(), Object.keys(DEFAULT_SETTINGS).sort());
    // Read per call or per use (the endpoint's idle sweep reads mcpSessionIdleMinutes each time): no restart is offered for these.
    assert.deepStrictEqual([...FIELDS_APPLIED_AT_ONCE].sort(), [
      'callTimeoutSeconds',
      'exposure',
      'handBackTimeoutMinutes',
      'mcpSessionIdleMinutes',
      'readonly',
      'toolsAllow',
      'toolsDeny',
    ]);
    // The doors offered follow the exposure setting at once (the MCP provider listens for it).
    assert.strictEqual(specs.find(spec => spec.key === 'exposure')?.applies, 'atOnce');
    // A field made of several keys, or a map, is read by its own parser: the kind alone cannot say how they combine.
    for (const field of new Set(specs.map(spec => spec.field))) {
      const keys = specs.filter(spec => spec.field === field);
      if (keys.length > 1 || keys.some(spec => spec.kind === 'stringMap')) {
        assert.ok(
          keys.every(spec => spec.parser && spec.parser === keys[0].parser),
          `${field}: its keys share one parser`,
        );
      }
    }
  });
});
