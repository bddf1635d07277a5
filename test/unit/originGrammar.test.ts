/**
 * network.allowedOrigins / blockedOrigins entries read by a strict grammar into a rule (scheme, host pattern, port)
 * and handed to upstream written back from that rule (issue 42). Upstream's own matching decides here: its
 * `originOrHostGlob` read from the installed playwright-core (it is not exported) and its exported `urlMatches`,
 * so a test fails when the bridge and upstream read an entry differently, whatever upstream's version.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { readLevels } from '../support/settingLevels';

type UrlMatches = (baseURL: string | undefined, url: string, glob: string) => boolean;
// Upstream's internal bundle has no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const upstreamCore = require('playwright-core/lib/coreBundle') as { iso: { urlMatches: UrlMatches } };

/** Upstream's `originOrHostGlob` (how an allowed or blocked origin becomes a route glob), taken from its bundle as it is. */
const originOrHostGlob: (entry: string) => string = (() => {
  const source = fs.readFileSync(require.resolve('playwright-core/lib/coreBundle'), 'utf8');
  const start = source.indexOf('function originOrHostGlob(');
  assert.ok(start >= 0, "upstream's originOrHostGlob is in its bundle");
  const end = source.indexOf('\n}\n', start);
  return new Function(`${source.slice(start, end + 2)}\nreturn originOrHostGlob;`)() as (entry: string) => string;
})();

const matched = new Map<string, boolean>();
/** Whether upstream's routes, given `list`, match `url` (an allow list lets it through; a block list stops it). */
function upstreamMatches(list: readonly string[], url: string): boolean {
  return list.some(entry => {
    const key = `${entry}\n${url}`;
    if (!matched.has(key)) matched.set(key, upstreamCore.iso.urlMatches(undefined, url, originOrHostGlob(entry)));
    return matched.get(key)!;
  });
}

function read(list: 'network.allowedOrigins' | 'network.blockedOrigins', levels: { user?: unknown; workspace?: unknown }) {
  const { settings, problems } = readLevels({ [list]: levels });
  return {
    value: list === 'network.allowedOrigins' ? settings.allowedOrigins : settings.blockedOrigins,
    problems: problems.map(p => `${p.level}: ${p.key} ${p.message}`),
  };
}

describe('origin entries parsed into rules and handed to upstream as written back from them (issue 42)', () => {
  it('writes each accepted form back in one canonical form: lowercase scheme and host, no default port, "*" only where the rule means it', () => {
    const canonical: [string, string][] = [
      ['https://example.com', 'https://example.com'],
      ['HTTPS://Example.COM', 'https://example.com'],
      ['https://example.com:443', 'https://example.com'],
      ['https://example.com/app', 'https://example.com'],
      ['http://localhost:*', 'http://localhost:*'],
      ['HTTP://evil.test:*', 'http://evil.test:*'],
      ['Http://*.LocalHost:*', 'http://*.localhost:*'],
      ['http://127.0.0.1:08080', 'http://127.0.0.1:8080'],
      ['example.com', 'example.com'],
      ['EXAMPLE.COM', 'example.com'],
      ['localhost:3000', 'localhost:3000'],
      ['LocalHost:03000', 'localhost:3000'],
      ['*.example.com', '*.example.com'],
      ['app-*.example.com', 'app-*.example.com'],
      ['127.1', '127.0.0.1'],
      ['[0:0::1]:8080', '[::1]:8080'],
      ['intranet:*', 'intranet:*'],
      ['*', '*'],
    ];
    for (const list of ['network.allowedOrigins', 'network.blockedOrigins'] as const) {
      const { value, problems } = read(list, { user: canonical.map(([given]) => given) });
      assert.deepStrictEqual(problems, [], list);
      assert.deepStrictEqual(value, [...new Set(canonical.map(([, written]) => written))], list);
    }
  });

  it('refuses what is not an origin or host pattern, saying why and how to write it', () => {
    const refused: [string, RegExp][] = [
      ['http://**.localhost:*', /"\*\*".*across "\/".*one "\*"/],
      ['**.example.com', /"\*\*".*across "\/"/],
      ['HTTP://*?.localhost:*', /"\?".*query/],
      ['https://example.com?x=1', /"\?".*query/],
      ['https://example.com#top', /"#"/],
      ['{a,b}.example.com', /"\{".*letters, digits/],
      ['evil.test\\*.example.com', /"\\".*letters, digits/],
      ['user@example.com', /"@"/],
      ['example.com/path', /not an origin or host name.*scheme/],
      ['a..example.com', /empty part between dots/],
      ['.example.com', /empty part between dots/],
      ['localhost:99999', /port "99999".*1 to 65535/],
      ['localhost:3x', /port "3x"/],
      ['http://[::1]:*', /IPv6.*\[::1\]:\*/],
      ['http:8080', /upstream reads it as the address http:\/\/0\.0\.31\.144/],
      ['http:*', /upstream reads it as the address http:\/\/\*/],
      ['http://*.1', /not an address.*\*\.1/],
      ['999.1.1.1', /not a host name or IP address/],
      ['ws://example.com', /ws: address; origin rules apply only to http and https/],
      ['exa mple.com', /space/],
    ];
    for (const [entry, why] of refused) {
      const { value, problems } = read('network.blockedOrigins', { user: [entry] });
      assert.deepStrictEqual(value, [], `${entry} is left out`);
      assert.strictEqual(problems.length, 1, `${entry}: ${problems.join('\n')}`);
      assert.match(problems[0], new RegExp(`holds "${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}", which `), problems[0]);
      assert.match(problems[0], why, problems[0]);
    }
  });

  it("keeps none of the reviewer's workspace entries over the person's list, and tells the person which and why", () => {
    const cases: { user: string; workspace: string; why: RegExp }[] = [
      { user: 'http://*.localhost:*', workspace: 'http://**.localhost:*', why: /"\*\*"/ },
      { user: 'http://*.localhost:*', workspace: 'HTTP://*?.localhost:*', why: /"\?"/ },
      { user: '*.example.com', workspace: '**.example.com', why: /"\*\*"/ },
    ];
    for (const { user, workspace, why } of cases) {
      const { value, problems } = read('network.allowedOrigins', { user: [user], workspace: [workspace] });
      assert.ok(!value.some(entry => entry !== user && entry !== 'https://no-origin-allowed.invalid'), `${workspace} over ${user}: ${JSON.stringify(value)}`);
      const said = problems.filter(p => p.startsWith('workspace: ') && p.includes(`"${workspace}"`));
      assert.strictEqual(said.length, 1, `${workspace}: ${problems.join('\n')}`);
      assert.match(said[0], why);
    }
    // What upstream is given lets none of the reviewer's pages through.
    const given = read('network.allowedOrigins', { user: ['http://*.localhost:*'], workspace: ['http://**.localhost:*', 'HTTP://*?.localhost:*'] }).value;
    assert.ok(!upstreamMatches(given, 'http://127.0.0.1:8080/x.localhost:1/secret-page'), JSON.stringify(given));
    assert.ok(!upstreamMatches(given, 'http://127.0.0.1:8080/any/page'), JSON.stringify(given));
    assert.ok(
      !upstreamMatches(read('network.allowedOrigins', { user: ['*.example.com'], workspace: ['**.example.com'] }).value, 'https://evil.test/a.example.com/'),
    );
  });

  it('an upper-case blocked origin is handed to upstream in the form upstream applies, and blocks what it names', () => {
    for (const entry of ['HTTP://evil.test:*', 'Https://evil.test:*', 'EVIL.TEST:*']) {
      const { value, problems } = read('network.blockedOrigins', { user: [entry] });
      assert.deepStrictEqual(problems, [], entry);
      const scheme = /^https/i.test(entry) ? 'https' : 'http';
      assert.ok(upstreamMatches(value, `${scheme}://evil.test:8443/`), `${entry} -> ${JSON.stringify(value)} blocks ${scheme}://evil.test:8443/`);
    }
  });

  it('an entry written back reads back as itself, and upstream turns it into the glob of the same rule: "<address>/**" or "*://<host>/**"', () => {
    const pieces = ['*', '**', 'a', '.', 'localhost', ':*', ':8080', ':0443', '[::1]', '[0::1]', 'EXAMPLE', '127.1', '?', '{a,b}', '\\', '/x', '@'];
    let accepted = 0;
    for (const scheme of ['', 'http://', 'https://', 'HTTP://', 'HTTPS://'])
      for (const a of pieces)
        for (const b of pieces)
          for (const tail of ['.example.com', '.localhost:*', ':80', '']) {
            const entry = `${scheme}${a}${b}${tail}`;
            const { value } = read('network.blockedOrigins', { user: [entry] });
            if (!value.length) continue;
            accepted++;
            const [written] = value;
            assert.deepStrictEqual(read('network.blockedOrigins', { user: [written] }), { value: [written], problems: [] }, `${entry} -> ${written}`);
            assert.strictEqual(originOrHostGlob(written), written.includes('://') ? `${written}/**` : `*://${written}/**`, `${entry} -> ${written}`);
          }
    assert.ok(accepted > 300, `accepted ${accepted}`);
  });

  it("every workspace entry kept over a person's list lets through, in upstream's own matching, only what the person's list does (fuzz)", () => {
    const people = [
      '*.example.com',
      'https://*.example.com',
      'http://*.localhost:*',
      'http://localhost:*',
      'example.com',
      '*.example.com:*',
      'https://a.example.com',
      'localhost:3000',
      '*',
    ];
    const pieces = ['*', '**', '{a,b}', 'a', '.', 'localhost', ':*', ':8080', '[::1]', 'EXAMPLE', '?', '\\*', '/'];
    const schemes = ['', 'http://', 'https://', 'HTTP://', 'Https://', '*://'];
    const tails = ['.example.com', '.localhost', '.localhost:*', ''];
    const urls = [
      'https://evil.test/a.example.com/',
      'http://evil.test/x.localhost:1/',
      'https://evil.test/',
      'http://127.0.0.1:9/x.example.com/',
      'https://a.example.com/',
      'https://b.example.com:8443/',
      'http://a.localhost:3000/',
      'http://localhost:3000/',
      'https://example.com/',
      'https://evil.test/?q=.example.com/',
      'https://evil.test/.example.com:1/',
      'http://evil.test:8080/',
      'ws://a.example.com/',
    ];
    const widenings = new Map<string, string>();
    let kept = 0;
    for (const user of people) {
      for (const scheme of schemes)
        for (const a of pieces)
          for (const b of pieces)
            for (const tail of tails) {
              const entry = `${scheme}${a}${b}${tail}`;
              const given = read('network.allowedOrigins', { user: [user], workspace: [entry] }).value;
              if (given.some(written => written !== user)) kept++;
              for (const url of urls) {
                if (upstreamMatches(given, url) && !upstreamMatches([user], url) && !widenings.has(`${user} ${url}`)) {
                  widenings.set(`${user} ${url}`, `${user} + workspace ${entry} -> ${JSON.stringify(given)} lets through ${url}`);
                }
              }
            }
    }
    assert.ok(kept > 100, `the fuzz keeps workspace entries at all (${kept})`);
    assert.deepStrictEqual([...widenings.values()], [], `${widenings.size} (person, page) pairs widened`);
  });
});
