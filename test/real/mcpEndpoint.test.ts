import * as assert from 'assert';
import { isHostTool } from '../../src/core/tools/toolRegistry';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { EndpointAddress, McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { FixtureServer } from '../fixtures/fixtureServer';
import { isToolEnabled, ManifestTool } from '../../src/core/tools/toolManifest';
import { connectMcpClient, makeRealBridge, RealBridge, REPO_ROOT, textOf, waitFor } from '../support/realBridge';

const connect = connectMcpClient;

/** A raw request, to send what a well-behaved client never would. */
function rawPost(address: EndpointAddress, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: address.port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      res => {
        let text = '';
        res.on('data', chunk => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('MCP endpoint on a real child and Chromium', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  let bridge: RealBridge;
  let endpoint: McpEndpoint;
  let address: EndpointAddress;
  const logs: string[] = [];

  before(async () => {
    await fixture.start();
    bridge = makeRealBridge();
    endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', line => logs.push(line));
    address = await endpoint.start();
  });
  after(async () => {
    await endpoint.dispose();
    await bridge.dispose();
    await fixture.stop();
  });

  it('listens on 127.0.0.1 only, with a 256-bit token', () => {
    assert.match(address.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(Buffer.from(address.token, 'base64url').length >= 32);
  });

  it('refuses requests without the token, with a wrong one, for a foreign Host or from a web page, and none reaches the child', async () => {
    const cases: [Record<string, string>, number][] = [
      [{}, 401],
      [{ authorization: `Bearer ${address.token.slice(0, -2)}xx` }, 401],
      [{ authorization: 'Basic abc' }, 401],
      [{ authorization: `Bearer ${address.token}`, host: `evil.example:${address.port}` }, 403],
      [{ authorization: `Bearer ${address.token}`, origin: 'http://127.0.0.1:9999' }, 403],
    ];
    for (const [headers, status] of cases) {
      const response = await rawPost(address, headers);
      assert.strictEqual(response.status, status, `${JSON.stringify(Object.keys(headers))} gave ${response.status}: ${response.body}`);
    }
    assert.strictEqual(bridge.supervisor.status.generation, 0, 'no refused request started the browser server');
    assert.strictEqual(endpoint.sessionCount, 0);
    assert.ok(
      logs.every(line => !line.includes(address.token)),
      'the token never reaches the log',
    );
  });

  it('lists and calls tools, and drives the same browser the other doors see', async () => {
    const client = await connect(address, 'first');
    try {
      const { tools } = await client.listTools();
      const declaredDefaults = (
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools as ManifestTool[]
      ).filter(t => isToolEnabled(t, []) && !isHostTool(t.name));
      // The host's own tools (bridge_export_test) are chat's only.
      assert.deepStrictEqual(
        tools.map(t => t.name).sort(),
        declaredDefaults.map(t => t.name).sort(),
        'the MCP door offers the tools the manifest declares for default settings',
      );
      assert.strictEqual(tools.find(t => t.name === 'browser_wait_for')?.annotations?.readOnlyHint, true, 'annotations come through');
      for (const writer of [
        'browser_snapshot',
        'browser_take_screenshot',
        'browser_console_messages',
        'browser_network_requests',
        'browser_network_request',
        'browser_find',
      ]) {
        assert.strictEqual(
          tools.find(t => t.name === writer)?.annotations?.readOnlyHint,
          false,
          `${writer} can write a named file: never read-only, so MCP clients ask first`,
        );
      }
      const nav = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/second` } })) as CallToolResult;
      assert.match(textOf(nav), /Page Title: Second Page/);
      // The language-model tools call the supervisor directly: they see the page the endpoint opened.
      const seen = await bridge.supervisor.callTool('browser_snapshot', {});
      assert.match(textOf(seen), /heading "Second page"/);
      assert.strictEqual(bridge.supervisor.status.generation, 1, 'one browser server for both doors');
    } finally {
      await client.close();
    }
  });

  it('serves two clients at once, each in its own session', async () => {
    const [a, b] = await Promise.all([connect(address, 'a'), connect(address, 'b')]);
    try {
      assert.strictEqual(endpoint.sessionCount >= 2, true);
      await a.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/second` } });
      const [ra, rb] = (await Promise.all([
        a.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }),
        b.callTool({ name: 'browser_snapshot', arguments: {} }),
      ])) as CallToolResult[];
      assert.ok(!ra.isError, textOf(ra));
      assert.match(textOf(rb), /Second page/);
      const bad = (await b.callTool({ name: 'browser_navigate', arguments: { url: 7 } })) as CallToolResult;
      assert.strictEqual(bad.isError, true);
      assert.ok(!textOf(bad).includes('\u001b['), 'no terminal colour codes');
    } finally {
      const before = endpoint.sessionCount;
      await (a.transport as StreamableHTTPClientTransport).terminateSession();
      assert.strictEqual(endpoint.sessionCount, before - 1, 'a client that ends its session is forgotten');
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('closes a session that stays idle past its limit', async () => {
    const idle = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined, { idleMs: 300, maxSessions: 8 });
    try {
      const where = await idle.start();
      const client = await connect(where, 'idle');
      assert.strictEqual(idle.sessionCount, 1);
      idle.sweep();
      assert.strictEqual(idle.sessionCount, 1, 'not idle yet');
      await new Promise(resolve => setTimeout(resolve, 400));
      idle.sweep();
      assert.strictEqual(idle.sessionCount, 0, 'an idle session is closed');
      await client.close();
    } finally {
      await idle.dispose();
    }
  });

  it('caps sessions: initializes that never end their session leave at most the cap, the longest idle making room', async () => {
    const capped = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined, { idleMs: 60_000, maxSessions: 4 });
    try {
      const where = await capped.start();
      let most = 0;
      for (let i = 0; i < 60; i++) {
        const response = await rawPost(where, { authorization: `Bearer ${where.token}` });
        assert.strictEqual(response.status, 200, response.body);
        most = Math.max(most, capped.sessionCount);
      }
      assert.strictEqual(most, 4);
      assert.strictEqual(capped.sessionsOpened, 60);
    } finally {
      await capped.dispose();
    }
  });

  it('refuses a new session clearly when every session is busy', async () => {
    const capped = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined, { idleMs: 60_000, maxSessions: 1 });
    try {
      const where = await capped.start();
      const busy = await connect(where, 'busy');
      const held = busy.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/hold` } });
      await waitFor(() => fixture.count('/hold') > 0, 10000, 'the held request to reach the fixture');
      const refused = await rawPost(where, { authorization: `Bearer ${where.token}` });
      assert.strictEqual(refused.status, 503);
      assert.match(refused.body, /Too many MCP sessions: all 1 are in use \(each is running a call;/);
      fixture.release();
      await held;
      const later = await rawPost(where, { authorization: `Bearer ${where.token}` });
      assert.strictEqual(later.status, 200, 'once the call ended its session is idle and makes room');
      await busy.close();
    } finally {
      await capped.dispose();
    }
  });

  it('closes its port on dispose', async () => {
    const extra = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
    const where = await extra.start();
    await extra.dispose();
    await assert.rejects(rawPost(where, { authorization: `Bearer ${where.token}` }), /ECONNREFUSED/);
  });
});
