/**
 * The browser's own CDP connection, the one Playwright launched it with (a pipe: Chromium opens no debugging
 * port, so no local process can reach it), used for sessions of the bridge's own beside Playwright's. This is the
 * one file that reads playwright-core's internals: the in-process server's connection to Chromium, its table of
 * sessions by id (a message for a session of ours is routed to us, never to Playwright) and its raw send (ids from
 * its own counter, so ours never collide with Playwright's). A release that changes them makes `browserPipeOf`
 * answer why, and Share over CDP and Open DevTools say so; nothing else of the bridge uses it.
 */
import type { BrowserContext } from 'playwright';

/** A CDP message as it travels: a command (id, method), its answer (id, result or error) or an event (method, no id). */
export interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  sessionId?: string;
}

/** What receives the messages of one CDP session: called with each, and once when the connection ends. */
export interface SessionRoute {
  message(message: CdpMessage): void;
  ended(): void;
}

export interface BrowserPipe {
  /** A new flat session on the browser target (Target.attachToBrowserTarget), as a CDP client's own root. */
  attachToBrowser(): Promise<string>;
  /** Detaches a session of ours (its children go with it); a session already gone is no error. */
  detach(sessionId: string): Promise<void>;
  /** Sends a command on a session; the id it went with (its answer carries it). */
  send(sessionId: string, method: string, params: Record<string, unknown> | undefined): number;
  /**
   * The CDP id of a context of this browser, and whether it is the browser's default one (Playwright's persistent
   * context); known once a browser session was attached.
   */
  contextIdOf(context: BrowserContext): { id: string; isDefault: boolean } | undefined;
  /** Routes a session's messages to us (undefined: no longer). */
  route(sessionId: string, route: SessionRoute | undefined): void;
  readonly closed: boolean;
}

/** The parts of playwright-core's CRConnection (server side) read here. */
interface ServerConnection {
  rootSession: { send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> };
  _sessions: Map<string, unknown>;
  _rawSend(sessionId: string, method: string, params: unknown): number;
  _closed: boolean;
}

function serverConnectionOf(context: BrowserContext): ServerConnection | string {
  const client = context as unknown as { _connection?: { toImpl?: (object: unknown) => unknown } };
  const toImpl = client._connection?.toImpl;
  if (typeof toImpl !== 'function') return 'this Playwright does not run its server in this process';
  const server = toImpl(context) as { _browser?: { _connection?: Partial<ServerConnection> } } | undefined;
  const connection = server?._browser?._connection;
  if (!connection || !(connection._sessions instanceof Map) || typeof connection._rawSend !== 'function' || typeof connection.rootSession?.send !== 'function')
    return "this Playwright's Chromium connection is not the one the bridge knows (playwright-core changed)";
  return connection as ServerConnection;
}

/** The browser's CDP connection behind a Chromium context, or why there is none to use. */
export function browserPipeOf(context: BrowserContext): BrowserPipe | { unavailable: string } {
  const connection = serverConnectionOf(context);
  if (typeof connection === 'string') return { unavailable: connection };
  const toImpl = (context as unknown as { _connection: { toImpl: (object: unknown) => { _browserContextId?: unknown } | undefined } })._connection.toImpl;
  let defaultContextId: string | undefined;
  return {
    async attachToBrowser() {
      // Playwright's default context has no id of its own: the browser's default is named here.
      defaultContextId ??= (await connection.rootSession.send('Target.getBrowserContexts')).defaultBrowserContextId as string | undefined;
      const { sessionId } = await connection.rootSession.send('Target.attachToBrowserTarget');
      if (typeof sessionId !== 'string') throw new Error('The browser gave no session for its own target.');
      return sessionId;
    },
    async detach(sessionId) {
      await connection.rootSession.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
    },
    send(sessionId, method, params) {
      return connection._rawSend(sessionId, method, params ?? {});
    },
    contextIdOf(of) {
      const own = toImpl(of)?._browserContextId;
      if (typeof own === 'string') return { id: own, isDefault: false };
      return defaultContextId === undefined ? undefined : { id: defaultContextId, isDefault: true };
    },
    route(sessionId, route) {
      if (!route) {
        connection._sessions.delete(sessionId);
        return;
      }
      // What Playwright's connection calls on a session of its table: each message for it, and dispose when it closes.
      connection._sessions.set(sessionId, { _onMessage: (message: CdpMessage) => route.message(message), dispose: () => route.ended() });
    },
    get closed() {
      return connection._closed;
    },
  };
}
