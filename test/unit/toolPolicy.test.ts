import * as assert from 'assert';
import { DEFAULT_SETTINGS, NO_TOOL_ALLOWED, readSettings } from '../../src/core/settings/settings';
import { readLevels, type LevelValues } from '../support/settingLevels';
import { isToolOffered, OPEN_POLICY, toolOffContextKey, toolRefusal } from '../../src/core/tools/toolPolicy';
import { ToolPolicyKeys } from '../../src/vscode/toolPolicyKeys';
import { createFakeVscode } from '../support/fakeVscode';
import { BrowserSecrets } from '../../src/vscode/browserSecrets';

describe('tool policy: readonly mode, allow and deny lists', () => {
  it('offers every tool by default and refuses nothing', () => {
    assert.ok(isToolOffered('browser_run_code_unsafe', OPEN_POLICY));
    assert.strictEqual(toolRefusal('browser_click', { target: 'e1' }, OPEN_POLICY), undefined);
  });

  it('in readonly mode offers observation tools only, without their acting forms or files', () => {
    const readonly = { ...OPEN_POLICY, readonly: true };
    assert.ok(isToolOffered('browser_snapshot', readonly));
    assert.ok(!isToolOffered('browser_click', readonly));
    assert.match(toolRefusal('browser_evaluate', { function: '() => 1' }, readonly)!, /readonly mode \(playwrightBridge\.readonly\).*Nothing was done/);
    assert.strictEqual(toolRefusal('browser_tabs', { action: 'list' }, readonly), undefined);
    assert.match(toolRefusal('browser_tabs', { action: 'new' }, readonly)!, /only action "list"/);
    assert.match(toolRefusal('browser_snapshot', { filename: 'a.yml' }, readonly)!, /cannot save to a file/);
  });

  it('matches names and * patterns; deny wins over allow', () => {
    const policy = { readonly: false, allow: ['browser_network_*', 'browser_navigate'], deny: ['browser_network_request'] };
    assert.ok(isToolOffered('browser_network_requests', policy));
    assert.ok(isToolOffered('browser_navigate', policy));
    assert.ok(!isToolOffered('browser_network_request', policy));
    assert.ok(!isToolOffered('browser_click', policy));
    assert.ok(!isToolOffered('browser_navigate_back', policy), 'a pattern without * matches the whole name only');
    assert.ok(!isToolOffered('xbrowser_network_requests', { readonly: false, allow: ['browser_network_*'], deny: [] }), 'patterns are anchored');
  });

  it('lets a workspace narrow, never widen, what the user allows', () => {
    const settings = (levels: LevelValues) => readLevels(levels).settings;
    assert.strictEqual(settings({ readonly: { user: false, workspace: true } }).readonly, true);
    assert.strictEqual(settings({ readonly: { user: true, workspace: false } }).readonly, true, 'a workspace cannot turn it off');
    assert.deepStrictEqual(settings({ 'tools.deny': { user: ['a'], workspace: ['b', 'a'] } }).toolsDeny, ['a', 'b']);
    assert.deepStrictEqual(settings({ 'tools.allow': { user: ['a'], workspace: ['a', 'b'] } }).toolsAllow, ['a'], 'the workspace adds nothing');
    assert.deepStrictEqual(
      settings({ 'tools.allow': { user: ['browser_*'], workspace: ['browser_click', 'bridge_emulate'] } }).toolsAllow,
      ['browser_click'],
      "a workspace narrows the user's pattern to what both allow",
    );
    assert.deepStrictEqual(settings({ 'tools.allow': { workspace: ['b'] } }).toolsAllow, ['b'], 'a workspace may narrow "everything"');
    assert.deepStrictEqual(settings({ 'tools.allow': { user: ['a'], workspace: ['b'] } }).toolsAllow, [NO_TOOL_ALLOWED], 'none in common: none, never all');
    assert.deepStrictEqual(settings({ 'network.blockedOrigins': { user: ['https://a.test'], folder: ['https://b.test'] } }).blockedOrigins, [
      'https://a.test',
      'https://b.test',
    ]);
    assert.strictEqual(settings({}).readonly, false);
  });

  it('reads the lean-output and origin settings, refusing what upstream would not understand', () => {
    const values: Record<string, unknown> = {
      snapshotMode: 'none',
      imageResponses: 'omit',
      consoleLevel: 'error',
      'network.allowedOrigins': ['http://127.0.0.1:*', 'not an origin'],
      'network.blockedOrigins': ['https://ads.test'],
    };
    const { settings, problems } = readSettings(key => values[key]);
    assert.deepStrictEqual([settings.snapshotMode, settings.imageResponses, settings.consoleLevel], ['none', 'omit', 'error']);
    assert.deepStrictEqual(settings.allowedOrigins, ['http://127.0.0.1:*']);
    assert.deepStrictEqual(settings.blockedOrigins, ['https://ads.test']);
    assert.deepStrictEqual(
      problems.map(p => p.key),
      ['playwrightBridge.network.allowedOrigins'],
    );
    const bad = readSettings(key => (({ snapshotMode: 'some' }) as Record<string, unknown>)[key]);
    assert.strictEqual(bad.settings.snapshotMode, 'full');
    assert.match(bad.problems[0].message, /must be one of full, none/);
  });

  it('hides the language-model tools it turns off with one context key each, sending only changes', () => {
    const fake = createFakeVscode();
    const keys = new ToolPolicyKeys(fake.vscode, [{ name: 'browser_click' }, { name: 'browser_snapshot' }]);
    keys.apply(OPEN_POLICY, DEFAULT_SETTINGS);
    assert.strictEqual(fake.executed.length, 0, 'nothing to hide');
    keys.apply({ ...OPEN_POLICY, readonly: true }, DEFAULT_SETTINGS);
    assert.deepStrictEqual(
      fake.executed.map(e => [e.command, ...e.args]),
      [['setContext', toolOffContextKey('browser_click'), true]],
    );
    keys.apply(OPEN_POLICY, DEFAULT_SETTINGS);
    assert.deepStrictEqual(fake.executed.at(-1)?.args, [toolOffContextKey('browser_click'), false]);
    assert.strictEqual(fake.executed.length, 2);
  });
});

describe('secrets kept in SecretStorage', () => {
  function fakeContext() {
    const stored = new Map<string, string>();
    const state = new Map<string, unknown>();
    return {
      stored,
      context: {
        secrets: {
          get: async (key: string) => stored.get(key),
          store: async (key: string, value: string) => void stored.set(key, value),
          delete: async (key: string) => void stored.delete(key),
        },
        globalState: { get: (key: string) => state.get(key), update: async (key: string, value: unknown) => void state.set(key, value) },
      } as unknown as Pick<import('vscode').ExtensionContext, 'secrets' | 'globalState'>,
    };
  }

  it('asks for a plain name and the value in a password box, keeps the value only in SecretStorage, and deletes it', async () => {
    const fake = createFakeVscode();
    const { stored, context } = fakeContext();
    const secrets = new BrowserSecrets(fake.vscode, context);
    fake.answers.push('SITE_PASSWORD', 's3cret value', 'https://bank.example, http://127.0.0.1:3000/login');
    assert.strictEqual(await secrets.set('https://bank.example/login'), 'SITE_PASSWORD');
    assert.deepStrictEqual(
      fake.inputs.map(i => i.password),
      [false, true, false],
      'the value is typed into a password box',
    );
    assert.match(fake.inputs[2].title ?? '', /\(3\/3\)/, 'the third step asks for the sites');
    assert.deepStrictEqual(secrets.names(), ['SITE_PASSWORD']);
    assert.deepStrictEqual(await secrets.values(), { SITE_PASSWORD: { value: 's3cret value', origins: ['https://bank.example', 'http://127.0.0.1:3000'] } });
    assert.deepStrictEqual([...stored.values()], ['s3cret value'], 'the value lives in SecretStorage');

    fake.answers.push('OTHER', 'v', undefined);
    assert.strictEqual(await secrets.set(), undefined, 'cancelled at the sites: nothing is saved');
    assert.deepStrictEqual(secrets.names(), ['SITE_PASSWORD']);
    fake.answers.push('OTHER', 'v', 'https://*.bank.example');
    assert.strictEqual(await secrets.set(), undefined, 'a wildcard site is refused, and nothing is saved');
    assert.match(fake.inputs.at(-1)!.problem ?? '', /wildcards/);

    fake.answers.push('SITE_PASSWORD', 'http://localhost:3000');
    assert.strictEqual(await secrets.chooseSites(), 'SITE_PASSWORD');
    assert.deepStrictEqual(fake.inputs.at(-2)!.items, ['SITE_PASSWORD'], 'the secrets are listed to choose from');
    assert.deepStrictEqual(secrets.sites('SITE_PASSWORD'), ['http://localhost:3000'], 'its sites are edited later');

    fake.answers.push('not a name!');
    assert.strictEqual(await secrets.set(), undefined, 'an invalid name is not saved');
    assert.match(fake.inputs.at(-1)!.problem ?? '', /Letters, digits and _/);

    fake.answers.push('Authorization', 'Bearer t0ken');
    assert.strictEqual(await secrets.setConnectionCredentials(), 'Authorization');
    assert.deepStrictEqual(await secrets.connectionHeaders(), { Authorization: 'Bearer t0ken' });
    assert.strictEqual(fake.inputs.at(-1)!.password, true, 'the credential is typed into a password box');
    fake.answers.push('Authorization', '');
    await secrets.setConnectionCredentials();
    assert.deepStrictEqual(await secrets.connectionHeaders(), {}, 'an empty value removes the header');

    fake.answers.push('SITE_PASSWORD');
    assert.strictEqual(await secrets.remove(), 'SITE_PASSWORD');
    assert.deepStrictEqual(secrets.names(), []);
    assert.deepStrictEqual(secrets.sites('SITE_PASSWORD'), []);
    assert.ok(![...stored.values()].includes('s3cret value'));
  });
});
