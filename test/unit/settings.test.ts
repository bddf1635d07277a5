import * as assert from 'assert';
import * as path from 'path';
import { buildChildConfig, childSpawnSpec } from '../../src/core/childProcess/childConfig';
import { DEFAULT_SETTINGS, readSettings, type SettingLevel } from '../../src/core/settings/settings';
import { readLevels } from '../support/settingLevels';

function fromObject(values: Record<string, unknown>) {
  return readSettings(key => values[key]);
}

describe('settings', () => {
  it('uses the defaults when nothing is set', () => {
    const { settings, problems } = fromObject({});
    assert.deepStrictEqual(settings, DEFAULT_SETTINGS);
    assert.deepStrictEqual(problems, []);
    assert.strictEqual(settings.headless, true, 'headless by default: the panel is where people watch');
  });

  it('reads every setting', () => {
    const { settings, problems } = fromObject({
      browser: 'msedge',
      executablePath: ' /opt/edge ',
      headless: false,
      profile: 'isolated',
      viewport: '1024x768',
      'capabilities.vision': true,
      'capabilities.pdf': false,
      'capabilities.storage': true,
      launchArgs: ['--lang=de', ''],
      outputDir: '/tmp/out',
      outputMaxSizeMB: 10,
      'timeouts.actionMs': 2000,
      'timeouts.navigationMs': 30000,
      'timeouts.callSeconds': 60,
      'testExport.folder': ' e2e ',
    });
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(settings, {
      browser: 'msedge',
      executablePath: '/opt/edge',
      exposure: 'languageModelTools',
      headless: false,
      profile: 'isolated',
      viewport: { width: 1024, height: 768 },
      capabilities: ['vision', 'storage'],
      launchArgs: ['--lang=de'],
      outputDir: '/tmp/out',
      outputMaxSizeMB: 10,
      actionTimeoutMs: 2000,
      navigationTimeoutMs: 30000,
      callTimeoutSeconds: 60,
      mcpSessionIdleMinutes: 30,
      handBackTimeoutMinutes: 10,
      readonly: false,
      toolsAllow: [],
      toolsDeny: [],
      snapshotMode: 'full',
      imageResponses: 'allow',
      consoleLevel: 'info',
      allowedOrigins: [],
      blockedOrigins: [],
      isolation: 'shared',
      sessionIdleMinutes: 15,
      allowRunCodeForClients: false,
      loginProfile: undefined,
      connection: undefined,
      testExportFolder: 'e2e',
      timeTravel: true,
      timeTravelMaxMB: 64,
    });
  });

  it('falls back to the default for a bad value and says which setting and why', () => {
    const { settings, problems } = fromObject({ browser: 'netscape', viewport: '12x9999', 'timeouts.callSeconds': -1, headless: 'yes', launchArgs: '--foo' });
    assert.strictEqual(settings.browser, 'auto');
    assert.deepStrictEqual(settings.viewport, DEFAULT_SETTINGS.viewport);
    assert.strictEqual(settings.callTimeoutSeconds, DEFAULT_SETTINGS.callTimeoutSeconds);
    assert.strictEqual(settings.headless, true);
    assert.deepStrictEqual(
      problems.map(p => p.key),
      [
        'playwrightBridge.browser',
        'playwrightBridge.headless',
        'playwrightBridge.viewport',
        'playwrightBridge.launchArgs',
        'playwrightBridge.timeouts.callSeconds',
      ],
    );
    assert.match(problems[0].message, /must be one of auto, chrome, msedge, chromium, firefox, webkit; got "netscape"/);
  });
});

describe('settings a workspace may not set', () => {
  it('allowRunCodeForClients: read as the person set it, off by default, and a workspace value is reported as ignored', () => {
    assert.strictEqual(readSettings(() => undefined).settings.allowRunCodeForClients, false);
    assert.strictEqual(readSettings(key => (key === 'allowRunCodeForClients' ? true : undefined)).settings.allowRunCodeForClients, true);
    const { settings, problems } = readLevels({ allowRunCodeForClients: { workspace: true } });
    assert.strictEqual(settings.allowRunCodeForClients, false);
    assert.deepStrictEqual(
      problems.map(p => p.key),
      ['playwrightBridge.allowRunCodeForClients'],
    );
    assert.match(problems[0].message, /the workspace value is ignored/);
  });

  it('says a workspace value of a program, its arguments or the output folder is ignored', () => {
    const { settings, problems } = readLevels({ executablePath: { workspace: '/bin/false' }, outputDir: { folder: '/' } });
    assert.deepStrictEqual([settings.executablePath, settings.outputDir], [undefined, undefined]);
    assert.deepStrictEqual(
      problems.map(p => p.key),
      ['playwrightBridge.executablePath', 'playwrightBridge.outputDir'],
    );
    assert.match(
      problems[0].message,
      /in this workspace's settings is set, but a workspace may not choose a program to run.*Set it in your user settings; the workspace value is ignored\./,
    );
    assert.match(problems[1].message, /in a workspace folder's settings is set, but a workspace may not choose where files go/);
  });

  it('refuses launch arguments that open a debugging port or swap the profile, naming the setting', () => {
    const args = [
      '--lang=de',
      '--remote-debugging-port=9222',
      '--remote-debugging-pipe',
      '--user-data-dir=/home/me/.config/google-chrome',
      '--profile-directory=Default',
      '--remote-allow-origins=*',
    ];
    const { settings, problems } = readSettings(key => (key === 'launchArgs' ? args : undefined));
    assert.deepStrictEqual(settings.launchArgs, ['--lang=de']);
    assert.strictEqual(problems.length, 5);
    assert.ok(problems.every(p => p.key === 'playwrightBridge.launchArgs'));
    assert.match(problems[0].message, /"--remote-debugging-port=9222", which opens a debugging port .* It is left out\./);
    assert.match(problems[2].message, /another profile .* use playwrightBridge\.profile instead/);
  });
});

describe('isolation a workspace cannot loosen', () => {
  it("perClient from any level wins: a cloned workspace cannot set shared over the person's perClient", () => {
    const isolation = (levels: Partial<Record<SettingLevel, unknown>>) => readLevels({ isolation: levels }).settings.isolation;
    assert.strictEqual(isolation({ user: 'perClient', workspace: 'shared' }), 'perClient');
    assert.strictEqual(isolation({ user: 'shared', folder: 'perClient' }), 'perClient');
    assert.strictEqual(isolation({ workspace: 'shared' }), 'shared');
    assert.strictEqual(isolation({}), 'shared');
  });
});

describe('settings to child config', () => {
  const paths = { storageDir: '/storage/ws1', workspaceFolders: ['/home/me/project'] };

  it('keeps a persistent profile per workspace under the extension storage, never the shared default', () => {
    const config = buildChildConfig(DEFAULT_SETTINGS, paths, false, p => p === '/opt/google/chrome/chrome');
    assert.strictEqual(config.userDataDir, path.join('/storage/ws1', 'profile', 'chrome'), 'auto found Chrome; the profile is named for it');
    assert.strictEqual(config.mcp.outputDir, path.join('/storage/ws1', 'output', 'playwright-bridge'));
    assert.strictEqual(config.outputBudgetBytes, 50 * 1024 * 1024);
    assert.ok(!('outputMaxSize' in config.mcp), "upstream's own budget is off: it deletes files the bridge did not write");
    assert.deepStrictEqual(config.roots, ['/home/me/project']);
    assert.strictEqual(config.chromiumSandbox, true);
    assert.strictEqual(config.mcp.timeouts.idle, 0);
  });

  it('passes capabilities, viewport, arguments and timeouts through', () => {
    const { settings } = readSettings(
      key =>
        (
          ({
            profile: 'isolated',
            'capabilities.network': true,
            viewport: '800x600',
            launchArgs: ['--lang=fr'],
            'timeouts.actionMs': 1234,
            outputDir: '/out',
          }) as Record<string, unknown>
        )[key],
    );
    const config = buildChildConfig(settings, paths, false);
    assert.strictEqual(config.userDataDir, undefined);
    assert.deepStrictEqual(config.mcp.capabilities, ['network']);
    assert.deepStrictEqual(config.viewport, { width: 800, height: 600 });
    assert.deepStrictEqual(config.launchArgs, ['--lang=fr']);
    assert.strictEqual(config.mcp.timeouts.action, 1234);
    assert.strictEqual(config.mcp.outputDir, path.join('/out', 'playwright-bridge'), 'the bridge writes into a folder of its own inside the chosen one');
  });

  it('turns the Chromium sandbox off when running as root', () => {
    assert.strictEqual(buildChildConfig(DEFAULT_SETTINGS, paths, true).chromiumSandbox, false);
  });

  it('starts the child with the editor runtime as Node, its config and secrets on its private pipe, and a short temp folder', () => {
    const config = buildChildConfig(DEFAULT_SETTINGS, paths, false);
    const privateInput = { secrets: { PW: { value: 'v4lue', origins: ['https://a.example'] } }, connectHeaders: { Authorization: 'Bearer t0k' } };
    const spec = childSpawnSpec(config, {
      execPath: '/opt/code/code',
      childScript: '/ext/dist/child.js',
      baseEnv: { PATH: '/bin' },
      tmpDir: '/tmp/x/../y',
      privateInput,
    });
    assert.strictEqual(spec.command, '/opt/code/code');
    assert.deepStrictEqual(spec.args, ['/ext/dist/child.js']);
    assert.strictEqual(spec.env.ELECTRON_RUN_AS_NODE, '1');
    assert.strictEqual(spec.env.TMPDIR, '/tmp/y', 'no ".." in TMPDIR: downloads never finish with one');
    assert.deepStrictEqual(JSON.parse(spec.privateInput), { config, ...privateInput });
    const environment = JSON.stringify(spec.env);
    for (const text of ['v4lue', 'Bearer t0k', config.mcp.outputDir]) assert.ok(!environment.includes(text), `${text} is not in the environment`);
    assert.strictEqual(spec.cwd, config.mcp.outputDir);
  });
});
