import * as assert from 'assert';
import { NO_ORIGIN_ALLOWED, readSettings } from '../../src/core/settings/settings';
import { readLevels } from '../support/settingLevels';
import { originRuleCovers } from '../../src/core/settings/originRules';

function origins(values: Record<string, unknown>) {
  const { settings, problems } = readSettings(key => values[key]);
  return { allowed: settings.allowedOrigins, blocked: settings.blockedOrigins, problems: problems.map(p => `${p.key} ${p.message}`) };
}

describe('network origin rules read as upstream reads them', () => {
  it("accepts every form upstream matches: origins, any-port origins, host names, host:port and wildcards (an address's path is dropped, as upstream ignores it)", () => {
    const forms = [
      'https://example.com',
      'http://localhost:*',
      'https://*.example.com',
      'http://127.0.0.1:8080',
      'https://example.com/app',
      'example.com',
      'localhost:3000',
      '127.0.0.1',
      '*.example.com',
      'app-*.example.com',
      '[::1]:8080',
      'intranet:*',
      '*',
    ];
    const written = forms.filter(form => form !== 'https://example.com/app');
    const read = origins({ 'network.blockedOrigins': forms, 'network.allowedOrigins': forms });
    assert.deepStrictEqual(read.problems, []);
    assert.deepStrictEqual(read.blocked, written);
    assert.deepStrictEqual(read.allowed, written);
  });

  it('leaves out what upstream would not act on and says why and which forms work', () => {
    const read = origins({ 'network.blockedOrigins': ['example.com/path', 'ws://example.com', 'file:///etc', 'exa mple.com', 'example.com'] });
    assert.deepStrictEqual(read.blocked, ['example.com']);
    assert.strictEqual(read.problems.length, 4, read.problems.join('\n'));
    assert.match(read.problems[0], /blockedOrigins holds "example\.com\/path", which is not an origin or host name .*example\.com, localhost:3000/);
    assert.match(read.problems[1], /"ws:\/\/example\.com", which is a ws: address; origin rules apply only to http and https requests/);
  });

  it('an allow list that loses every entry allows nothing and says so, never "all"', () => {
    const read = origins({ 'network.allowedOrigins': ['example.com/app', 'chrome-extension://abc'] });
    assert.deepStrictEqual(read.allowed, [NO_ORIGIN_ALLOWED]);
    assert.match(read.problems.join('\n'), /allowedOrigins has no entry left, so the browser may request none \(an empty list would allow all\)/);
    assert.deepStrictEqual(origins({ 'network.allowedOrigins': [] }).allowed, [], 'an empty list as written is upstream\'s "all"');
  });

  it("knows which rule covers which, as upstream's URL globs match", () => {
    // Each pair was checked against upstream's own route globs in Chromium: `*` never crosses `/`, no port means the default one.
    assert.ok(originRuleCovers('example.com', 'https://example.com'));
    assert.ok(originRuleCovers('example.com', 'http://example.com'));
    assert.ok(!originRuleCovers('https://example.com', 'example.com'), 'a host rule also matches http');
    assert.ok(!originRuleCovers('example.com', 'example.com:8080'));
    assert.ok(originRuleCovers('*.example.com', 'https://a.b.example.com'));
    assert.ok(originRuleCovers('*.example.com', '*.app.example.com'));
    assert.ok(!originRuleCovers('*.example.com', 'example.com'));
    assert.ok(!originRuleCovers('*.example.com', '*example.com'), '*example.com also matches evilexample.com');
    assert.ok(!originRuleCovers('*.example.com', '*'));
    assert.ok(originRuleCovers('http://localhost:*', 'http://localhost:3000'));
    assert.ok(!originRuleCovers('http://localhost:*', 'http://localhost'), "upstream's any-port glob needs a port in the URL");
    assert.ok(!originRuleCovers('http://localhost:*', 'localhost:3000'), 'a host rule also matches https');
    assert.ok(originRuleCovers('localhost:*', 'http://localhost:3000'));
    assert.ok(originRuleCovers('*', 'https://example.com:8443'));
  });

  it('narrows host-name allow lists across levels like origin ones', () => {
    const allowed = (user: string[], workspace: string[]) => readLevels({ 'network.allowedOrigins': { user, workspace } }).settings.allowedOrigins;
    assert.deepStrictEqual(allowed(['*.example.com'], ['https://app.example.com', 'evil.test']), ['https://app.example.com']);
    assert.deepStrictEqual(allowed(['https://example.com'], ['example.com']), ['https://example.com'], "the workspace's host rule would add http");
    assert.deepStrictEqual(allowed(['example.com'], ['*']), ['example.com']);
    assert.deepStrictEqual(allowed(['example.com'], ['*.evil.test']), [NO_ORIGIN_ALLOWED]);
  });
});
