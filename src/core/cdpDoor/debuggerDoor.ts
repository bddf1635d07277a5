/**
 * The door for VS Code's own JavaScript debugger (js-debug). Its Chrome attach takes an address and a port only: it
 * reads `/json/version` at the root of `http://address:port` and opens the WebSocket named there, so a capability
 * in a path cannot reach it. This door is that bare port, guarded in other ways:
 * - it lives only while its debug session does (and goes at once with the capability it stands for);
 * - it admits only connections made by this very process (the extension host, where js-debug's adapter runs): the
 *   other end of each must be one of the client sockets Node announced this process connecting (OwnClientSockets);
 * - everywhere, it stops listening once the debugger's WebSocket is open (what it needs after is that socket).
 * Behind it, the managed endpoint with the person's DevTools capability, added here and never handed out.
 */
import * as diagnosticsChannel from 'diagnostics_channel';
import * as http from 'http';
import * as net from 'net';
import type { Duplex } from 'stream';
import { CDP_TARGET_PATH, passThrough } from './webSocketPassThrough';

/** Where the door forwards: the managed endpoint's port and the DevTools capability. */
export interface DoorTarget {
  port: number;
  capability: string;
}

/**
 * This process's own client sockets while a door is open, as Node announces each one it connects
 * (`diagnostics_channel` 'net.client.socket'): a connection to the door is admitted only if one of these is its
 * other end (the same address and port, to the door's port). Another process, another user binding another
 * loopback address with the same port, or a socket handed over from a child process is none of them; this holds on
 * every system, with nothing read from /proc.
 */
class OwnClientSockets {
  private readonly sockets = new Set<net.Socket>();
  private users = 0;
  private readonly listener = (message: unknown) => {
    const socket = (message as { socket?: net.Socket }).socket;
    if (!(socket instanceof net.Socket)) return;
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  };

  use(): { dispose(): void } {
    if (this.users++ === 0) diagnosticsChannel.subscribe('net.client.socket', this.listener);
    let disposed = false;
    return {
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (--this.users === 0) {
          diagnosticsChannel.unsubscribe('net.client.socket', this.listener);
          this.sockets.clear();
        }
      },
    };
  }

  /**
   * Whether the socket that connected to us is the other end of one of ours: the same address and port on both
   * ends. Ours may not know its peer yet when the door accepts (its connect completes on its own turn): it is
   * judged once it does.
   */
  async isOwn(accepted: net.Socket): Promise<boolean> {
    if (accepted.remoteAddress !== '127.0.0.1') return false;
    for (const socket of [...this.sockets]) {
      if (socket.localAddress !== accepted.remoteAddress || socket.localPort !== accepted.remotePort) continue;
      if (socket.connecting)
        await new Promise(resolve => {
          socket.once('connect', resolve);
          socket.once('close', resolve);
        });
      if (socket.remotePort === accepted.localPort) return true;
    }
    return false;
  }
}

const ownClientSockets = new OwnClientSockets();

export class DebuggerDoor {
  private readonly server = http.createServer((req, res) => void this.answer(req, res));
  private readonly sockets = new Set<Duplex>();
  private closed = false;
  private readonly watching = ownClientSockets.use();

  private constructor(
    private readonly target: DoorTarget,
    private readonly log: (line: string) => void,
  ) {
    this.server.on('upgrade', (req, socket, head) => {
      // Held while the connection is judged: nothing it sends meanwhile is lost.
      socket.pause();
      void this.upgrade(req, socket, head);
    });
    // A connection another process made is dropped as it arrives, before a byte of it is read: it holds no place
    // among the few js-debug needs, and no one else can keep the door busy.
    this.server.on('connection', (socket: net.Socket) => {
      void ownClientSockets.isOwn(socket).then(mine => {
        if (mine) return;
        this.log('Debugger door dropped a connection another process made');
        socket.destroy();
      });
    });
    // js-debug opens a few: a flood of connections is not admitted to wait.
    this.server.maxConnections = 16;
  }

  /** Opens the door on a free loopback port. */
  static async open(target: DoorTarget, log: (line: string) => void): Promise<DebuggerDoor> {
    const door = new DebuggerDoor(target, log);
    await new Promise<void>((resolve, reject) => {
      door.server.once('error', reject);
      door.server.listen(0, '127.0.0.1', resolve);
    });
    door.port = (door.server.address() as net.AddressInfo).port;
    return door;
  }

  /** Its port (kept after it stops listening: the debugger's socket is still on it). */
  port = 0;

  /** Whether this connection may use the door: not from a web page, and (where it can be told) from this process. */
  private async admits(req: http.IncomingMessage): Promise<string | undefined> {
    if (this.closed) return 'the debug session ended';
    if (req.headers.origin !== undefined) return 'requests from web pages are refused';
    if (!/^(127\.0\.0\.1|localhost)(:\d+)?$/i.test(req.headers.host ?? '')) return 'not a loopback host';
    // Judged again at each request, not only as it arrived: a socket of ours handed to a child process since is ours no longer.
    if (!(await ownClientSockets.isOwn(req.socket))) return 'only VS Code (this extension host) may use this port';
    return undefined;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const refused = await this.admits(req);
    if (refused || req.method !== 'GET') {
      this.log(`Debugger door refused a request: ${refused ?? 'not a GET'}`);
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end(`Refused: ${refused ?? 'not a GET'}\n`);
      return;
    }
    const path = new URL(req.url ?? '/', 'http://door').pathname;
    if (path !== '/json/version' && path !== '/json/list' && path !== '/json') {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await this.get(path === '/json' ? '/json/list' : path);
      // The WebSocket addresses are the door's own: the capability stays here.
      const own = body.replaceAll(`127.0.0.1:${this.target.port}/${this.target.capability}`, `127.0.0.1:${this.port}`);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(own);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`The browser did not answer: ${(error as Error).message}\n`);
    }
  }

  private get(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port: this.target.port, path: `/${this.target.capability}${path}`, headers: { host: `127.0.0.1:${this.target.port}` } },
          res => {
            let body = '';
            res.on('data', chunk => (body += String(chunk)));
            res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`HTTP ${res.statusCode}`))));
          },
        )
        .on('error', reject);
    });
  }

  private async upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://door').pathname;
    const refused = (await this.admits(req)) ?? (CDP_TARGET_PATH.test(path) ? undefined : 'no such CDP target');
    if (refused) {
      this.log(`Debugger door refused a WebSocket: ${refused}`);
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\nRefused: ${refused}\n`);
      return;
    }
    const inner = net.connect(this.target.port, '127.0.0.1', () => {
      this.sockets.add(socket);
      passThrough(req, socket, head, inner, this.target.port, `/${this.target.capability}${path}`, () => this.sockets.delete(socket));
      // The debugger is in: nothing else needs this port while its session lasts.
      this.server.close();
    });
    inner.once('error', () => socket.destroy());
  }

  /** The session ended (or its capability went): the port is released and the debugger's socket closes. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watching.dispose();
    this.server.close();
    this.server.closeAllConnections();
    for (const socket of [...this.sockets]) socket.destroy();
    this.sockets.clear();
  }
}
