import * as assert from 'assert';
import { runBridgeTool, SessionDirectory } from '../../src/child/bridgeTools';
import { bridgeToolText, describeSessions } from '../../src/core/pipeline/tools/bridgeSessionTools';
import { CallMarksSchema, type SessionSummary } from '../../src/protocol/callMarks';

/** The tool's answer as the model reads it: the child's facts, worded by the host. */
async function answer(name: string, args: Record<string, unknown>, callerId: string | undefined, sessions: SessionDirectory) {
  return bridgeToolText(await runBridgeTool(name, args, callerId, sessions));
}

const A = 'aaaaaaaa-1111-4111-8111-111111111111';
const B = 'bbbbbbbb-2222-4222-8222-222222222222';
const windowSession: SessionSummary = { id: 'window', tabs: [{ title: 'Reset', url: 'http://127.0.0.1/reset?token=secret' }], idleSeconds: 0, yours: false };
const bSession: SessionSummary = { id: B, client: 'victim', tabs: [{ title: 'Bank', url: 'http://127.0.0.1/bank' }], idleSeconds: 3, yours: false };

/** The sessions as the child's directory holds them: A's caller sees only its own line, chat sees all. */
function directory(closed: string[]): SessionDirectory {
  return {
    isolation: 'perClient',
    list: async callerId =>
      callerId === undefined
        ? { sessions: [{ ...windowSession, yours: true }, bSession, { id: A, client: 'attacker', tabs: [], idleSeconds: 1, yours: false }], others: 0 }
        : { sessions: callerId === A ? [{ id: A, client: 'attacker', tabs: [], idleSeconds: 1, yours: true }] : [], others: 2 },
    matching: prefix => (prefix.length >= 8 ? [A, B].filter(id => id.startsWith(prefix)) : []),
    close: async id => {
      closed.push(id);
      return true;
    },
  };
}

describe("the bridge's session tools under perClient", () => {
  it("a client's list holds its own session and a count, never another id or the window's pages", async () => {
    const text = await answer('bridge_session_list', {}, A, directory([]));
    assert.match(text.text, new RegExp(`^- ${A} \\(client "attacker"\\), yours`, 'm'));
    assert.match(text.text, /^2 other sessions/m);
    assert.ok(!text.text.includes('bbbbbbbb') && !text.text.includes('token=secret') && !text.text.includes('victim'), text.text);
  });

  it('a client that has not called a browser tool yet is told it has no context, still with a count', () => {
    const text = describeSessions('perClient', { sessions: [], others: 1 }, A);
    assert.match(text, /yours: no browser context yet/);
    assert.match(text, /^1 other session \(/m);
  });

  it("chat's tools see every session, client ids shortened to 8 characters", async () => {
    const { text } = await answer('bridge_session_list', {}, undefined, directory([]));
    assert.match(text, /^- window \(chat's tools\), yours: Reset/m);
    assert.match(text, /^- bbbbbbbb \(client "victim"\): Bank/m);
    assert.ok(!text.includes(B), 'never a full client id');
  });

  it('a client closes only its own session; another\'s id, a prefix, an unknown id and "window" get one refusal', async () => {
    const closed: string[] = [];
    const answers = [];
    for (const id of [B, B.slice(0, 8), 'cccccccc-0000', 'window', A.slice(0, 7)]) {
      const result = await answer('bridge_session_close', { id }, A, directory(closed));
      assert.strictEqual(result.refused, true, id);
      answers.push(result.text);
    }
    assert.strictEqual(new Set(answers).size, 1, 'the same words whether or not the id exists');
    assert.match(answers[0], /can close only its own session/);
    assert.deepStrictEqual(closed, []);
    const own = await answer('bridge_session_close', { id: A.slice(0, 8) }, A, directory(closed));
    assert.match(own.text, /Closed your session/);
    assert.deepStrictEqual(closed, [A]);
  });

  it("chat's tools close a client's session by its short id", async () => {
    const closed: string[] = [];
    const result = await answer('bridge_session_close', { id: 'bbbbbbbb' }, undefined, directory(closed));
    assert.match(result.text, /Closed session bbbbbbbb/);
    assert.deepStrictEqual(closed, [B]);
  });

  it('every answer the child gives crosses the pipe as JSON and still reads as the host expects (no silent empty answer)', async () => {
    const cases: [string, Record<string, unknown>, string | undefined][] = [
      ['bridge_session_list', {}, A],
      ['bridge_session_list', {}, undefined],
      ['bridge_session_close', {}, A],
      ['bridge_session_close', { id: 42 }, undefined],
      ['bridge_session_close', { id: B }, A],
      ['bridge_session_close', { id: 'window' }, undefined],
      ['bridge_session_close', { id: 'zzzzzzzz' }, undefined],
      ['bridge_session_close', { id: A.slice(0, 8) }, A],
      ['bridge_session_close', { id: 'bbbbbbbb' }, undefined],
    ];
    for (const [name, args, caller] of cases) {
      const bridgeTool = await runBridgeTool(name, args, caller, directory([]));
      const crossed = CallMarksSchema.safeParse(JSON.parse(JSON.stringify({ bridgeTool })));
      assert.ok(crossed.success, `${name} ${JSON.stringify(args)}: ${crossed.error?.message}`);
      assert.ok(bridgeToolText(crossed.data.bridgeTool!).text.length > 20, `${name} ${JSON.stringify(args)} has words`);
    }
  });
});
