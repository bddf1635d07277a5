/**
 * A cloned workspace's `.vscode/settings.json` against the person's own settings, read the way the
 * extension reads them (BridgeHost over the fake `vscode`, its inspect() levels): a workspace cannot
 * hand the person's logins to agents, and an endpoint's credentials never reach what the person sees.
 */
import * as assert from 'assert';
import type * as vscodeTypes from 'vscode';
import { NO_ORIGIN_ALLOWED, type SettingLevel } from '../../src/core/settings/settings';
import { readLevels } from '../support/settingLevels';
import { SETTING_KEYS } from '../../src/core/settings/settingsTable';
import { buildChildConfig } from '../../src/core/childProcess/childConfig';
import { BridgeStatusBar } from '../../src/vscode/statusBar';
import { createFakeVscode } from '../support/fakeVscode';
import { hostFor, workspaceWidening } from '../harden/workspaceWidening';

describe("what a workspace may set (the extension's own reading of the settings levels)", () => {
  it('a cloned workspace tries every key at workspace and folder level, wider and wrongly typed: nothing widens, every wrong type is named by its level', async () => {
    const figures = await workspaceWidening();
    assert.strictEqual(figures.keys, SETTING_KEYS.length, 'every setting is tried');
    assert.deepStrictEqual(figures.details, []);
    assert.strictEqual(figures.widenings, 0);
    assert.strictEqual(figures.unnamed, 0);
  });

  it('a workspace\'s "tools.deny": "none" (or {}, true, 0) drops only itself: the person\'s deny list and blocked origins stay, and the warning says so', async () => {
    for (const wrong of ['none', {}, true, 0]) {
      const fake = createFakeVscode({
        settings: { 'playwrightBridge.tools.deny': ['browser_evaluate'], 'playwrightBridge.network.blockedOrigins': ['https://blocked.example.test'] },
        workspaceSettings: { 'playwrightBridge.tools.deny': wrong, 'playwrightBridge.network.blockedOrigins': wrong, 'playwrightBridge.tools.allow': '*' },
      });
      const { host, logged, cleanup } = hostFor(fake);
      try {
        assert.deepStrictEqual(host.currentSettings.toolsDeny, ['browser_evaluate'], JSON.stringify(wrong));
        assert.deepStrictEqual(host.currentSettings.blockedOrigins, ['https://blocked.example.test'], JSON.stringify(wrong));
        assert.deepStrictEqual(host.currentSettings.toolsAllow, []);
        assert.ok(
          logged.some(line =>
            /tools\.deny in this workspace's settings must be a list of strings; got .*The workspace's value is ignored; your own list still applies\./.test(
              line,
            ),
          ),
          logged.join('\n'),
        );
        assert.ok(
          fake.shown.some(m => m.level === 'warning'),
          'the person is told',
        );
      } finally {
        await cleanup();
      }
    }
  });

  it('ignores a workspace turning on capabilities.storage while a login profile is in use, and says so', async () => {
    const fake = createFakeVscode({
      settings: { 'playwrightBridge.loginProfile': 'work' },
      workspaceSettings: { 'playwrightBridge.capabilities.storage': true },
    });
    const { host, logged, cleanup } = hostFor(fake);
    try {
      assert.strictEqual(host.currentSettings.loginProfile, 'work');
      assert.deepStrictEqual(host.currentSettings.capabilities, [], 'the cookie tools stay off: the workspace cannot turn them on');
      assert.ok(
        logged.some(line => /capabilities\.storage in this workspace's settings is set, but a workspace may not.*ignored/.test(line)),
        logged.join('\n'),
      );
      assert.ok(
        fake.shown.some(m => m.level === 'warning' && /capabilities\.storage/.test(m.message)),
        'the person is told',
      );
    } finally {
      await cleanup();
    }
  });

  it("takes capabilities.storage from the person's user settings", async () => {
    const fake = createFakeVscode({ settings: { 'playwrightBridge.capabilities.storage': true, 'playwrightBridge.loginProfile': 'work' } });
    const { host, cleanup } = hostFor(fake);
    try {
      assert.deepStrictEqual(host.currentSettings.capabilities, ['storage']);
    } finally {
      await cleanup();
    }
  });

  it("keeps an endpoint's user name, password and token out of the log, the warning and the status bar; points to Set Connection Credentials", async () => {
    const endpoint = 'ws://admin:Pa55word-77@127.0.0.1:3000/?token=tok-8d1e42&browser=chromium';
    const fake = createFakeVscode({ settings: { 'playwrightBridge.connect.endpoint': endpoint } });
    const { host, logged, cleanup } = hostFor(fake);
    const statusBar = new BridgeStatusBar(
      fake.vscode as unknown as typeof vscodeTypes,
      () => host.supervisor.health,
      () => host.browserLabel,
      () => 'down',
    );
    try {
      assert.strictEqual(host.currentSettings.connection?.endpoint, endpoint, 'the connection itself uses the address as written');
      const warnings = fake.shown.filter(m => m.level === 'warning');
      assert.strictEqual(warnings.length, 1, 'one warning');
      assert.match(warnings[0].message, /holds credentials.*Set Connection Credentials/);
      const tooltip = (fake.statusBarItems[0].tooltip as { value: string }).value;
      assert.match(tooltip, /a Playwright server at ws:\/\/\*\*\*@127\.0\.0\.1:3000\/\?…/, tooltip);
      const seen = [...logged, ...fake.shown.map(m => m.message), tooltip, fake.statusBarItems[0].text, host.browserLabel].join('\n');
      for (const secret of ['Pa55word-77', 'tok-8d1e42', 'admin']) assert.ok(!seen.includes(secret), `${secret} shown:\n${seen}`);
      // Read again (a settings change elsewhere): the same warning is not shown twice.
      await fake.vscode.workspace.getConfiguration('playwrightBridge').update('headless', false, 1);
      await new Promise(resolve => setTimeout(resolve, 50));
      assert.strictEqual(fake.shown.filter(m => m.level === 'warning').length, 1, 'warned once');
    } finally {
      statusBar.dispose();
      await cleanup();
    }
  });

  it('narrows network.allowedOrigins across levels and never widens it: a workspace\'s [] does not mean "all" over the person\'s list', async () => {
    const user = ['https://app.example.test', 'http://localhost:*'];
    const allowed = (workspace: unknown) => {
      const fake = createFakeVscode({
        settings: { 'playwrightBridge.network.allowedOrigins': user },
        workspaceSettings: workspace === undefined ? {} : { 'playwrightBridge.network.allowedOrigins': workspace },
      });
      const { host, cleanup } = hostFor(fake);
      const settings = host.currentSettings;
      const warnings = fake.shown.filter(m => m.level === 'warning').map(m => m.message);
      const network = buildChildConfig(settings, { storageDir: '/s', workspaceFolders: [] }).mcp.network;
      return cleanup().then(() => ({ origins: settings.allowedOrigins, network, warnings }));
    };
    assert.deepStrictEqual((await allowed(undefined)).origins, user);
    const empty = await allowed([]);
    assert.deepStrictEqual(empty.origins, user, 'an empty workspace list narrows nothing');
    assert.deepStrictEqual(empty.network.allowedOrigins, user, "and upstream gets the person's list");
    assert.deepStrictEqual((await allowed(['https://evil.example.test', 'https://app.example.test'])).origins, ['https://app.example.test']);
    assert.deepStrictEqual((await allowed(['http://localhost:3000'])).origins, ['http://localhost:3000'], "within the person's any-port rule");
    const disjoint = await allowed(['https://evil.example.test']);
    assert.deepStrictEqual(disjoint.network.allowedOrigins, [NO_ORIGIN_ALLOWED], 'no shared origin: nothing allowed, never "all"');
    assert.match(disjoint.warnings.join('\n'), /allowedOrigins.*share no origin/);
    assert.deepStrictEqual((await allowed('https://evil.example.test')).origins, user, 'a workspace value that is not a list is no way around it');
    // The rule itself, for the folder level too.
    const levels = (origins: Partial<Record<SettingLevel, unknown>>) => readLevels({ 'network.allowedOrigins': origins }).settings.allowedOrigins;
    assert.deepStrictEqual(levels({ workspace: ['https://a.test'], folder: [] }), ['https://a.test']);
    assert.deepStrictEqual(levels({ user: [], workspace: [] }), []);
  });
});
