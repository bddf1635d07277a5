/**
 * package.json's `contributes.configuration` and `capabilities.untrustedWorkspaces.restrictedConfigurations`,
 * derived from the settings table (settingsTable.ts): a setting is its row there and its words in
 * package.nls.json (`config.<key>.description`; an enum's values described where the words have
 * `config.<key>.enum.<value>` for each).
 * `npm run generate:settings` writes them (src/build/generateSettingsManifest.ts); test/unit/settingsTable.test.ts
 * fails when package.json differs.
 */
import { SETTINGS_SECTION } from '../contributionIds';
import { SETTINGS_TABLE, USER_ONLY_SETTINGS, type SettingSpec } from './settingsTable';

/** One setting as VS Code reads it in package.json. */
export interface ContributedSetting {
  type: string;
  default: unknown;
  enum?: string[];
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  items?: { type: string };
  additionalProperties?: { type: string };
  pattern?: string;
  patternErrorMessage?: string;
  markdownDescription: string;
  scope: 'machine' | 'window';
}

/** A viewport as the reader takes it (settings.ts parseViewport): VS Code's Settings editor says so before the reader has to. */
const VIEWPORT_PATTERN = '^\\s*\\d+\\s*[x×,]\\s*\\d+\\s*$';

/** Whether package.nls.json has words under a key. */
export type HasWords = (key: string) => boolean;

function contributed(spec: SettingSpec, hasWords: HasWords): ContributedSetting {
  const words = (what: string) => `%config.${spec.key}.${what}%`;
  const scope = spec.workspace.workspace === 'ignored' ? 'machine' : 'window';
  const about = { markdownDescription: words('description'), scope } as const;
  switch (spec.kind) {
    case 'boolean':
      return { type: 'boolean', default: spec.default, ...about };
    case 'number':
      return { type: 'number', default: spec.default, minimum: spec.min, maximum: spec.max, ...about };
    case 'enum': {
      const described = spec.values.every(value => hasWords(`config.${spec.key}.enum.${value}`));
      return {
        type: 'string',
        enum: [...spec.values],
        default: spec.default,
        ...(described ? { enumDescriptions: spec.values.map(value => words(`enum.${value}`)) } : {}),
        ...about,
      };
    }
    case 'string':
      return spec.parser === 'viewport'
        ? { type: 'string', default: spec.default, pattern: VIEWPORT_PATTERN, patternErrorMessage: words('patternError'), ...about }
        : { type: 'string', default: spec.default, ...about };
    case 'stringList':
      return { type: 'array', items: { type: 'string' }, default: [...spec.default], ...about };
    case 'stringMap':
      return { type: 'object', additionalProperties: { type: 'string' }, default: { ...spec.default }, ...about };
  }
}

/** Every setting, in the table's order, keyed as package.json keys them. */
export function contributedSettings(hasWords: HasWords): Record<string, ContributedSetting> {
  return Object.fromEntries((SETTINGS_TABLE as readonly SettingSpec[]).map(spec => [`${SETTINGS_SECTION}.${spec.key}`, contributed(spec, hasWords)]));
}

/** The settings an untrusted workspace's own value is ignored for: the user-only ones. */
export function restrictedConfigurations(): string[] {
  return USER_ONLY_SETTINGS.map(key => `${SETTINGS_SECTION}.${key}`);
}

/** The words package.json refers to, as `%key%` placeholders, that package.nls.json must hold. */
export function settingWordKeys(hasWords: HasWords): string[] {
  return Object.values(contributedSettings(hasWords))
    .flatMap(setting => [
      setting.markdownDescription,
      ...(setting.enumDescriptions ?? []),
      ...(setting.patternErrorMessage ? [setting.patternErrorMessage] : []),
    ])
    .map(placeholder => placeholder.slice(1, -1));
}
