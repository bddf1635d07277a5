import * as assert from 'assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, processesMentioning, refOf, textOf, waitFor } from '../support/realBridge';
import { secretLeaks, TRICKY_SECRET, UNTYPED_SECRET } from '../harden/secretLeaks';
import * as fs from 'fs';

// A space and a slash, so the URL forms (%20, +, %2F) must be masked too.
const SECRET_VALUE = 'Zq8 hunter2/Kx7!';

describe('secrets on a real child and Chromium', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('types a secret by its name and its value appears in no result, panel message, log line or browser environment', async () => {
    fixture.loginPassword = SECRET_VALUE;
    const bridge = makeRealBridge({}, {}, { secrets: { SITE_PASSWORD: { value: SECRET_VALUE, origins: [fixture.url] } } });
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
    const seen: string[] = [];
    store.onMessage(message => seen.push(JSON.stringify(message)));
    bridge.supervisor.onObservation(event => {
      if (event.kind !== 'frame') seen.push(JSON.stringify(event));
    });
    bridge.supervisor.onToolCall(record => seen.push(JSON.stringify({ ...record, thumbnail: undefined })));
    let client: Client | undefined;
    try {
      bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });
      const results: CallToolResult[] = [];
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await bridge.supervisor.callTool(name, args, { door: 'tool' });
        results.push(result);
        return textOf(result);
      };
      await call('browser_navigate', { url: `${fixture.url}/login` });
      const form = await call('browser_snapshot');
      await call('browser_type', { element: 'User', target: refOf(form, /textbox "User"/), text: 'ada' });
      // The model writes the secret's name; upstream types its value.
      await call('browser_type', { element: 'Password', target: refOf(form, /textbox "Password"/), text: 'SITE_PASSWORD' });
      await call('browser_click', { element: 'Sign in', target: refOf(form, /button "Sign in"/) });
      const account = await call('browser_snapshot');
      assert.match(account, /Welcome, ada/, 'signed in: the real value was typed');
      assert.strictEqual(fixture.count('/account'), 1);
      await call('browser_console_messages', { level: 'info' });
      await call('browser_network_requests', {});
      await call('browser_tabs', { action: 'list' });
      await call('browser_evaluate', { function: '() => location.href' });

      const address = await endpoint.start();
      const mcp = await connectMcpClient(address, 'secrets-check');
      client = mcp;
      for (const [name, args] of [
        ['browser_snapshot', {}],
        ['browser_console_messages', { level: 'info' }],
        ['browser_network_requests', {}],
      ] as const) {
        results.push((await mcp.callTool({ name, arguments: args })) as CallToolResult);
      }
      await waitFor(() => seen.some(line => line.includes('password was')), 5000, "the page's leaky console line in the panel");
      seen.push(JSON.stringify(store.snapshot()));

      const everything = [...results.map(textOf), ...seen, ...bridge.logs];
      const forms = [SECRET_VALUE, encodeURIComponent(SECRET_VALUE), new URLSearchParams({ v: SECRET_VALUE }).toString().slice(2)];
      for (const form of forms) {
        const leaks = everything.filter(text => text.includes(form));
        assert.deepStrictEqual(
          leaks.map(l => l.slice(0, 300)),
          [],
          `the value (as "${form}") leaked`,
        );
      }
      // Masked, not merely absent: the places that held it now say which secret it was.
      assert.ok(
        seen.some(line => line.includes('password was <secret>SITE_PASSWORD</secret>')),
        'the console line in the panel is masked',
      );
      assert.ok(
        seen.some(line => /account\?user=ada&pw=<secret>SITE_PASSWORD<\/secret>/.test(line)),
        'the URL in the network list is masked',
      );

      // The browser processes never had it in their environment.
      for (const pid of processesMentioning(bridge.scratch)) {
        let environ = '';
        try {
          environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        } catch {
          continue;
        }
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (/chrom/i.test(command)) assert.ok(!environ.includes(SECRET_VALUE), `browser process ${pid} inherited the secret`);
      }
    } finally {
      await client?.close().catch(() => undefined);
      await endpoint.dispose();
      store.dispose();
      await bridge.dispose();
    }
  });

  it('a hostile page, a frame of another site and a password of quotes and backslashes: refused where it does not belong, masked everywhere', async () => {
    const figures = await secretLeaks();
    assert.deepStrictEqual(figures.leakDetails, [], 'no value, in any spelling, in any place');
    assert.ok(figures.signedIn, 'on its own site the real value was typed and posted');
    const [page, form, frame, popup, selector, route, copy] = figures.refusals;
    assert.strictEqual(figures.refusals.length, 7, `every hostile attempt was refused: ${figures.refusals.join(' | ')}`);
    for (const refusal of [page, form, frame, popup]) {
      assert.match(refusal, /Refused to type the secret (SITE_PASSWORD|OTHER_TOKEN)/, 'the model is told which secret');
      assert.match(refusal, /http:\/\/127\.0\.0\.1:\d+/, 'and which origin it was asked for');
      assert.match(refusal, /Nothing was typed/);
    }
    assert.match(frame, /inside a frame of/, 'the frame is named as the reason');
    assert.match(popup, /this page is http:\/\/127\.0\.0\.1/, 'the popup of the bank did not move the check off the tab typed into');
    assert.match(selector, /give the field as its ref/, 'a selector is refused: it could match in another tab');
    assert.match(route, /routed requests in this browser/, 'a routed page is not the site it names');
    assert.match(copy, /Refused to press ControlOrMeta\+c/, 'no copy while secrets are set');
    assert.ok(figures.maskedInConsole, 'the JSON body logged to the console shows the name in the panel');
    assert.ok(figures.maskedInPickedElement, "the picked field's value attribute shows the name");
    assert.ok(figures.filesSearched >= 3, `the written console, network and snapshot files were searched (${figures.filesSearched})`);
  });

  it('the values are in no process environment: /proc/<pid>/environ of the child and every browser process', async () => {
    const bridge = makeRealBridge(
      {},
      {},
      {
        secrets: { SITE_PASSWORD: { value: TRICKY_SECRET, origins: [fixture.url] }, OTHER_TOKEN: { value: UNTYPED_SECRET, origins: [] } },
      },
    );
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` }, { door: 'tool' });
      const pids = [bridge.supervisor.status.pid!, ...processesMentioning(bridge.scratch)];
      assert.ok(pids.length >= 3, `the child and its browser processes were found (${pids.length})`);
      for (const pid of new Set(pids)) {
        let environ = '';
        try {
          environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        } catch {
          continue;
        }
        assert.ok(!environ.includes(TRICKY_SECRET) && !environ.includes(JSON.stringify(TRICKY_SECRET).slice(1, -1)), `process ${pid} holds SITE_PASSWORD`);
        assert.ok(!environ.includes(UNTYPED_SECRET), `process ${pid} holds OTHER_TOKEN, never typed`);
        // The configuration's JSON (PWD may name the output folder: Debian's chromium script sets it).
        assert.ok(!environ.includes('"outputBudgetBytes"'), `process ${pid} holds the child's configuration (where an endpoint's credentials would be)`);
      }
      assert.ok(
        bridge.logs.some(line => /Secrets available to type by name: SITE_PASSWORD \(http:\/\/127\.0\.0\.1:\d+\), OTHER_TOKEN \(no sites yet\)/.test(line)),
        'the child got them (by name, with their sites, in the log)',
      );
    } finally {
      await bridge.dispose();
    }
  });
});
