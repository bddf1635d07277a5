/** A CDP client as small as a test needs: one command over a WebSocket, and how the endpoint refused it if it did. */
import { WebSocket } from 'ws';

export interface CdpAnswer {
  result?: Record<string, unknown>;
  /** The HTTP status the upgrade was refused with. */
  refused?: number;
  error?: string;
}

/** Opens a WebSocket to `url` with these headers and sends one command: its answer, or how it was refused. */
export function cdpCall(url: string, headers: Record<string, string> = {}, method = 'Browser.getVersion'): Promise<CdpAnswer> {
  return new Promise(resolve => {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    socket.once('unexpected-response', (_req, res) => {
      resolve({ refused: res.statusCode });
      socket.terminate();
    });
    socket.once('error', error => resolve({ error: error.message }));
    socket.once('open', () => socket.send(JSON.stringify({ id: 1, method, params: {} })));
    socket.on('message', data => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
      if (message.id !== 1) return;
      resolve({ result: message.result });
      socket.close();
    });
  });
}

/** A CDP message as a test reads it. */
export interface CdpMessageSeen {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** A CDP client that stays: commands answered in turn, and every event it heard, in order. */
export class CdpConnection {
  readonly events: CdpMessageSeen[] = [];
  private lastId = 0;
  private readonly answers = new Map<number, (message: CdpMessageSeen) => void>();
  private readonly heard = new Set<() => void>();
  /** Why the endpoint closed the connection, once it did. */
  closed: string | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', data => {
      const message = JSON.parse(String(data)) as CdpMessageSeen;
      if (message.id !== undefined) this.answers.get(message.id)?.(message);
      else this.events.push(message);
      for (const listener of this.heard) listener();
    });
    socket.on('close', (code, reason) => {
      this.closed = `${code} ${String(reason)}`;
      for (const listener of this.heard) listener();
    });
  }

  static open(url: string): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      socket.once('open', () => resolve(new CdpConnection(socket)));
      socket.once('error', reject);
    });
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<CdpMessageSeen> {
    return new Promise(resolve => {
      const id = ++this.lastId;
      this.answers.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Waits until an event (or the close) meets the condition: the first event that does, or undefined when it closed. */
  until(condition: (event: CdpMessageSeen) => boolean): Promise<CdpMessageSeen | undefined> {
    return new Promise(resolve => {
      const check = () => {
        const found = this.events.find(condition);
        if (found || this.closed !== undefined) {
          this.heard.delete(check);
          resolve(found);
        }
      };
      this.heard.add(check);
      check();
    });
  }

  close(): void {
    this.socket.close();
  }
}
