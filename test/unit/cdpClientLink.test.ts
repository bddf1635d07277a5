/**
 * One CDP client's link, on a pipe that stands in for the browser's (the unit is the link's routing, not
 * Chromium: the real browser is in test/real/cdpEndpoint.test.ts). A command in flight on a session that goes is
 * answered; commands reach the browser in the client's order even when one waits to have its target judged; a
 * target of another context is neither shown nor named.
 */
import * as assert from 'assert';
import type { BrowserPipe, CdpMessage, SessionRoute } from '../../src/child/cdp/browserPipe';
import { CdpClientLink } from '../../src/child/cdp/cdpClientLink';
import { TargetScope } from '../../src/child/cdp/targetScope';

class PipeStandIn implements BrowserPipe {
  readonly sent: { id: number; session: string; method: string; params?: Record<string, unknown> }[] = [];
  readonly routes = new Map<string, SessionRoute>();
  private lastId = 1000;
  closed = false;
  /** Answers the pipe gives at once to the link's own commands (by method). */
  readonly answers = new Map<string, (params: Record<string, unknown> | undefined) => Record<string, unknown>>();

  async attachToBrowser(): Promise<string> {
    return 'browser-session';
  }
  async detach(): Promise<void> {}
  contextIdOf() {
    return { id: 'ours', isDefault: false };
  }
  send(session: string, method: string, params: Record<string, unknown> | undefined): number {
    const id = ++this.lastId;
    this.sent.push({ id, session, method, params });
    const answer = this.answers.get(method);
    if (answer) queueMicrotask(() => this.deliver(session, { id, result: answer(params) }));
    return id;
  }
  route(session: string, route: SessionRoute | undefined): void {
    if (route) this.routes.set(session, route);
    else this.routes.delete(session);
  }
  deliver(session: string, message: CdpMessage): void {
    this.routes.get(session)?.message(message);
  }
}

const TARGETS: Record<string, { targetId: string; browserContextId: string; type: string; url: string }> = {
  mine: { targetId: 'mine', browserContextId: 'ours', type: 'page', url: 'http://127.0.0.1/a' },
  theirs: { targetId: 'theirs', browserContextId: 'another client', type: 'page', url: 'http://127.0.0.1/a' },
};

function linked() {
  const pipe = new PipeStandIn();
  pipe.answers.set('Target.getTargetInfo', params => ({ targetInfo: TARGETS[String(params?.targetId)] }));
  const delivered: CdpMessage[] = [];
  const scope = new TargetScope({ includes: id => id === 'ours', newTargetContext: 'ours', includesDefault: false });
  const link = new CdpClientLink(
    pipe,
    { kind: 'browser' },
    text => delivered.push(JSON.parse(text) as CdpMessage),
    () => undefined,
    scope,
  );
  return { pipe, link, delivered };
}

const tick = () => new Promise(resolve => setImmediate(resolve));

describe("a CDP client's link", () => {
  it('answers a command in flight on a session that detaches (the browser would answer it on its own root, never to the client)', async () => {
    const { pipe, link, delivered } = linked();
    await link.receive(JSON.stringify({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'mine', flatten: true } }));
    await tick();
    const attach = pipe.sent.find(each => each.method === 'Target.attachToTarget')!;
    pipe.deliver('browser-session', { id: attach.id, result: { sessionId: 'page-session' } });
    await link.receive(JSON.stringify({ id: 2, method: 'Runtime.evaluate', params: { expression: '1' }, sessionId: 'page-session' }));
    pipe.deliver('browser-session', { method: 'Target.detachedFromTarget', params: { sessionId: 'page-session', targetId: 'mine' } });
    const answer = delivered.find(each => each.id === 2);
    assert.deepStrictEqual(answer, { id: 2, error: { code: -32001, message: 'Session with given id not found.' }, sessionId: 'page-session' });
    assert.ok(
      delivered.some(each => each.method === 'Target.detachedFromTarget'),
      'the client hears its session went',
    );
  });

  it("sends the client's commands in its order, though one waits to have its target judged", async () => {
    const { pipe, link } = linked();
    await Promise.all([
      link.receive(JSON.stringify({ id: 1, method: 'Target.activateTarget', params: { targetId: 'mine' } })),
      link.receive(JSON.stringify({ id: 2, method: 'Browser.getVersion', params: {} })),
    ]);
    assert.deepStrictEqual(
      pipe.sent.filter(each => each.method !== 'Target.getTargetInfo').map(each => each.method),
      ['Target.activateTarget', 'Browser.getVersion'],
    );
  });

  it("shows and names only its own context's targets", async () => {
    const { pipe, link, delivered } = linked();
    await link.receive(JSON.stringify({ id: 1, method: 'Target.attachToTarget', params: { targetId: 'theirs', flatten: true } }));
    assert.deepStrictEqual(delivered.at(-1), { id: 1, error: { code: -32602, message: 'No target with given id found' } });
    assert.ok(!pipe.sent.some(each => each.method === 'Target.attachToTarget'), 'the command never reached the browser');
    for (const browserContextId of [null, 0, 'another client'])
      await link.receive(JSON.stringify({ id: 9, method: 'Target.createTarget', params: { url: 'about:blank', browserContextId } }));
    assert.ok(!pipe.sent.some(each => each.method === 'Target.createTarget'), 'a context id that is not one of its own (or no string) goes nowhere');
    await link.receive(JSON.stringify({ id: 2, method: 'Target.getTargets', params: {} }));
    const getTargets = pipe.sent.find(each => each.method === 'Target.getTargets')!;
    pipe.deliver('browser-session', { id: getTargets.id, result: { targetInfos: [TARGETS.mine, TARGETS.theirs] } });
    assert.deepStrictEqual(delivered.at(-1), { id: 2, result: { targetInfos: [TARGETS.mine] } });
    for (const info of [TARGETS.theirs, TARGETS.mine]) pipe.deliver('browser-session', { method: 'Target.targetCreated', params: { targetInfo: info } });
    pipe.deliver('browser-session', { method: 'Target.targetDestroyed', params: { targetId: 'theirs' } });
    const events = delivered.filter(each => each.method !== undefined);
    assert.deepStrictEqual(
      events.map(each => `${each.method} ${JSON.stringify(each.params)}`),
      [`Target.targetCreated ${JSON.stringify({ targetInfo: TARGETS.mine })}`],
    );
    // The browser's auto-attach to their page: let go unseen, and not left waiting.
    pipe.deliver('browser-session', {
      method: 'Target.attachedToTarget',
      params: { sessionId: 'their-session', targetInfo: TARGETS.theirs, waitingForDebugger: true },
    });
    assert.deepStrictEqual(
      pipe.sent.slice(-2).map(each => `${each.session} ${each.method}`),
      ['their-session Runtime.runIfWaitingForDebugger', 'browser-session Target.detachFromTarget'],
    );
    assert.ok(!pipe.routes.has('their-session'), 'its messages are not routed to the client');
    // A second session on the browser itself (VS Code's debugger opens one): its own, and scoped the same.
    pipe.deliver('browser-session', {
      method: 'Target.attachedToTarget',
      params: { sessionId: 'second-browser-session', targetInfo: { targetId: 'browser', type: 'browser', url: '' }, waitingForDebugger: false },
    });
    assert.ok(pipe.routes.has('second-browser-session'), "the browser's own target is the client's to attach");
    await link.receive(JSON.stringify({ id: 3, method: 'Target.createTarget', params: { url: 'about:blank' } }));
    assert.strictEqual(pipe.sent.at(-1)?.params?.browserContextId, 'ours', 'a new target goes to its own context');
    await link.close();
  });
});
