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
