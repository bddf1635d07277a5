/**
 * The isolation scenario of `npm run harden`: with isolation `perClient`, client A (same bearer token,
 * same window) attacks client B, which is signed in to the fixture site with an HttpOnly cookie, while
 * the window (chat) has a password-reset link open. Each probe is one attack; it is as expected when
 * the bridge behaves as the README promises.
 */
import { randomBytes, randomUUID } from 'crypto';
import { FixtureServer } from '../fixtures/fixtureServer';
import { INITIALIZE_BODY, openDoor, rawMcpPost } from '../support/realBridge';

export interface IsolationFigures {
  /** Attacks tried: list, close-other (prefix, full id), guessed id, prefix id, run_code, flood, cap, no-leak. */
  probes: number;
  /** How many behaved as promised. */
  asExpected: number;
  /** The probes that did not, with what happened instead. */
  unexpected: string[];
}

/** `floodSize` initializes (at least the cap, 32) are sent at the endpoint while B is live. */
export async function isolationProbes(fixture: FixtureServer, floodSize: number): Promise<IsolationFigures> {
  const figures: IsolationFigures = { probes: 0, asExpected: 0, unexpected: [] };
  const probe = (what: string, held: boolean, otherwise: string) => {
    figures.probes++;
    if (held) figures.asExpected++;
    else figures.unexpected.push(`${what}: ${otherwise.slice(0, 400)}`);
  };
  const d = await openDoor({ isolation: 'perClient' });
  try {
    const a = await d.connect('attacker-a');
    const b = await d.connect('victim-b');
    const sid = `sid-${randomBytes(8).toString('hex')}`;
    await b.call('browser_navigate', { url: `${fixture.url}/session-login?sid=${sid}` });
    const bId = b.transport.sessionId!;
    const token = `tok${randomBytes(8).toString('hex')}`;
    await d.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/reset?token=${token}` }, { door: 'tool' });
    await a.call('browser_navigate', { url: `${fixture.url}/` });
    const bIsWhole = async () => {
      try {
        return /Signed In/.test((await b.call('browser_tabs', { action: 'list' })).text);
      } catch {
        return false;
      }
    };
    /** Every text A is given, for the last probe. */
    const received: string[] = [];

    const list = (await a.call('bridge_session_list')).text;
    received.push(list);
    probe('list', !list.includes(bId.slice(0, 8)) && !list.includes(token) && !list.includes('/reset') && !list.includes('victim-b'), list);

    for (const [what, id] of [
      ['close-other by prefix', bId.slice(0, 8)],
      ['close-other by full id', bId],
    ]) {
      const closed = await a.call('bridge_session_close', { id });
      received.push(closed.text);
      probe(what, !!closed.result.isError && /only its own session/.test(closed.text) && (await bIsWhole()), closed.text);
    }

    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_tabs', arguments: { action: 'list' } } });
    for (const [what, id] of [
      ['guessed session id', randomUUID()],
      ["B's 8-character prefix as session id", bId.slice(0, 8)],
    ]) {
      const answer = await rawMcpPost(d.address, call, { 'mcp-session-id': id });
      received.push(answer.body);
      probe(what, answer.status === 404 && !/Signed In/.test(answer.body), `${answer.status} ${answer.body}`);
    }

    const steal =
      'async (page) => { const found = []; for (const c of page.context().browser().contexts()) ' +
      'found.push(...(await c.cookies()).map(k => k.name + "=" + k.value)); return found.join("; "); }';
    const ran = await a.call('browser_run_code_unsafe', { code: steal });
    received.push(ran.text);
    probe('run_code', !!ran.result.isError && /playwrightBridge\.allowRunCodeForClients/.test(ran.text) && !ran.text.includes(sid), ran.text);

    const statuses: number[] = [];
    for (let i = 0; i < floodSize; i++) statuses.push((await rawMcpPost(d.address, INITIALIZE_BODY)).status);
    probe('flood', statuses.every(s => s === 200) && (await bIsWhole()), `statuses ${[...new Set(statuses)].join(',')}; B whole: ${await bIsWhole()}`);

    // Fill the room the flood's sessions held with clients that each call a tool: every session is then in use.
    for (let i = d.endpoint.sessionCount - 2; i > 0; i--) await (await d.connect(`filler-${i}`)).call('bridge_session_list');
    const refused = await rawMcpPost(d.address, INITIALIZE_BODY);
    probe('cap', refused.status === 503 && /all \d+ are in use/.test(refused.body) && (await bIsWhole()), `${refused.status} ${refused.body}`);

    const leaked = received.filter(text => text.includes(bId.slice(0, 8)) || text.includes(sid));
    probe('no-leak', leaked.length === 0, leaked.join('\n---\n'));
  } finally {
    await d.dispose();
  }
  return figures;
}
