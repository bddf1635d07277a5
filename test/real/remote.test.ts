import * as assert from 'assert';
import { parseConnection } from '../../src/core/settings/browserConnection';
import { isAlive } from '../../src/core/childProcess/processTree';
import { ObservationEvent } from '../../src/protocol/childMessages';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, processesMentioning, RealBridge, refOf, textOf, waitFor } from '../support/realBridge';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CdpBrowser, PlaywrightServer, SERVER_LAUNCH_HEADERS } from '../support/remoteBrowsers';

function connectionTo(endpoint: string, headers: Record<string, string> = {}) {
  const parsed = parseConnection(endpoint, headers, false);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.connection;
}

/** The core scenario: a form filled and sent, seen in a snapshot; frames reach the panel. */
async function formScenario(bridge: RealBridge, fixtureUrl: string): Promise<void> {
  const frames: ObservationEvent[] = [];
  const subscription = bridge.supervisor.onObservation(event => {
    if (event.kind === 'frame') frames.push(event);
  });
  try {
    bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });
    const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixtureUrl}/` });
    assert.ok(!nav.isError, textOf(nav));
    const snapshot = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
    await bridge.supervisor.callTool('browser_type', { element: 'Your name', target: refOf(snapshot, /textbox "Your name"/), text: 'Remote' });
    await bridge.supervisor.callTool('browser_click', { element: 'Greet', target: refOf(snapshot, /button "Greet"/) });
    assert.match(textOf(await bridge.supervisor.callTool('browser_snapshot', {})), /Hello, Remote!/);
    await waitFor(() => frames.length > 0, 10000, 'a frame of the remote browser for the panel');
  } finally {
    subscription.dispose();
  }
}

describe('a browser that runs elsewhere (real Playwright server and CDP browser)', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('drives a loopback Playwright server, recovers after the server is killed and back, and leaves nothing of ours running', async () => {
    const server = new PlaywrightServer();
    await server.start();
    const bridge = makeRealBridge({ connection: connectionTo(server.endpoint, SERVER_LAUNCH_HEADERS) });
    try {
      await formScenario(bridge, fixture.url);
      assert.ok(server.pids.length > 1, 'the server launched the browser, not the bridge');

      server.kill();
      // The call that meets the dropped connection says so; the next, while the server is down, names it and the fix.
      const meets = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(meets.isError, textOf(meets));
      assert.match(textOf(meets), /went away during browser_navigate: .*The next call connects again|Could not reach/s);
      const whileDown = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(whileDown.isError, textOf(whileDown));
      assert.match(textOf(whileDown), new RegExp(`Could not reach the Playwright server at ${server.endpoint}.*connect\\.endpoint`, 's'));

      await server.start();
      const back = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(!back.isError, textOf(back));
      assert.match(textOf(back), /Second Page/);
      const told = [meets, whileDown, back].map(textOf).join('\n');
      assert.match(told, /state was lost|state are gone/i, 'the model is told its pages and state were lost');
    } finally {
      await bridge.dispose();
      assert.deepStrictEqual(processesMentioning(bridge.scratch), [], 'nothing of ours is left running');
      server.kill();
    }
  });

  it('drives a Chromium over CDP in a tab of its own, and never closes that browser: not on Restart Browser, not on dispose', async () => {
    const person = new CdpBrowser();
    await person.start();
    const bridge = makeRealBridge({ connection: connectionTo(person.endpoint) });
    try {
      await formScenario(bridge, fixture.url);
      const tabs = await person.pages();
      assert.ok(
        tabs.some(t => t.url === 'about:blank'),
        `the person's own tab is untouched: ${JSON.stringify(tabs)}`,
      );
      assert.ok(
        tabs.some(t => t.url.startsWith(fixture.url)),
        'the agent worked in a tab of its own',
      );

      await bridge.supervisor.restart('test');
      assert.ok(person.pid && isAlive(person.pid), 'Restart Browser reconnects and leaves the browser running');
      const again = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(!again.isError, textOf(again));

      await bridge.dispose();
      assert.ok(person.pid && isAlive(person.pid), 'closing the bridge leaves the browser running');
      assert.deepStrictEqual(processesMentioning(bridge.scratch), [], 'nothing of ours is left running');
      assert.ok(
        (await person.pages()).some(t => t.url === 'about:blank'),
        'and its own tab is still there',
      );
    } finally {
      await bridge.dispose();
      person.stop();
    }
  });

  it("never shows an endpoint's user name, password or token: not to the model (connected, lost, unreachable), not in the log, panel or status", async () => {
    const [user, password, token] = ['grid-admin', 'Pa55-wd-91x', 'tok-5e2c91f0'];
    const server = new PlaywrightServer();
    await server.start();
    // The loopback server ignores userinfo and the query; a grid would check them.
    const endpoint = `ws://${user}:${password}@127.0.0.1:${server.port}/?token=${token}`;
    const bridge = makeRealBridge({ connection: connectionTo(endpoint, SERVER_LAUNCH_HEADERS) });
    const seen: string[] = [];
    const subscriptions = [
      bridge.supervisor.onDidChangeHealth(health => seen.push(JSON.stringify(health))),
      bridge.supervisor.onObservation(event => {
        if (event.kind !== 'frame') seen.push(JSON.stringify(event));
      }),
      bridge.supervisor.onDidChangeStatus(status => seen.push(JSON.stringify(status))),
      bridge.supervisor.onToolCall(call => seen.push(JSON.stringify(call))),
    ];
    try {
      const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(!nav.isError, textOf(nav));
      server.kill();
      const lost = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      const unreachable = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(lost.isError && unreachable.isError, `${textOf(lost)}\n${textOf(unreachable)}`);
      assert.match(textOf(unreachable), /Could not reach the Playwright server at ws:\/\/\*\*\*@127\.0\.0\.1:\d+\/\?… .*Set Connection Credentials/s);
      const everything = [nav, lost, unreachable].map(textOf).concat(bridge.logs, seen, [bridge.config.connection!.summary]).join('\n');
      for (const secret of [user, password, token]) assert.ok(!everything.includes(secret), `"${secret}" shown:\n${everything}`);
      assert.match(everything, /was lost|went away/, 'the lost connection was reported (and checked)');
    } finally {
      for (const subscription of subscriptions) subscription.dispose();
      await bridge.dispose();
      server.kill();
    }
  });

  it('never shows the credentials of a CDP endpoint it cannot reach, at either door', async () => {
    const [password, token] = ['cdp-Pa55-42', 'tok-cdp-77aa'];
    const bridge = makeRealBridge({ connection: connectionTo(`http://someone:${password}@127.0.0.1:9/json?token=${token}`) });
    const door = new McpEndpoint(bridge.supervisor, 'test', () => undefined);
    try {
      const result = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(result.isError);
      assert.match(textOf(result), /Could not reach the browser's DevTools \(CDP\) endpoint at http:\/\/\*\*\*@127\.0\.0\.1:9\/json\?… /);
      // The MCP door: an outside client's call meets the same endpoint.
      const client = await connectMcpClient(await door.start(), 'outside');
      const outside = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/` } }, undefined, {
        timeout: 120000,
      })) as CallToolResult;
      await client.close();
      assert.ok(outside.isError);
      assert.match(textOf(outside), /Could not reach the browser's DevTools \(CDP\) endpoint at http:\/\/\*\*\*@/);
      const everything = [textOf(result), textOf(outside), ...bridge.logs].join('\n');
      for (const secret of [password, token, 'someone']) assert.ok(!everything.includes(secret), `"${secret}" shown:\n${everything}`);
    } finally {
      await door.dispose();
      await bridge.dispose();
    }
  });

  it('refuses an endpoint on another machine unless allowed, and names an unreachable one and the fix', async () => {
    const refused = parseConnection('ws://192.0.2.10:3000/', {}, false);
    assert.ok('problem' in refused && /connect\.allowNonLoopback/.test(refused.problem));
    assert.ok('connection' in parseConnection('ws://192.0.2.10:3000/', {}, true));
    const port = (await new PlaywrightServer()).port;
    const bridge = makeRealBridge({ connection: connectionTo(`http://127.0.0.1:${port || 9}`) });
    try {
      const result = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(result.isError);
      assert.match(textOf(result), /Could not reach the browser's DevTools \(CDP\) endpoint at http:\/\/127\.0\.0\.1:\d+ .*Start it/s);
    } finally {
      await bridge.dispose();
    }
  });
});
