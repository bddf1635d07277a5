import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { LoginProfiles } from '../../src/core/profiles/loginProfiles';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, refOf, textOf } from '../support/realBridge';

describe('login profiles on a real child and Chromium', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  let scratch: string;
  before(() => fixture.start());
  after(() => fixture.stop());
  beforeEach(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-lp-'))));
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("a profile saved after a login by hand starts the next browser, and each client's own context, logged in", async () => {
    fixture.loginPassword = 'open sesame';
    const profiles = new LoginProfiles(path.join(scratch, 'login-profiles'));

    // The person logs in (here through the tools, as the panel's input would) and saves the profile.
    const first = makeRealBridge();
    try {
      await first.supervisor.callTool('browser_navigate', { url: `${fixture.url}/private` });
      assert.match(textOf(await first.supervisor.callTool('browser_snapshot', {})), /Sign in first/, 'a fresh browser is not logged in');
      await first.supervisor.callTool('browser_navigate', { url: `${fixture.url}/login` });
      const form = textOf(await first.supervisor.callTool('browser_snapshot', {}));
      await first.supervisor.callTool('browser_type', { element: 'User', target: refOf(form, /textbox "User"/), text: 'ada' });
      await first.supervisor.callTool('browser_type', { element: 'Password', target: refOf(form, /textbox "Password"/), text: 'open sesame' });
      await first.supervisor.callTool('browser_click', { element: 'Sign in', target: refOf(form, /button "Sign in"/) });
      await profiles.save('fixture', (await first.supervisor.ask('storageState', {})).state);
    } finally {
      await first.dispose();
    }
    assert.strictEqual(fs.statSync(profiles.pathOf('fixture')).mode & 0o777, 0o600);
    assert.match(profiles.read('fixture'), /"session"/);

    // After a restart (a new browser), with the profile chosen: the window's context is logged in,
    // and so is a client's own context with isolation perClient.
    const second = makeRealBridge({ isolation: 'perClient' }, { storageStatePath: profiles.pathOf('fixture') });
    const endpoint = new McpEndpoint(second.supervisor, '0.0.0-test', () => undefined);
    let client: Client | undefined;
    try {
      await second.supervisor.callTool('browser_navigate', { url: `${fixture.url}/private` });
      assert.match(textOf(await second.supervisor.callTool('browser_snapshot', {})), /Private area/, 'the window starts logged in');
      const address = await endpoint.start();
      const mcp = await connectMcpClient(address, 'profile-client');
      client = mcp;
      await mcp.callTool({ name: 'browser_navigate', arguments: { url: `${fixture.url}/private` } });
      const seen = textOf((await mcp.callTool({ name: 'browser_snapshot', arguments: {} })) as CallToolResult);
      assert.match(seen, /Private area/, "a client's own context starts logged in");
      assert.ok(!second.logs.some(line => line.includes('signed-in')), "the profile's content is in no log line");
    } finally {
      await client?.close().catch(() => undefined);
      await endpoint.dispose();
      await second.dispose();
    }
  });

  it('a broken profile stops the start with a message that names it and the fix', async () => {
    const broken = path.join(scratch, 'broken.json');
    fs.writeFileSync(broken, '{"cookies": [', { mode: 0o600 });
    const bridge = makeRealBridge({}, { storageStatePath: broken });
    try {
      const result = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(result.isError, textOf(result));
      assert.match(textOf(result), /login profile at .*broken\.json could not be used.*playwrightBridge\.loginProfile/s);
    } finally {
      await bridge.dispose();
    }
  });
});
