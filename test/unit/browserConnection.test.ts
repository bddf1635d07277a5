import * as assert from 'assert';
import { endpointHoldsCredentials, isLoopbackHost, parseConnection, redactEndpoint } from '../../src/core/settings/browserConnection';
import { readSettings } from '../../src/core/settings/settings';

describe('connecting to a browser elsewhere: the settings', () => {
  it('tells a Playwright server from a CDP endpoint by its address', () => {
    const kind = (endpoint: string) => {
      const parsed = parseConnection(endpoint, {}, false);
      return 'connection' in parsed ? parsed.connection.protocol : parsed.problem;
    };
    assert.strictEqual(kind('ws://127.0.0.1:3000/'), 'playwright');
    assert.strictEqual(kind('http://127.0.0.1:9222'), 'cdp');
    assert.strictEqual(kind('ws://localhost:9222/devtools/browser/abc'), 'cdp');
    assert.match(kind('ftp://127.0.0.1/') as string, /must start with ws/);
    assert.match(kind('not a url') as string, /is not an address/);
  });

  it('keeps to loopback unless the person allows another machine', () => {
    assert.ok(isLoopbackHost('127.0.0.1') && isLoopbackHost('127.1.2.3') && isLoopbackHost('localhost') && isLoopbackHost('[::1]'));
    assert.ok(!isLoopbackHost('192.168.1.5') && !isLoopbackHost('127.0.0.1.evil.test'));
    const refused = parseConnection('ws://browsers.example.test:3000/', {}, false);
    assert.ok('problem' in refused && /allowNonLoopback/.test(refused.problem));
    assert.ok('connection' in parseConnection('ws://browsers.example.test:3000/', {}, true));
  });

  it('reads the connection from settings, and falls back to launching with a warning when it is unusable', () => {
    const values: Record<string, unknown> = { 'connect.endpoint': 'ws://127.0.0.1:3000/', 'connect.headers': { 'x-a': 'b' } };
    const { settings, problems } = readSettings(key => values[key]);
    assert.deepStrictEqual(problems, []);
    assert.strictEqual(settings.connection?.protocol, 'playwright');
    assert.deepStrictEqual(settings.connection?.headers, { 'x-a': 'b' });
    const remote = readSettings(key => (({ 'connect.endpoint': 'http://10.0.0.8:9222' }) as Record<string, unknown>)[key]);
    assert.strictEqual(remote.settings.connection, undefined);
    assert.match(remote.problems[0].message, /Launching a browser here instead/);
  });

  it('hides user names, passwords, queries and fragments of every address in a text, and nothing else', () => {
    assert.strictEqual(redactEndpoint('ws://admin:pw@127.0.0.1:3000/'), 'ws://***@127.0.0.1:3000/');
    assert.strictEqual(redactEndpoint('wss://grid.example.test/playwright?token=abc&browser=chromium'), 'wss://grid.example.test/playwright?…');
    assert.strictEqual(redactEndpoint('http://u:p%40ss@127.0.0.1:9222#frag'), 'http://***@127.0.0.1:9222?…');
    assert.strictEqual(redactEndpoint('ws://user:p@ss@host:1/x'), 'ws://***@host:1/x', 'up to the last @ before the path');
    assert.strictEqual(redactEndpoint('ws://127.0.0.1:3000/'), 'ws://127.0.0.1:3000/', 'an address without credentials is unchanged');
    assert.strictEqual(
      redactEndpoint('connect ws://a:b@h:1/?t=1 failed; retried "http://c:d@h:2/json?k=2".'),
      'connect ws://***@h:1/?… failed; retried "http://***@h:2/json?…".',
    );
    assert.ok(endpointHoldsCredentials('ws://admin:pw@127.0.0.1:3000/') && endpointHoldsCredentials('ws://127.0.0.1:3000/?token=x'));
    assert.ok(endpointHoldsCredentials('wss://h/?apiKey=1') && !endpointHoldsCredentials('ws://127.0.0.1:3000/?browser=firefox'));
    const summary = (parseConnection('ws://admin:pw@127.0.0.1:3000/?token=x', {}, false) as { connection: { summary: string } }).connection.summary;
    assert.strictEqual(summary, 'a Playwright server at ws://***@127.0.0.1:3000/?… (connected, not started by the bridge)');
    assert.ok(!/admin|pw|token/.test(JSON.stringify(parseConnection('admin:pw@host?token=x', {}, false))), 'an unusable address is not quoted');
  });

  it('shows no credentials of an endpoint in an odd spelling: no slashes, a backslash, quotes or a space in the password', () => {
    for (const endpoint of [
      'ws:admin:pw-1@127.0.0.1:3000/',
      'ws:/admin:pw-1@127.0.0.1:3000/',
      'ws:\\\\admin:pw-1@127.0.0.1:3000/',
      'ws://admin:pw-1"x y<z>@127.0.0.1:3000/?token=t0k',
    ]) {
      const parsed = parseConnection(endpoint, {}, false);
      assert.ok('connection' in parsed, `${endpoint}: ${JSON.stringify(parsed)}`);
      const { summary, endpoint: kept } = parsed.connection;
      assert.ok(!/admin|pw-1|t0k/.test(summary), `${endpoint} shown as ${summary}`);
      assert.ok(!/admin|pw-1|t0k/.test(redactEndpoint(`lost ${kept}.`)), `${endpoint} in a message: ${redactEndpoint(`lost ${kept}.`)}`);
    }
  });
});
