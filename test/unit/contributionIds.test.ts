import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { COMMANDS, MCP_PROVIDER_ID, PANEL_VIEW_ID, SETTING_KEYS, SETTINGS_SECTION, VIEW_CONTAINER_ID } from '../../src/core/contributionIds';
import { readSettings } from '../../src/core/settings/settings';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const contributes = manifest.contributes;

describe('contribution ids against package.json', () => {
  it('declares every command the code registers, and nothing else', () => {
    assert.deepStrictEqual(contributes.commands.map((c: { command: string }) => c.command).sort(), Object.values(COMMANDS).sort());
  });

  it('declares every setting the code reads, and the code reads every declared setting', () => {
    const declared = Object.keys(contributes.configuration.properties)
      .map(key => key.slice(SETTINGS_SECTION.length + 1))
      .sort();
    assert.deepStrictEqual(declared, [...SETTING_KEYS].sort());
    const read = new Set<string>();
    readSettings(key => void read.add(key));
    assert.deepStrictEqual([...read].sort(), [...SETTING_KEYS].sort());
  });

  it('names the views and the MCP provider as package.json does', () => {
    assert.ok(contributes.viewsContainers.activitybar.some((c: { id: string }) => c.id === VIEW_CONTAINER_ID));
    assert.deepStrictEqual(
      contributes.views[VIEW_CONTAINER_ID].map((v: { id: string }) => v.id),
      [PANEL_VIEW_ID],
    );
    assert.deepStrictEqual(
      contributes.mcpServerDefinitionProviders.map((p: { id: string }) => p.id),
      [MCP_PROVIDER_ID],
    );
    for (const entry of contributes.menus['view/title'] ?? []) assert.ok(Object.values(COMMANDS).includes(entry.command), entry.command);
  });
});
