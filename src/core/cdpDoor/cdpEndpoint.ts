/**
 * The managed CDP endpoint: a second, optional control surface on the watched browser, for the person's own
 * DevTools, VS Code's debugger and any CDP client the person shares it with. It listens on 127.0.0.1 on one port
 * for the bridge's life; what it admits is a capability (256 random bits, the first segment of every path),
 * published only by the person's command, only for a ready browser, and only after the bridge proved that its
 * way in reaches that browser: a one-time challenge the child sets through Playwright (the MCP side) is read back
 * here through CDP. Behind it, the child's internal endpoint for that one browser (child/cdp/).
 *
 * Losing the browser (a restart, a crash, browser_close) revokes every capability and closes every socket, and
 * starts nothing: the next publish is for the next ready browser, under a new capability. An old address never
 * reaches a new browser: its capability is gone here, and the internal endpoint it led to closed with its browser.
 * MCP and CDP may act at once; the endpoint adds no transaction across them.
 */
import { randomBytes } from 'crypto';
import * as http from 'http';
import * as net from 'net';
import type { Duplex } from 'stream';
import { WebSocket } from 'ws';
import { Emitter, type Event } from '../emitter';
import { LogGate } from '../egress/logLine';
import type { HostHealth } from '../supervision/browserHealth';
import type { ControlRequestParams, ControlRequestResult } from '../../protocol/controlChannel';
import { checkCdpRequest } from './cdpGuard';
import { CDP_TARGET_PATH, passThrough } from './webSocketPassThrough';
import { NONCE_HEADER, PROOF_HEADER, challengeFor } from './endpointProof';

/** What the endpoint needs of the supervisor: the child's answers, and whether its browser is still the same one. */
export interface CdpChild {
  ask<K extends 'cdpEndpoint' | 'cdpChallengeDone'>(name: K, params: ControlRequestParams<K>): Promise<ControlRequestResult<K>>;
  readonly health: HostHealth;
  readonly onDidChangeHealth: Event<HostHealth>;
}

/** Who a capability is for: the person's own DevTools and debugger, or the CDP clients the person shared it with. */
export type CdpAudience = 'devtools' | 'share';

export interface PublishedCdp {
  port: number;
  capability: string;
  /** The watched session's current tab when it was published (what DevTools opens on). */
  currentTargetId?: string;
}

interface Grant {
  capability: string;
  audience: CdpAudience;
}

/** The child's endpoint, as it told the host over stdio. */
interface InternalEndpoint {
  port: number;
  secret: string;
  proofKey: string;
}

interface Browser {
  generation: number;
  internal: InternalEndpoint;
  grants: Map<CdpAudience, Grant>;
  /** Open exactly as long as the child's endpoint: when it closes (its context or browser went), every grant goes. */
  alive: WebSocket;
}

export class CdpEndpoint {
  private server: http.Server | undefined;
  private listening: Promise<number> | undefined;
  private browser: Browser | undefined;
  /** Each admitted socket with the child's end it is passed through to, by the audience that opened it. */
  private readonly sockets = new Map<Duplex, { audience: CdpAudience; pair: net.Socket }>();
  /** Origins the endpoint serves pages from besides its own loopback ones (where VS Code forwards it). */
  private readonly extraOrigins = new Set<string>();
  private readonly revokedEmitter = new Emitter<{ audience: CdpAudience; why: string }>();
  /** A capability stopped working: the person's DevTools closes, a shared address is dead. */
  readonly onDidRevoke = this.revokedEmitter.event;
  private readonly healthSubscription: { dispose(): void };
  private disposed = false;
  private readonly log: (line: string) => void;
  private readonly gate: LogGate;

  constructor(
    private readonly child: CdpChild,
    log: (line: string) => void,
  ) {
    this.gate = new LogGate(log);
    this.log = this.gate.log;
    this.healthSubscription = child.onDidChangeHealth(health => {
      const browser = this.browser;
      if (browser && (health.state !== 'ready' || health.generation !== browser.generation)) this.forgetBrowser('the browser closed or restarted');
    });
  }

  get port(): number | undefined {
    return (this.server?.address() as net.AddressInfo | null | undefined)?.port;
  }

  /** Pages served at another origin (VS Code's forwarding of the port, in a remote window) may open sockets too. */
  allowOrigin(origin: string): void {
    this.extraOrigins.add(origin.toLowerCase().replace(/\/$/, ''));
  }

  /**
   * A capability for `audience` on the watched browser, published now: the one it has if it has one, else a new
   * one. Refused in words when no browser is ready, or the child's endpoint does not prove to be that browser's.
   */
  publish(audience: CdpAudience): Promise<PublishedCdp> {
    // One at a time: each proof sets and clears the one challenge cookie, so two at once would spoil each other's.
    const turn = this.publishing.then(() => this.publishNow(audience));
    this.publishing = turn.catch(() => undefined);
    return turn;
  }

  private publishing: Promise<unknown> = Promise.resolve();

  private async publishNow(audience: CdpAudience): Promise<PublishedCdp> {
    if (this.disposed) throw new Error('Playwright Bridge is shutting down.');
    const port = await this.listen();
    const health = this.child.health;
    if (health.state !== 'ready') throw new Error('No browser runs: start one (any browser tool, or open the panel), then try again.');
    // Proved at each publish (the child's endpoint, the challenge), which also names the current tab for DevTools.
    const { browser, currentTargetId } = await this.prove(health.generation);
    let grant = browser.grants.get(audience);
    if (!grant) {
      grant = { capability: randomBytes(32).toString('base64url'), audience };
      browser.grants.set(audience, grant);
      this.gate.hide(audience === 'share' ? 'CDP_SHARE_CAPABILITY' : 'CDP_DEVTOOLS_CAPABILITY', grant.capability);
    }
    return { port, capability: grant.capability, ...(currentTargetId ? { currentTargetId } : {}) };
  }

  /** Takes the audience's capability back: its address stops working and its sockets close. */
  revoke(audience: CdpAudience, why: string): void {
    const grant = this.browser?.grants.get(audience);
    if (!grant) return;
    this.browser!.grants.delete(audience);
    this.closeSockets(audience);
    this.revokedEmitter.fire({ audience, why });
  }

  isPublished(audience: CdpAudience): boolean {
    return !!this.browser?.grants.has(audience);
  }

  /** Proves the child's endpoint reaches the watched browser: the challenge it set through Playwright, read back through CDP. */
  private async prove(generation: number): Promise<{ browser: Browser; currentTargetId?: string }> {
    const challenge = randomBytes(32).toString('base64url');
    const answer = await this.child.ask('cdpEndpoint', { challenge });
    let seen: string | undefined;
    let refused: string | undefined;
    try {
      const reply = await this.internalCommand(answer, 'Storage.getCookies', { browserContextId: answer.browserContextId });
      refused = (reply.error as { message?: string } | undefined)?.message;
      const cookies = (reply.result as { cookies?: { name: string; value: string; domain: string }[] } | undefined)?.cookies ?? [];
      seen = cookies.find(cookie => cookie.domain === 'cdp-challenge.invalid' && cookie.value === challenge)?.value;
    } finally {
      await this.child.ask('cdpChallengeDone', { challenge }).catch(() => undefined);
    }
    if (seen !== challenge)
      throw new Error(`The browser's CDP connection did not prove to be the watched browser's${refused ? ` (${refused})` : ''}; nothing is shared.`);
    if (this.child.health.state !== 'ready' || this.child.health.generation !== generation) throw new Error('The browser restarted meanwhile; try again.');
    const known = this.browser;
    // The secret is new with each endpoint (and its proof key with it).
    const same = known && known.generation === generation && known.internal.port === answer.port && known.internal.secret === answer.secret;
    if (known && !same) this.forgetBrowser('the watched browser changed');
    if (!same) {
      const internal = { port: answer.port, secret: answer.secret, proofKey: answer.proofKey };
      const record: Browser = { generation, internal, grants: new Map(), alive: await this.aliveSocket(internal) };
      record.alive.once('close', () => {
        if (this.browser === record) this.forgetBrowser('the browser closed or restarted');
      });
      this.browser = record;
    }
    return { browser: this.browser!, ...(answer.currentTargetId ? { currentTargetId: answer.currentTargetId } : {}) };
  }

  /** The socket that is open exactly as long as the child's endpoint is. */
  private aliveSocket(internal: InternalEndpoint): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const socket = provedSocket(internal, '/alive', reject);
      socket.once('open', () => resolve(socket));
      socket.once('error', error => reject(new Error(`The browser's CDP connection did not answer: ${error.message}`)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`The browser's CDP connection refused (HTTP ${res.statusCode})`)));
    });
  }

  /** One command on a browser session of the internal endpoint, for the bridge's own check. */
  private internalCommand(internal: InternalEndpoint, method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: unknown }> {
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        socket.terminate();
        reject(new Error(`The browser's CDP connection did not answer: ${error.message}`));
      };
      const socket = provedSocket(internal, '/devtools/browser', fail);
      socket.once('error', fail);
      socket.once('unexpected-response', (_req, res) => fail(new Error(`HTTP ${res.statusCode}`)));
      // A bound on a failure, not a wait for a condition: a child that never answers makes the publish fail in words.
      const timer = setTimeout(() => fail(new Error('no answer in 30 s')), 30_000);
      socket.once('close', () => clearTimeout(timer));
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method, params })));
      socket.on('message', data => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
        if (message.id !== 1) return;
        clearTimeout(timer);
        socket.close();
        resolve(message);
      });
    });
  }

  private listen(): Promise<number> {
    return (this.listening ??= new Promise((resolve, reject) => {
      const server = http.createServer((req, res) => void this.answer(req, res));
      server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        this.server = server;
        resolve((server.address() as net.AddressInfo).port);
      });
    }));
  }

  private origins(): Set<string> {
    const port = this.port;
    // Only where it serves pages: it listens on 127.0.0.1 alone (another user could bind [::1] at the same port).
    return new Set([`http://127.0.0.1:${port}`, ...this.extraOrigins]);
  }

  /** The request's grant and the path after its capability, or why it is refused. */
  private admit(req: http.IncomingMessage): { grant: Grant; path: string } | { status: 403 | 404; reason: string } {
    const grants = this.disposed ? [] : [...(this.browser?.grants.values() ?? [])];
    const verdict = checkCdpRequest(
      req,
      grants.map(grant => grant.capability),
      this.origins(),
    );
    if (!verdict.ok) return verdict;
    return { grant: grants.find(grant => grant.capability === verdict.capability)!, path: verdict.path };
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const admitted = this.admit(req);
    if (!('grant' in admitted)) {
      // Never the path: a capability (even a wrong or an old one) is not logged.
      this.log(`CDP endpoint refused a ${req.method} request: ${admitted.reason}`);
      res.writeHead(admitted.status, { 'content-type': 'text/plain' }).end(`Refused: ${admitted.reason}\n`);
      return;
    }
    const browser = this.browser!;
    const { path, grant } = admitted;
    // After each wait, the grant must still be the one the request came with: a revoke meanwhile answers nothing.
    const stillGranted = () => this.browser === browser && browser.grants.get(grant.audience) === grant && !this.disposed;
    const host = req.headers.host!;
    const base = `${host}/${admitted.grant.capability}`;
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    try {
      if (path === '/json/version') {
        const version = JSON.parse(await this.internalGet(browser, '/json/version')) as Record<string, unknown>;
        if (!stillGranted()) throw new Error('revoked');
        json(res, { ...version, webSocketDebuggerUrl: `ws://${base}/devtools/browser` });
      } else if (path === '/json/list' || path === '/json') {
        const targets = JSON.parse(await this.internalGet(browser, '/json/list')) as { id: string }[];
        if (!stillGranted()) throw new Error('revoked');
        json(
          res,
          targets.map(target => ({
            ...target,
            webSocketDebuggerUrl: `ws://${base}/devtools/page/${target.id}`,
            devtoolsFrontendUrl: `http://${base}/frontend/inspector.html?ws=${base}/devtools/page/${target.id}`,
          })),
        );
      } else if (path.startsWith('/frontend/')) {
        this.proxyFile(browser, path, res, stillGranted);
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('No such path\n');
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The browser did not answer: ${(error as Error).message.split('\n')[0]}\n`);
    }
  }

  private internalGet(browser: Browser, path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      provedGet(browser.internal, path, reject, res => {
        const chunks: Buffer[] = [];
        res.on('data', chunk => chunks.push(chunk as Buffer));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`HTTP ${res.statusCode}`))));
        res.on('error', reject);
      });
    });
  }

  private proxyFile(browser: Browser, path: string, res: http.ServerResponse, stillGranted: () => boolean): void {
    provedGet(
      browser.internal,
      path,
      error => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`The browser did not answer: ${error.message}\n`);
      },
      answer => {
        if (!stillGranted()) {
          answer.destroy();
          res.writeHead(403, { 'content-type': 'text/plain' }).end('Refused: revoked\n');
          return;
        }
        res.writeHead(answer.statusCode ?? 502, {
          'content-type': answer.headers['content-type'] ?? 'application/octet-stream',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
        answer.pipe(res);
      },
    );
  }

  /** A WebSocket admitted is passed through to the child's endpoint byte for byte (webSocketPassThrough.ts). */
  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const admitted = this.admit(req);
    const refuse = (status: number, reason: string) => {
      this.log(`CDP endpoint refused a WebSocket: ${reason}`);
      socket.end(
        `HTTP/1.1 ${status} ${status === 404 ? 'Not Found' : status === 502 ? 'Bad Gateway' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nRefused: ${reason}\n`,
      );
    };
    if (!('grant' in admitted)) return refuse(admitted.status, admitted.reason);
    if (!CDP_TARGET_PATH.test(admitted.path)) return refuse(404, 'no such CDP target');
    const browser = this.browser!;
    const { audience } = admitted.grant;
    const inner = net.connect(browser.internal.port, '127.0.0.1');
    let connected = false;
    inner.once('error', error => (connected ? socket.destroy() : refuse(502, `the browser did not answer (${error.message})`)));
    inner.once('connect', () => {
      // Revoked while the browser's side connected: nothing is admitted after a revoke.
      if (this.browser !== browser || browser.grants.get(audience) !== admitted.grant || this.disposed) {
        inner.destroy();
        return refuse(403, 'revoked');
      }
      connected = true;
      this.sockets.set(socket, { audience, pair: inner });
      passThrough(
        req,
        socket,
        head,
        inner,
        browser.internal.port,
        `/${browser.internal.secret}${admitted.path}`,
        () => this.sockets.delete(socket),
        challengeFor(browser.internal.proofKey),
      );
    });
  }

  private closeSockets(audience: CdpAudience | undefined): void {
    for (const [client, { audience: of, pair }] of [...this.sockets]) {
      if (audience && of !== audience) continue;
      this.sockets.delete(client);
      client.destroy();
      pair.destroy();
    }
  }

  /** Every capability of the browser goes, with its sockets: what reached it reaches nothing now. */
  private forgetBrowser(why: string): void {
    const browser = this.browser;
    if (!browser) return;
    this.browser = undefined;
    browser.alive.terminate();
    const audiences = [...browser.grants.keys()];
    browser.grants.clear();
    this.closeSockets(undefined);
    for (const audience of audiences) this.revokedEmitter.fire({ audience, why });
  }

  /** Stops admitting, revokes, closes every socket, then the listener: the port is free when this resolves. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.forgetBrowser('Playwright Bridge is shutting down');
    this.healthSubscription.dispose();
    const server = this.server ?? (await this.listening?.then(() => this.server).catch(() => undefined));
    if (server) {
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    }
    this.revokedEmitter.dispose();
  }
}

function json(res: http.ServerResponse, value: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(value, null, 2));
}

/** Said when what answered on the child's endpoint's port is not that endpoint (endpointProof.ts). */
const NOT_PROVED = "what answered there did not prove to be the browser's endpoint";

/** A GET to the child's endpoint whose answer is passed on only if it proves to be that endpoint's. */
function provedGet(internal: InternalEndpoint, path: string, fail: (error: Error) => void, answered: (res: http.IncomingMessage) => void): void {
  const challenge = challengeFor(internal.proofKey);
  http
    .get({ host: '127.0.0.1', port: internal.port, path: `/${internal.secret}${path}`, headers: { [NONCE_HEADER]: challenge.nonce } }, res => {
      if (challenge.metBy(res.headers[PROOF_HEADER])) return answered(res);
      res.destroy();
      fail(new Error(NOT_PROVED));
    })
    .on('error', fail);
}

/** A WebSocket of the host's own to the child's endpoint, ended unopened unless its handshake proves that endpoint. */
function provedSocket(internal: InternalEndpoint, path: string, fail: (error: Error) => void): WebSocket {
  const challenge = challengeFor(internal.proofKey);
  const socket = new WebSocket(`ws://127.0.0.1:${internal.port}/${internal.secret}${path}`, {
    perMessageDeflate: false,
    headers: { [NONCE_HEADER]: challenge.nonce },
  });
  socket.once('upgrade', res => {
    if (challenge.metBy(res.headers[PROOF_HEADER])) return;
    socket.terminate();
    fail(new Error(NOT_PROVED));
  });
  return socket;
}
