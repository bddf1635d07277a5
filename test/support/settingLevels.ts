/** Settings read from levels written out by a test, as the host reads VS Code's `inspect` (user, workspace, folder). */
import { readSettingLevels, type SettingLevel } from '../../src/core/settings/settings';
import type { SettingKey } from '../../src/core/settings/settingsTable';

export type LevelValues = Partial<Record<SettingKey, Partial<Record<SettingLevel, unknown>>>>;

export function readLevels(levels: LevelValues): ReturnType<typeof readSettingLevels> {
  return readSettingLevels(key => levels[key] ?? {});
}
