/**
 * Isolation `perClient`, attacked: client A holds the same bearer token as client B (they are two agents
 * of one window) and tries to see B's session, drive it, read its HttpOnly cookie, and push it out with a
 * flood of initializes. Real child, real Chromium, real endpoint, the fixture site as the victim's site.
 */
import * as assert from 'assert';
import { randomBytes, randomUUID } from 'crypto';
import { FixtureServer } from '../fixtures/fixtureServer';
import { DoorClient, INITIALIZE_BODY, openDoor, RealDoor, rawMcpPost, textOf } from '../support/realBridge';

/** A's code that walks every context of the browser it runs beside and returns every cookie it finds. */
const STEAL_COOKIES =
  'async (page) => { const found = []; for (const context of page.context().browser().contexts()) ' +
  'found.push(...(await context.cookies()).map(c => c.name + "=" + c.value)); return found.join("; "); }';

/** B signs in on the fixture site (its session is an HttpOnly cookie) and the window opens a password-reset link. */
async function victims(d: RealDoor, fixture: FixtureServer) {
  const b = await d.connect('victim-b');
  const sid = `sid-${randomBytes(8).toString('hex')}`;
  const signedIn = await b.call('browser_navigate', { url: `${fixture.url}/session-login?sid=${sid}` });
  assert.match(signedIn.text, /Signed In/, signedIn.text);
  const token = `tok${randomBytes(8).toString('hex')}`;
  const reset = await d.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/reset?token=${token}` }, { door: 'tool' });
  assert.match(textOf(reset), /Reset Password/, textOf(reset));
  return { b, bId: b.transport.sessionId!, sid, token };
}

/** A call that fails with a thrown transport error (B's session gone at the endpoint) becomes a result the assertions can show. */
async function callOrError(client: DoorClient, tool: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; text: string }> {
  try {
    const { result, text } = await client.call(tool, args);
    return { isError: !!result.isError, text };
  } catch (error) {
    return { isError: true, text: `thrown: ${(error as Error).message}` };
  }
}

describe('isolation perClient, attacked by a second client (real child, Chromium, endpoint)', function () {
  this.timeout(240000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it("A's bridge_session_list and bridge_session_close give it neither B's id nor the window's pages, and cannot close B", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const a = await d.connect('attacker-a');
      const { b, bId, token } = await victims(d, fixture);
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      const received: string[] = [];
      const list = (await a.call('bridge_session_list')).text;
      received.push(list);
      assert.ok(!list.includes(bId) && !list.includes(bId.slice(0, 8)), `A's list names B's session: ${list}`);
      assert.ok(!list.includes(token) && !list.includes('/reset'), `A's list shows the window's reset link: ${list}`);
      assert.ok(!/victim-b/.test(list), `A's list names B's client: ${list}`);
      assert.match(list, /yours/, list);
      assert.match(list, /^2 other sessions/m, `A sees only a count of the others: ${list}`);

      // B's id as A might have it from somewhere: a prefix, then the whole id. Both get the same refusal, so nothing tells A it exists.
      for (const id of [bId.slice(0, 8), bId, randomUUID(), 'window']) {
        const closed = await a.call('bridge_session_close', { id });
        received.push(closed.text);
        assert.ok(closed.result.isError && /can close only its own session/.test(closed.text), `A closing ${id}: ${closed.text}`);
      }
      const bAfter = await b.call('browser_tabs', { action: 'list' });
      assert.match(bAfter.text, /Signed In/, `B kept its context: ${bAfter.text}`);
      assert.doesNotMatch(bAfter.text, /was closed/, bAfter.text);
      for (const text of received) assert.ok(!text.includes(bId.slice(0, 8)), `an output to A holds B's id: ${text}`);
    } finally {
      await d.dispose();
    }
  });

  it("an id A does not hold is refused at the endpoint: a guessed one, B's 8-character prefix, B's id in other case or one character off", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const a = await d.connect('attacker-a');
      const { b, bId } = await victims(d, fixture);
      // What A learns of B through its own outputs: nothing of its id (the first test covers list and close).
      const aList = (await a.call('bridge_session_list')).text;
      assert.ok(!aList.includes(bId.slice(0, 8)), `A's list holds B's id: ${aList}`);
      const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_tabs', arguments: { action: 'list' } } });
      for (const id of [randomUUID(), bId.slice(0, 8), bId.toUpperCase(), bId.slice(0, -1) + (bId.endsWith('0') ? '1' : '0')]) {
        const answer = await rawMcpPost(d.address, call, { 'mcp-session-id': id });
        assert.strictEqual(answer.status, 404, `session id ${id}: ${answer.status} ${answer.body}`);
        assert.match(answer.body, /Session not found/);
        assert.doesNotMatch(answer.body, /Signed In|session-login/, "nothing of B's pages");
      }
      assert.match((await b.call('browser_tabs', { action: 'list' })).text, /Signed In/, 'B is untouched');
    } finally {
      await d.dispose();
    }
  });

  it("A's browser_run_code_unsafe is refused naming the setting, and B's HttpOnly cookie never reaches A; chat's is unaffected", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const a = await d.connect('attacker-a');
      const { sid } = await victims(d, fixture);
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      const stolen = await a.call('browser_run_code_unsafe', { code: STEAL_COOKIES });
      assert.ok(!stolen.text.includes(sid), `A read B's HttpOnly cookie: ${stolen.text}`);
      assert.ok(stolen.result.isError, `refused: ${stolen.text}`);
      assert.match(stolen.text, /playwrightBridge\.allowRunCodeForClients/);
      assert.match(stolen.text, /Nothing ran/);
      const chatCode = 'async (page) => "chat ran " + (await page.title())';
      const chat = await d.bridge.supervisor.callTool('browser_run_code_unsafe', { code: chatCode }, { door: 'tool' });
      assert.match(textOf(chat), /chat ran Reset Password/, `the window's run_code still runs: ${textOf(chat)}`);
    } finally {
      await d.dispose();
    }
  });

  it("with playwrightBridge.allowRunCodeForClients on, A's code runs and does reach B's cookie (what the setting allows)", async () => {
    const d = await openDoor({ isolation: 'perClient', allowRunCodeForClients: true });
    try {
      const a = await d.connect('attacker-a');
      const { sid } = await victims(d, fixture);
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      const ran = await a.call('browser_run_code_unsafe', { code: STEAL_COOKIES });
      assert.ok(!ran.result.isError, ran.text);
      assert.ok(ran.text.includes(sid), `the code ran beside the whole browser: ${ran.text}`);
    } finally {
      await d.dispose();
    }
  });

  it("a flood of initializes never evicts B's live session; once every session is in use a newcomer gets a 503 that says why", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const a = await d.connect('attacker-a');
      const { b } = await victims(d, fixture);
      await a.call('bridge_session_list');
      for (let i = 0; i < 40; i++) {
        const answer = await rawMcpPost(d.address, INITIALIZE_BODY);
        assert.strictEqual(answer.status, 200, `initialize ${i}: ${answer.body}`);
      }
      assert.strictEqual(d.endpoint.sessionCount, 32);
      const bNext = await callOrError(b, 'browser_tabs', { action: 'list' });
      assert.ok(!bNext.isError, `B's next call after A's flood: ${bNext.text}`);
      assert.match(bNext.text, /Signed In/);

      // 30 more clients that each call a tool take the room the flood's idle sessions held: all 32 are then in use.
      for (let i = 0; i < 30; i++) await (await d.connect(`filler-${i}`)).call('bridge_session_list');
      const refused = await rawMcpPost(d.address, INITIALIZE_BODY);
      assert.strictEqual(refused.status, 503, `a session beyond the cap: ${refused.status} ${refused.body}`);
      assert.match(refused.body, /Too many MCP sessions: all 32 are in use \(each is running a call or made one in the last 15 min/);
      assert.match(refused.body, /Close one/);
      const bStill = await callOrError(b, 'browser_tabs', { action: 'list' });
      assert.ok(!bStill.isError && /Signed In/.test(bStill.text), `B still works: ${bStill.text}`);
    } finally {
      await d.dispose();
    }
  });
});
