/**
 * A cloned workspace's `.vscode/settings.json` against the person's own settings, read the way the
 * extension reads them (BridgeHost over the fake `vscode`, its inspect() levels): a workspace cannot
 * hand the person's logins to agents, and an endpoint's credentials never reach what the person sees.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import { NO_ORIGIN_ALLOWED, restrictiveValue } from '../../src/core/settings/settings';
import { buildChildConfig } from '../../src/core/childProcess/childConfig';
import { BridgeHost } from '../../src/vscode/bridgeHost';
import { BridgeStatusBar } from '../../src/vscode/statusBar';
import { createFakeVscode } from '../support/fakeVscode';

type Fake = ReturnType<typeof createFakeVscode>;

function hostFor(fake: Fake): { host: BridgeHost; logged: string[]; cleanup: () => Promise<void> } {
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
  return { host, logged, cleanup: async () => { await host.dispose(); fs.rmSync(storage, { recursive: true, force: true }); } };
}

describe('what a workspace may set (the extension\'s own reading of the settings levels)', () => {
  it('ignores a workspace turning on capabilities.storage while a login profile is in use, and says so', async () => {
    const fake = createFakeVscode({
      settings: { 'playwrightBridge.loginProfile': 'work' },
      workspaceSettings: { 'playwrightBridge.capabilities.storage': true },
    });
    const { host, logged, cleanup } = hostFor(fake);
    try {
      assert.strictEqual(host.currentSettings.loginProfile, 'work');
      assert.deepStrictEqual(host.currentSettings.capabilities, [], 'the cookie tools stay off: the workspace cannot turn them on');
      assert.ok(logged.some(line => /capabilities\.storage is set in this workspace's settings.*ignored/.test(line)), logged.join('\n'));
      assert.ok(fake.shown.some(m => m.level === 'warning' && /capabilities\.storage/.test(m.message)), 'the person is told');
    } finally {
      await cleanup();
    }
  });

  it('takes capabilities.storage from the person\'s user settings', async () => {
    const fake = createFakeVscode({ settings: { 'playwrightBridge.capabilities.storage': true, 'playwrightBridge.loginProfile': 'work' } });
    const { host, cleanup } = hostFor(fake);
    try {
      assert.deepStrictEqual(host.currentSettings.capabilities, ['storage']);
    } finally {
      await cleanup();
    }
  });

  it('keeps an endpoint\'s user name, password and token out of the log, the warning and the status bar; points to Set Connection Credentials', async () => {
    const endpoint = 'ws://admin:Pa55word-77@127.0.0.1:3000/?token=tok-8d1e42&browser=chromium';
    const fake = createFakeVscode({ settings: { 'playwrightBridge.connect.endpoint': endpoint } });
    const { host, logged, cleanup } = hostFor(fake);
    const statusBar = new BridgeStatusBar(fake.vscode as unknown as typeof vscodeTypes, () => host.supervisor.health, () => host.browserLabel, () => 'down');
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
    assert.deepStrictEqual(empty.network.allowedOrigins, user, 'and upstream gets the person\'s list');
    assert.deepStrictEqual((await allowed(['https://evil.example.test', 'https://app.example.test'])).origins, ['https://app.example.test']);
    assert.deepStrictEqual((await allowed(['http://localhost:3000'])).origins, ['http://localhost:3000'], 'within the person\'s any-port rule');
    const disjoint = await allowed(['https://evil.example.test']);
    assert.deepStrictEqual(disjoint.network.allowedOrigins, [NO_ORIGIN_ALLOWED], 'no shared origin: nothing allowed, never "all"');
    assert.match(disjoint.warnings.join('\n'), /allowedOrigins.*share no origin/);
    assert.deepStrictEqual((await allowed('https://evil.example.test')).origins, user, 'a workspace value that is not a list is no way around it');
    // The rule itself, for the folder level too.
    assert.deepStrictEqual(restrictiveValue('network.allowedOrigins', { workspaceValue: ['https://a.test'], workspaceFolderValue: [] }), ['https://a.test']);
    assert.deepStrictEqual(restrictiveValue('network.allowedOrigins', { globalValue: [], workspaceValue: [] }), []);
  });
});
