/**
 * The browser's internal CDP endpoint, in the child: loopback only, behind a secret of its own that only the
 * extension host learns (over the child's private stdio), for one watched browser context. The host's managed
 * endpoint (core/cdpDoor/) is the only door to it: it checks the person's capability, the Host and the Origin, and
 * proxies here. When that context or its browser goes, the endpoint closes with every socket on it, the host's
 * `alive` socket first (the host revokes on it), so no URL that reached it can reach the next one: a new context
 * has a new endpoint, with a new port and secret.
 *
 *   GET /<secret>/json/list                  the given pages: id, type, title, url
 *   GET /<secret>/json/version               the browser's version and protocol
 *   GET /<secret>/frontend/<path>            DevTools' own frontend, from the browser's bundle
 *   WS  /<secret>/devtools/browser           flat CDP on a browser session of the client's own
 *   WS  /<secret>/devtools/page/<targetId>   flat CDP on that page
 *   WS  /<secret>/alive                      the host's: open exactly as long as this endpoint
 */
import { randomBytes } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Browser, BrowserContext, Page } from 'playwright';
import { WebSocketServer, type WebSocket } from 'ws';
import { sameSecret } from '../../core/mcpDoor/requestGuard';
import { NONCE_HEADER, PROOF_HEADER, newProofKey, proofOf } from '../../core/cdpDoor/endpointProof';
import { browserPipeOf, type BrowserPipe } from './browserPipe';
import { CdpClientLink, type LinkTarget } from './cdpClientLink';
import { DevtoolsFrontend } from './devtoolsFrontend';
import type { DebuggerPauses } from './debuggerPauses';
import { TargetScope, type ContextRange } from './targetScope';

export interface InternalAddress {
  port: number;
  secret: string;
  /** The key of the proof each answer carries (core/cdpDoor/endpointProof.ts); like the secret, only the host learns it. */
  proofKey: string;
}

/** The session the endpoint is for: what its clients may see. */
export interface WatchedSession {
  /** The pages `json/list` names, in the session's order. */
  pages(): Promise<Page[]>;
  /** Its browser contexts (its main one and the ones it opened by name): the only ones its clients reach. */
  contexts(): BrowserContext[];
}

export interface CdpTarget {
  id: string;
  type: string;
  title: string;
  url: string;
}

/** A page's id as CDP names it (the target id), read over a short session of its own. */
export async function targetIdOf(page: Page): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { targetInfo } = (await cdp.send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
    return targetInfo.targetId;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d+$/i;

export class InternalCdpEndpoint {
  private readonly secret = randomBytes(32).toString('base64url');
  private readonly proofKey = newProofKey();
  private readonly server = http.createServer((req, res) => void this.answer(req, res));
  // Chromium drops its pipe, and exits, at a message over 100 MB: a client's message over this is refused instead.
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  /** The host's sockets that say this endpoint is there: closed first when it goes. */
  private readonly alive = new Set<WebSocket>();
  private readonly links = new Set<{ link: CdpClientLink; socket: WebSocket }>();
  private readonly frontend: DevtoolsFrontend;
  private listening: Promise<InternalAddress> | undefined;
  private readonly range: ContextRange;
  private closed = false;

  private constructor(
    private readonly pipe: BrowserPipe,
    private readonly browser: Browser,
    context: BrowserContext,
    private readonly watched: WatchedSession,
    private readonly pauses?: DebuggerPauses,
  ) {
    this.frontend = new DevtoolsFrontend(browser);
    this.range = {
      includes: id => watched.contexts().some(each => pipe.contextIdOf(each)?.id === id),
      get newTargetContext() {
        const main = pipe.contextIdOf(context);
        return main && !main.isDefault ? main.id : undefined;
      },
      get includesDefault() {
        return watched.contexts().some(each => pipe.contextIdOf(each)?.isDefault === true);
      },
    };
    // A WebSocket admitted (its secret right) proves this endpoint in its handshake's answer.
    this.sockets.on('headers', (headers, req) => {
      const proof = this.proofFor(req);
      if (proof) headers.push(`${PROOF_HEADER}: ${proof}`);
    });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.pathOf(req) === '/alive') {
        this.sockets.handleUpgrade(req, socket, head, ws => {
          if (this.closed) return ws.terminate();
          this.alive.add(ws);
          ws.on('close', () => this.alive.delete(ws));
          ws.on('error', () => undefined);
        });
        return;
      }
      const target = this.admit(req);
      if (!target) {
        socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
        return;
      }
      this.sockets.handleUpgrade(req, socket, head, ws => void this.link(ws, target));
    });
    browser.on('disconnected', () => void this.close());
    context.on('close', () => void this.close());
  }

  /**
   * The endpoint for a Chromium context (the watched one) on its browser, or why it cannot have one. `browser` is
   * the browser itself, never a session's view of it (sessionContexts.ts): the frontend's private context is
   * opened on it and must not become the session's.
   */
  static of(context: BrowserContext, browser: Browser | null, watched: WatchedSession, pauses?: DebuggerPauses): InternalCdpEndpoint | { unavailable: string } {
    if (!browser) return { unavailable: 'this browser has no CDP connection the bridge can share' };
    const pipe = browserPipeOf(context);
    if ('unavailable' in pipe) return pipe;
    return new InternalCdpEndpoint(pipe, browser, context, watched, pauses);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  listen(): Promise<InternalAddress> {
    return (this.listening ??= new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve({ port: (this.server.address() as AddressInfo).port, secret: this.secret, proofKey: this.proofKey }));
    }));
  }

  /** The path after the secret, for a request from the host (a loopback Host, no Origin, the secret first). */
  private pathOf(req: http.IncomingMessage): string | undefined {
    if (this.closed || req.headers.origin !== undefined || !LOOPBACK_HOST.test(req.headers.host ?? '')) return undefined;
    const url = new URL(req.url ?? '/', 'http://internal');
    const [, presented, ...rest] = url.pathname.split('/');
    if (!presented || !sameSecret(presented, this.secret)) return undefined;
    return `/${rest.join('/')}`;
  }

  /** The proof for a request from the host (its secret right, a nonce sent), or undefined. */
  private proofFor(req: http.IncomingMessage): string | undefined {
    const nonce = req.headers[NONCE_HEADER];
    return typeof nonce === 'string' && this.pathOf(req) !== undefined ? proofOf(this.proofKey, nonce) : undefined;
  }

  private admit(req: http.IncomingMessage): LinkTarget | undefined {
    const path = this.pathOf(req);
    if (path === '/devtools/browser') return { kind: 'browser' };
    const page = /^\/devtools\/page\/([0-9A-Fa-f]{1,64})$/.exec(path ?? '');
    return page ? { kind: 'page', targetId: page[1] } : undefined;
  }

  private async link(socket: WebSocket, target: LinkTarget): Promise<void> {
    const link = new CdpClientLink(
      this.pipe,
      target,
      text => socket.send(text),
      why => socket.close(1001, why.slice(0, 100)),
      new TargetScope(this.range),
      this.pauses,
    );
    const entry = { link, socket };
    this.links.add(entry);
    socket.on('close', () => {
      this.links.delete(entry);
      void link.close();
    });
    // A client's bad frame (one over the size limit, a broken mask): ws closes its socket with the code that says why;
    // heard here so that it never ends the child.
    socket.on('error', () => undefined);
    socket.on('message', data => void link.receive(data.toString()).catch(error => socket.close(1011, String((error as Error).message).slice(0, 100))));
    try {
      await link.open();
    } catch (error) {
      socket.close(1011, (error as Error).message.slice(0, 100));
    }
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = this.pathOf(req);
    const proof = this.proofFor(req);
    if (proof) res.setHeader(PROOF_HEADER, proof);
    const json = (value: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(value));
    };
    try {
      if (req.method !== 'GET' || path === undefined) {
        res.writeHead(403).end();
      } else if (path === '/json/list' || path === '/json') {
        const targets: CdpTarget[] = [];
        for (const page of await this.watched.pages())
          if (!page.isClosed()) targets.push({ id: await targetIdOf(page), type: 'page', title: await page.title().catch(() => ''), url: page.url() });
        json(targets);
      } else if (path === '/json/version') {
        json({ Browser: this.browser.version(), 'Protocol-Version': '1.3' });
      } else if (path.startsWith('/frontend/')) {
        const file = await this.frontend.file(decodeURIComponent(path.slice('/frontend/'.length)));
        res.writeHead(file.status, { 'content-type': file.type, 'cache-control': 'no-store' });
        res.end(file.body);
      } else {
        res.writeHead(404).end();
      }
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end((error as Error).message.split('\n')[0]);
    }
  }

  /** Closes the listener and every client's connection; the browser's sessions of theirs are detached. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The host hears first, and revokes: nothing it admits after this is proxied here.
    for (const socket of [...this.alive]) socket.terminate();
    this.alive.clear();
    for (const { socket, link } of [...this.links]) {
      socket.terminate();
      await link.close();
    }
    this.links.clear();
    this.sockets.close();
    await this.frontend.close();
    this.server.closeAllConnections();
    await new Promise<void>(resolve => this.server.close(() => resolve()));
  }
}
