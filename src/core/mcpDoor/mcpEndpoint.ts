import { createHash, randomUUID } from 'crypto';
import * as http from 'http';
import { AddressInfo } from 'net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Emitter, Event } from '../emitter';
import { LogGate } from '../egress/logLine';
import { checkRequest, newBearerToken } from './requestGuard';
import { answerToolCall, cancelledRequestId, FastCallsInFlight, FastToolCall, fastToolCall } from './toolCallFastPath';
import type { SupervisedCallOptions } from '../pipeline/callContext';
import { DEFAULT_SETTINGS } from '../settings/settings';

/** What the endpoint forwards to: the supervisor every door shares. */
export interface ToolBackend {
  listTools(): Promise<Tool[]>;
  callTool(name: string, args: Record<string, unknown> | undefined, options?: SupervisedCallOptions): Promise<CallToolResult>;
  readonly onDidChangeTools: Event<Tool[]>;
  /** A client session ended (closed, expired or evicted): its own browser context can go. */
  endSession?(sessionId: string): void;
}

export interface EndpointAddress {
  url: string;
  port: number;
  /** The bearer token; for the Authorization header only, never for logs. */
  token: string;
}

export const MCP_PATH = '/mcp';

/**
 * The version an MCP client should hold for this endpoint: it changes exactly when the client must
 * reconnect (another address, token or exposure), never for a browser start or a tool-list change.
 * A digest, so the token itself never appears in it.
 */
export function mcpDefinitionVersion(address: EndpointAddress, exposure: string): string {
  return createHash('sha256').update(`${exposure}\n${address.url}\n${address.token}`).digest('hex').slice(0, 16);
}
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** One MCP session at the endpoint (glossary: an MCP client's connection, its `mcp-session-id`). */
interface McpSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** When it last sent a request (its open notification stream does not count). */
  lastActive: number;
  /** Requests it has in flight: a busy session is never evicted. */
  busy: number;
  /** When it last called a tool (start or end): for a while after, it is in use and never evicted. */
  lastCall?: number;
  /** Its calls answered on the fast path (toolCallFastPath.ts), for its notifications/cancelled. */
  fastCalls: FastCallsInFlight;
}

export interface EndpointLimits {
  /**
   * A session that sends nothing for this long is closed (its client may initialize again). A function is read
   * at each sweep, so a changed `mcpSessionIdleMinutes` counts at once.
   */
  idleMs: number | (() => number);
  /** At most this many sessions; a new one evicts the longest-idle one that is not in use, or is refused if all are. */
  maxSessions: number;
  /**
   * A session that called a tool this recently is in use and never evicted to make room: with isolation
   * `perClient` it holds a browser context that long (the child's `sessionIdleMinutes`). Read at each
   * eviction, so a changed setting counts at once. Absent: only a call in flight protects a session.
   */
  inUseAfterCallMs?: () => number;
}

export const DEFAULT_ENDPOINT_LIMITS: EndpointLimits = {
  idleMs: 30 * 60 * 1000,
  maxSessions: 32,
  inUseAfterCallMs: () => DEFAULT_SETTINGS.sessionIdleMinutes * 60_000,
};

/**
 * The MCP door: Streamable HTTP on 127.0.0.1, one MCP session per client, every call forwarded
 * to the shared supervisor (so to the same child and browser as the language-model tools).
 */
export class McpEndpoint {
  private server: http.Server | undefined;
  private starting: Promise<EndpointAddress> | undefined;
  private readonly token = newBearerToken();
  private readonly sessions = new Map<string, McpSession>();
  private openedCount = 0;
  private readonly sessionsEmitter = new Emitter<number>();
  readonly onDidChangeSessions = this.sessionsEmitter.event;
  private readonly toolsSubscription;
  private sweeper: NodeJS.Timeout | undefined;

  private readonly log: (line: string) => void;

  constructor(
    private readonly backend: ToolBackend,
    private readonly version: string,
    log: (line: string) => void,
    private readonly limits: EndpointLimits = DEFAULT_ENDPOINT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    // Whatever a request carried (its URL, its headers) is logged through the log's gate, which knows the token.
    this.log = new LogGate(log).hide('MCP_ENDPOINT_TOKEN', this.token).log;
    this.toolsSubscription = backend.onDidChangeTools(() => {
      for (const session of this.sessions.values()) void session.server.sendToolListChanged().catch(() => undefined);
    });
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  /** Sessions opened since the endpoint started: a client that reconnects opens another. */
  get sessionsOpened(): number {
    return this.openedCount;
  }

  get address(): EndpointAddress | undefined {
    const info = this.server?.address() as AddressInfo | null | undefined;
    return info ? { url: `http://127.0.0.1:${info.port}${MCP_PATH}`, port: info.port, token: this.token } : undefined;
  }

  /** Listens on a free loopback port (once); later calls return the same address. */
  start(): Promise<EndpointAddress> {
    if (!this.starting) {
      this.starting = new Promise<EndpointAddress>((resolve, reject) => {
        const server = http.createServer((req, res) => void this.handle(req, res));
        server.on('error', reject);
        server.listen(0, '127.0.0.1', () => {
          this.server = server;
          this.sweeper = setInterval(() => this.closeIdleSessions(), Math.min(60_000, Math.max(1000, this.idleMs() / 4)));
          this.sweeper.unref();
          const address = this.address!;
          this.log(`MCP endpoint listening on ${address.url} (bearer token required)`);
          resolve(address);
        });
      });
      this.starting.catch(() => (this.starting = undefined));
    }
    return this.starting;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const port = (this.server!.address() as AddressInfo).port;
    const verdict = checkRequest(req, port, this.token);
    if (!verdict.ok) {
      this.log(`MCP endpoint refused ${req.method} ${req.url}: ${verdict.reason}`);
      return reply(res, verdict.status, verdict.reason, verdict.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    }
    if ((req.url ?? '').split('?')[0] !== MCP_PATH) return reply(res, 404, `not found; the MCP endpoint is ${MCP_PATH}`);
    try {
      let body: unknown;
      if (req.method === 'POST') {
        const raw = await readBody(req, MAX_BODY_BYTES);
        if (raw === undefined) return reply(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
        try {
          body = JSON.parse(raw);
        } catch {
          return jsonRpcError(res, 400, -32700, 'Parse error: the body is not JSON');
        }
      }
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
      if (existing) {
        if (req.method !== 'POST') return void (await existing.transport.handleRequest(req, res, body));
        // A cancellation of a call on the fast path is ours to deliver; any other goes to the SDK.
        if (existing.fastCalls.cancel(cancelledRequestId(body))) return void res.writeHead(202).end();
        existing.lastActive = this.now();
        existing.busy++;
        try {
          const call = typeof sessionId === 'string' ? fastToolCall(req, body) : undefined;
          if (call) return void (await answerToolCall(res, sessionId as string, call, this.toolCallsOf(existing), existing.fastCalls));
          return void (await existing.transport.handleRequest(req, res, body));
        } finally {
          existing.busy--;
          existing.lastActive = this.now();
        }
      }
      if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found: initialize again');
      if (req.method !== 'POST' || !isInitialize(body)) return jsonRpcError(res, 400, -32000, 'Bad request: no session; send initialize first');
      if (!this.makeRoom()) {
        const minutes = Math.round((this.limits.inUseAfterCallMs?.() ?? 0) / 60_000);
        const inUse = minutes > 0 ? `running a call or made one in the last ${minutes} min` : 'running a call';
        this.log(`MCP endpoint refused a new session: all ${this.limits.maxSessions} sessions are in use (${inUse})`);
        const why =
          `Too many MCP sessions: all ${this.limits.maxSessions} are in use (each is ${inUse}; a working client is never ` +
          'pushed out to make room). Close one (DELETE its session, or end a client) or try again when one has been idle' +
          `${minutes > 0 ? ` ${minutes} min` : ''}.`;
        return jsonRpcError(res, 503, -32000, why);
      }
      const session = this.newSession();
      await session.server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
    } catch (error) {
      this.log(`MCP endpoint error: ${(error as Error).message}`);
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error');
    }
  }

  /**
   * Room for one more session: at the cap, evicts the longest-idle session that is not in use (no call in
   * flight, none in the last `inUseAfterCallMs`); false when every one is in use. A flood of initializes
   * so only ever evicts sessions that never called a tool, or went quiet long ago: never a live client.
   */
  private makeRoom(): boolean {
    if (this.sessions.size < this.limits.maxSessions) return true;
    const keepMs = this.limits.inUseAfterCallMs?.() ?? 0;
    const quiet = (s: McpSession) => keepMs <= 0 || s.lastCall === undefined || s.lastCall < this.now() - keepMs;
    const evictable = [...this.sessions.entries()].filter(([, s]) => s.busy === 0 && quiet(s));
    const idle = evictable.sort(([, a], [, b]) => a.lastActive - b.lastActive)[0];
    if (!idle) return false;
    this.closeSession(idle[0], 'the session limit was reached and it was the longest idle');
    return true;
  }

  private idleMs(): number {
    return typeof this.limits.idleMs === 'function' ? this.limits.idleMs() : this.limits.idleMs;
  }

  private closeIdleSessions(): void {
    const idleMs = this.idleMs();
    const cutoff = this.now() - idleMs;
    for (const [id, session] of this.sessions) {
      if (session.busy === 0 && session.lastActive < cutoff) this.closeSession(id, `idle for over ${Math.round(idleMs / 60000)} min`);
    }
  }

  private closeSession(id: string, why: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.log(`MCP session closed: ${why}`);
    this.dropSession(id);
    void session.transport.close().catch(() => undefined);
    void session.server.close().catch(() => undefined);
  }

  /** Closes idle sessions now (the timer does this on its own; tests and diagnostics call it). */
  sweep(): void {
    this.closeIdleSessions();
  }

  private newSession(): McpSession {
    const server = new Server({ name: 'playwright-bridge', version: this.version }, { capabilities: { tools: { listChanged: true } } });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: id => {
        this.sessions.set(id, session);
        this.openedCount++;
        this.log(`MCP client connected (${this.sessions.size} session${this.sessions.size === 1 ? '' : 's'})`);
        this.sessionsEmitter.fire(this.sessions.size);
      },
      onsessionclosed: id => this.dropSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.dropSession(transport.sessionId);
    };
    const session: McpSession = { server, transport, lastActive: this.now(), busy: 0, fastCalls: new FastCallsInFlight() };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await this.backend.listTools() }));
    // A call the fast path does not take (a batch, say) comes this way: the same call, through the SDK.
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      return this.toolCallsOf(session).run(
        request.params,
        extra.signal,
        progressToken === undefined
          ? undefined
          : progress => void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
      );
    });
    return session;
  }

  /** A session's tool calls, to the supervisor: the same for the fast path and the SDK's handler. */
  private toolCallsOf(session: McpSession): FastToolCall {
    return {
      run: async (params, signal, onProgress) => {
        session.lastCall = this.now();
        try {
          // Every check, refusal and note is the call pipeline's (core/pipeline); the result comes back finished.
          return await this.backend.callTool(params.name, params.arguments, {
            door: 'mcp',
            // Which client this is: with isolation `perClient` it gets a browser context of its own.
            session: session.transport.sessionId ? { id: session.transport.sessionId, client: session.server.getClientVersion()?.name } : undefined,
            signal,
            onProgress,
          });
        } finally {
          session.lastCall = this.now();
        }
      },
    };
  }

  private dropSession(id: string): void {
    const session = this.sessions.get(id);
    if (!session || !this.sessions.delete(id)) return;
    // As the SDK's transport does for its own: a closed session's calls are given up.
    session.fastCalls.abortAll();
    this.backend.endSession?.(id);
    this.log(`MCP client disconnected (${this.sessions.size} left)`);
    this.sessionsEmitter.fire(this.sessions.size);
  }

  /** Closes every session and the port. Idempotent. */
  async dispose(): Promise<void> {
    this.toolsSubscription.dispose();
    if (this.sweeper) clearInterval(this.sweeper);
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of sessions) session.fastCalls.abortAll();
    await Promise.all(sessions.map(s => s.transport.close().catch(() => undefined)));
    const server = this.server;
    this.server = undefined;
    this.starting = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
      this.log('MCP endpoint closed');
    }
    this.sessionsEmitter.fire(0);
    this.sessionsEmitter.dispose();
  }
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(m => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      if (!over) chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function reply(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${message}\n`);
}

function jsonRpcError(res: http.ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
