/**
 * One CDP client (a DevTools window, Puppeteer, chrome-devtools-mcp, VS Code's debugger) on the browser's own
 * connection, beside Playwright: the client gets a session of its own on the browser target and speaks flat CDP
 * as if it were the browser's only client. Its messages without a session go to its root (the browser session,
 * or for a page link the page's session); with one, only to a session it opened itself (the root's, or one it
 * attached since). Answers and events come back under the names the client knows. The bridge adds no
 * transaction across the two protocols and does not guess which caller owns a page.
 */
import type { BrowserPipe, CdpMessage } from './browserPipe';
import type { DebuggerPauses } from './debuggerPauses';
import { NO_SUCH_TARGET, type TargetScope } from './targetScope';

let links = 0;

/** What the client's connection is to: the browser (as `/devtools/browser`) or one page (as `/devtools/page/<id>`). */
export type LinkTarget = { kind: 'browser' } | { kind: 'page'; targetId: string };

/** A command of the client's in flight (its own id and method, the session it went to and the one it named), or the link's own. */
type Pending = { clientId: number; method: string; session: string; clientSession?: string } | { own: (message: CdpMessage) => void };

/** Chromium's own words for a session it does not know, so a client hears what it would from the browser. */
const NO_SUCH_SESSION = 'Session with given id not found.';
const ATTACHING = new Set(['Target.attachToTarget', 'Target.attachToBrowserTarget']);
/**
 * The link carries flat sessions only: each is one it routes and judges (targetScope.ts, HANDS_ON). A session of
 * the old protocol travels inside `Target.sendMessageToTarget` and its answers inside events, where neither would
 * look: so a session is attached flat or not at all.
 */
const NESTS_SESSIONS = new Set(['Target.attachToTarget', 'Target.setAutoAttach']);
const NESTED_TRAFFIC = 'Target.sendMessageToTarget';
/**
 * Commands that would hand CDP on to someone the person never gave an address: a binding that lets a page's own
 * script speak CDP (it outlives the client, its Revoke and the page, in every later page of the tab).
 */
const HANDS_ON = new Set(['Target.exposeDevToolsProtocol']);

/** Why a command is refused whatever it names, or undefined. */
function refusedAtOnce(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (HANDS_ON.has(method)) return `${method} is refused by Playwright Bridge: it would give CDP to a page's scripts`;
  const turnsOff = method === 'Target.setAutoAttach' && params?.autoAttach === false;
  if (method === NESTED_TRAFFIC || (NESTS_SESSIONS.has(method) && params?.flatten !== true && !turnsOff))
    return `Playwright Bridge carries flat CDP sessions only: attach with flatten: true and send with sessionId (${method} refused)`;
  return undefined;
}

export class CdpClientLink {
  /** The session on the browser target this link opened for its client. */
  private browserSession: string | undefined;
  /** Where the client's messages without a session go. */
  private root: string | undefined;
  private readonly sessions = new Set<string>();
  /** The client's sessions on the browser itself (not on a page): what they may call is narrower (targetScope.ts). */
  private readonly browserSessions = new Set<string>();
  private readonly pending = new Map<number, Pending>();
  private opened: Promise<void> | undefined;
  /** The client's commands go to the browser in the order it sent them (some wait to have their target judged). */
  private sending: Promise<void> = Promise.resolve();
  private ended = false;
  /** This link among all, for the pauses its sessions report. */
  private readonly id = ++links;

  constructor(
    private readonly pipe: BrowserPipe,
    private readonly target: LinkTarget,
    /** Sends one message's text to the client. */
    private readonly deliver: (text: string) => void,
    /** The link is over (the browser went, the page closed): the client's connection closes. */
    private readonly onEnd: (why: string) => void,
    /** The targets this client may see and name (the watched session's). */
    private readonly scope: TargetScope,
    /** Where a page's pause in this client's debugger is told. */
    private readonly pauses?: DebuggerPauses,
  ) {}

  /** Attaches the client's sessions; a command the client sends meanwhile waits for it. */
  open(): Promise<void> {
    return (this.opened ??= this.attach());
  }

  private async attach(): Promise<void> {
    const browserSession = await this.pipe.attachToBrowser();
    this.browserSession = browserSession;
    this.own(browserSession);
    this.browserSessions.add(browserSession);
    if (this.target.kind === 'browser') {
      this.root = browserSession;
      return;
    }
    const { targetId } = this.target;
    if (!this.scope.admits(await this.describe(targetId))) throw new Error(`No such page: ${NO_SUCH_TARGET}`);
    const answer = await this.ownCommand(browserSession, 'Target.attachToTarget', { targetId, flatten: true });
    const pageSession = answer.result?.sessionId;
    if (typeof pageSession !== 'string') throw new Error(`No such page: ${answer.error?.message ?? 'the browser did not attach to it'}`);
    this.own(pageSession);
    this.root = pageSession;
  }

  /** A command of the link's own on one of its sessions, and its answer. */
  private ownCommand(session: string, method: string, params: Record<string, unknown>): Promise<CdpMessage> {
    return new Promise(resolve => {
      const id = this.pipe.send(session, method, params);
      this.pending.set(id, { own: resolve });
    });
  }

  /** A target's info as the browser gives it, or undefined if it knows no such target. */
  private async describe(targetId: string): Promise<unknown> {
    return (await this.ownCommand(this.browserSession!, 'Target.getTargetInfo', { targetId })).result?.targetInfo;
  }

  /** A message from the client, as text. */
  async receive(text: string): Promise<void> {
    let message: CdpMessage;
    try {
      message = JSON.parse(text) as CdpMessage;
    } catch {
      this.deliver(JSON.stringify({ error: { code: -32700, message: 'Message must be JSON' } }));
      return;
    }
    if (typeof message.id !== 'number' || typeof message.method !== 'string') {
      this.deliver(
        JSON.stringify({
          ...(typeof message.id === 'number' ? { id: message.id } : {}),
          error: { code: -32600, message: 'Message must have integer id and string method' },
        }),
      );
      return;
    }
    const refused = refusedAtOnce(message.method, message.params);
    if (refused) return this.answerError(message.id, -32000, refused, message.sessionId);
    const command = message as CdpMessage & { id: number; method: string };
    const sent = this.sending.then(() => this.forward(command));
    this.sending = sent.catch(() => undefined);
    await sent;
  }

  private async forward(message: CdpMessage & { id: number; method: string }): Promise<void> {
    await this.open();
    if (this.ended) return;
    const session = message.sessionId ?? this.root!;
    const refuse = (code: number, why: string) => this.answerError(message.id, code, why, message.sessionId);
    // Only a session this client opened: another client's or Playwright's own is as unknown as a made-up one.
    if (!this.sessions.has(session)) return refuse(-32001, NO_SUCH_SESSION);
    const browserWide = this.scope.browserWideRefusal(message.method, message.params, this.browserSessions.has(session));
    if (browserWide) return refuse(-32000, browserWide);
    const outOfScope = await this.scope.refusal(message, targetId => this.describe(targetId));
    if (this.ended) return;
    if (outOfScope) return refuse(-32602, outOfScope);
    if (!this.sessions.has(session)) return refuse(-32001, NO_SUCH_SESSION);
    const id = this.pipe.send(session, message.method, message.params);
    this.pending.set(id, {
      clientId: message.id,
      method: message.method,
      session,
      ...(message.sessionId !== undefined ? { clientSession: message.sessionId } : {}),
    });
  }

  /** An error answer to the client's command `id`, on the session it named. */
  private answerError(id: number, code: number, message: string, clientSession: string | undefined): void {
    this.deliver(JSON.stringify({ id, error: { code, message }, ...(clientSession !== undefined ? { sessionId: clientSession } : {}) }));
  }

  private own(sessionId: string): void {
    this.sessions.add(sessionId);
    this.pipe.route(sessionId, { message: message => this.fromBrowser(sessionId, message), ended: () => this.end('the browser closed') });
  }

  private fromBrowser(session: string, message: CdpMessage): void {
    if (this.ended) return;
    if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      if (!pending) return;
      this.pending.delete(message.id);
      if ('own' in pending) {
        pending.own(message);
        return;
      }
      const sessionId = message.result?.sessionId;
      // A command that attaches a session: the session in its answer is the client's.
      if (ATTACHING.has(pending.method) && typeof sessionId === 'string') {
        this.own(sessionId);
        if (pending.method === 'Target.attachToBrowserTarget') this.browserSessions.add(sessionId);
      }
      this.deliver(
        JSON.stringify({
          id: pending.clientId,
          ...(message.error ? { error: message.error } : { result: this.scope.result(message.result ?? {}) }),
          ...(pending.clientSession !== undefined ? { sessionId: pending.clientSession } : {}),
        }),
      );
      return;
    }
    const params = message.params ?? {};
    if (session === this.browserSession && this.root !== this.browserSession) {
      // A page link's browser session is the link's own: the client hears only that its page went.
      if (message.method === 'Target.detachedFromTarget' && params.sessionId === this.root) this.end('the page closed');
      return;
    }
    const fate = this.scope.event(message.method ?? '', params);
    if (fate === 'release') return this.release(session, params);
    if (fate === 'hide') return;
    if (message.method === 'Target.attachedToTarget' && typeof params.sessionId === 'string') {
      this.own(params.sessionId);
      if ((params.targetInfo as { type?: unknown } | undefined)?.type === 'browser') this.browserSessions.add(params.sessionId);
    }
    if (message.method === 'Debugger.paused') this.pauses?.pause(`${this.id}:${session}`);
    if (message.method === 'Debugger.resumed') this.pauses?.resume(`${this.id}:${session}`);
    this.deliver(JSON.stringify({ method: message.method, params, ...(session !== this.root ? { sessionId: session } : {}) }));
    if (message.method === 'Target.detachedFromTarget' && typeof params.sessionId === 'string') this.forget(params.sessionId);
  }

  /**
   * The browser attached this client to a target out of its scope (auto-attach on the browser session attaches to
   * every page): that session is let go unseen, and the target is not left waiting for this client's debugger.
   */
  private release(parent: string, params: Record<string, unknown>): void {
    if (typeof params.sessionId !== 'string') return;
    if (params.waitingForDebugger === true) this.pipe.send(params.sessionId, 'Runtime.runIfWaitingForDebugger', undefined);
    this.pipe.send(parent, 'Target.detachFromTarget', { sessionId: params.sessionId });
  }

  private forget(sessionId: string): void {
    // A debugger that detaches lets its page run on.
    this.pauses?.resume(`${this.id}:${sessionId}`);
    this.sessions.delete(sessionId);
    this.browserSessions.delete(sessionId);
    this.pipe.route(sessionId, undefined);
    // A command still in flight on it would never be answered (the browser answers it on its own root, Playwright's).
    for (const [id, pending] of this.pending)
      if ('clientId' in pending && pending.session === sessionId) {
        this.pending.delete(id);
        if (!this.ended) this.answerError(pending.clientId, -32001, NO_SUCH_SESSION, pending.clientSession);
      }
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(why);
    void this.close();
  }

  /** The client left (or the link ended): its sessions are detached and no longer routed. */
  async close(): Promise<void> {
    this.ended = true;
    for (const session of [...this.sessions]) this.forget(session);
    this.pending.clear();
    if (this.browserSession && !this.pipe.closed) await this.pipe.detach(this.browserSession);
  }
}
