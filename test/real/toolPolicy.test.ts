import * as assert from 'assert';
import * as fs from 'fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { isObservationTool } from '../../src/core/tools/toolPolicy';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, RealBridge, REPO_ROOT, textOf, waitFor } from '../support/realBridge';
import * as path from 'path';

/** Every tool of the pinned server with every capability group, from the manifest. */
const ALL_TOOLS: { name: string }[] = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools;

/** The bridge's MCP door with one client connected; close both with `done`. */
async function mcpClient(bridge: RealBridge, name: string): Promise<{ client: Client; done(): Promise<void> }> {
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
  const address = await endpoint.start();
  const client = await connectMcpClient(address, name);
  return {
    client,
    done: async () => {
      await client.close();
      await endpoint.dispose();
    },
  };
}

/** Arguments that would be valid for each tool (so a refusal is the policy's, not the schema's). */
function plausibleArgs(name: string, url: string): Record<string, unknown> {
  if (name === 'browser_navigate') return { url };
  if (name === 'browser_tabs') return { action: 'new', url };
  return {};
}

describe('readonly mode, tool lists and origin rules on a real child and Chromium', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('refuses every non-observation tool at both doors, before any browser starts, and lists only observation tools', async () => {
    const bridge = makeRealBridge({ capabilities: ['config', 'network', 'pdf', 'storage', 'testing', 'vision', 'devtools'], readonly: true });
    const { client, done } = await mcpClient(bridge, 'readonly-check');
    try {
      const acting = ALL_TOOLS.map(t => t.name).filter(name => !isObservationTool(name));
      assert.ok(acting.length > 50, `the manifest has the acting tools (${acting.length})`);
      for (const name of acting) {
        const viaTool = await bridge.supervisor.callTool(name, plausibleArgs(name, fixture.url), { door: 'tool' });
        assert.ok(viaTool.isError && /readonly mode/.test(textOf(viaTool)), `${name} at the language-model door: ${textOf(viaTool)}`);
        const viaMcp = (await client.callTool({ name, arguments: plausibleArgs(name, fixture.url) })) as CallToolResult;
        assert.ok(viaMcp.isError && /readonly mode/.test(textOf(viaMcp)), `${name} at the MCP door: ${textOf(viaMcp)}`);
      }
      assert.strictEqual(bridge.supervisor.running, false, 'no refused call started the browser server');
      assert.strictEqual(fixture.count('/'), 0, 'nothing reached the fixture');

      // Listing starts the server; it offers only observation tools.
      const listed = (await client.listTools()).tools.map(t => t.name).sort();
      assert.ok(listed.length > 0 && listed.every(name => isObservationTool(name)), listed.join(', '));
      assert.ok(listed.includes('browser_snapshot') && listed.includes('browser_console_messages'), listed.join(', '));

      // Observation works; its acting forms do not.
      const snapshot = await bridge.supervisor.callTool('browser_snapshot', {}, { door: 'tool' });
      assert.ok(!snapshot.isError, textOf(snapshot));
      const listTabs = await bridge.supervisor.callTool('browser_tabs', { action: 'list' }, { door: 'mcp' });
      assert.ok(!listTabs.isError, textOf(listTabs));
      const closeTab = await bridge.supervisor.callTool('browser_tabs', { action: 'close', index: 0 }, { door: 'mcp' });
      assert.match(textOf(closeTab), /only action "list"/);
      const toFile = await bridge.supervisor.callTool('browser_take_screenshot', { filename: 'shot.png' }, { door: 'tool' });
      assert.match(textOf(toFile), /cannot save to a file in readonly mode/);
      assert.ok(!fs.existsSync(path.join(bridge.config.mcp.outputDir, 'shot.png')), 'no file written');

      // Turned off, at once: the MCP client hears the list changed and may act.
      let changed = false;
      client.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ToolListChangedNotificationSchema, async () => {
        changed = true;
      });
      bridge.policy.readonly = false;
      bridge.supervisor.toolPolicyChanged();
      await waitFor(() => changed, 5000, 'tools/list_changed after readonly mode was turned off');
      assert.ok((await client.listTools()).tools.some(t => t.name === 'browser_click'));
      const navigated = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/` } })) as CallToolResult;
      assert.ok(!navigated.isError, textOf(navigated));
    } finally {
      await done();
      await bridge.dispose();
    }
  });

  it('honours the allow and deny lists at both doors, with patterns', async () => {
    const bridge = makeRealBridge({ toolsAllow: ['browser_navigate', 'browser_snapshot', 'browser_network_*'], toolsDeny: ['browser_network_request'] });
    const { client, done } = await mcpClient(bridge, 'lists-check');
    try {
      const listed = (await client.listTools()).tools.map(t => t.name).sort();
      assert.deepStrictEqual(listed, ['browser_navigate', 'browser_network_requests', 'browser_snapshot']);
      const click = await bridge.supervisor.callTool('browser_click', { target: 'e1' }, { door: 'tool' });
      assert.match(textOf(click), /not in the allowed tools \(playwrightBridge\.tools\.allow\)/);
      const denied = (await client.callTool({ name: 'browser_network_request', arguments: { index: 1 } })) as CallToolResult;
      assert.match(textOf(denied), /playwrightBridge\.tools\.deny holds "browser_network_request"/);
      const navigated = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/` } })) as CallToolResult;
      assert.ok(!navigated.isError, textOf(navigated));
    } finally {
      await done();
      await bridge.dispose();
    }
  });

  it("blocks the origins the person blocked, says so to the model, and marks the request in the panel's list", async () => {
    const bridge = makeRealBridge({ blockedOrigins: ['http://localhost:*'] });
    try {
      const network: { url: string; failure?: string }[] = [];
      bridge.supervisor.onObservation(event => {
        if (event.kind === 'network') network.push(event.entry);
      });
      bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });
      const allowed = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(!allowed.isError, textOf(allowed));
      const blockedUrl = `http://localhost:${new URL(fixture.url).port}/second`;
      const blocked = await bridge.supervisor.callTool('browser_navigate', { url: blockedUrl });
      assert.ok(blocked.isError, textOf(blocked));
      assert.match(textOf(blocked), /blocked by the origin rules .* set by the person/);
      assert.strictEqual(fixture.count('/second'), 0, 'the blocked request never reached the server');
      await waitFor(() => network.some(n => n.url === blockedUrl && n.failure), 5000, 'the blocked request in the network list');
      const row = network.filter(n => n.url === blockedUrl).at(-1)!;
      assert.match(row.failure!, /blocked by the origin rules \(playwrightBridge\.network\.allowedOrigins \/ blockedOrigins\)/);
    } finally {
      await bridge.dispose();
    }
  });
});
