/**
 * A WebSocket admitted at one of the CDP doors, passed on byte for byte to the port behind it: the handshake's path
 * and Host become that port's, its Origin is left out, and from then on neither side is parsed (DevTools' traffic
 * would otherwise cost the extension host's event loop, where every tool call passes).
 */
import type * as http from 'http';
import type * as net from 'net';
import type { Duplex } from 'stream';

/** The CDP WebSockets a door passes on: the browser's, or one page's. */
export const CDP_TARGET_PATH = /^\/devtools\/(browser|page\/[0-9A-Fa-f]{1,64})$/;

/** Writes the handshake to `inner` (connected to `port`), pipes both ways, and ends both when either ends. */
export function passThrough(req: http.IncomingMessage, client: Duplex, head: Buffer, inner: net.Socket, port: number, path: string, ended: () => void): void {
  const lines = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    if (!/^(host|origin)$/i.test(req.rawHeaders[i])) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  inner.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length) inner.write(head);
  client.pipe(inner);
  inner.pipe(client);
  const closeBoth = () => {
    ended();
    client.destroy();
    inner.destroy();
  };
  client.on('close', closeBoth);
  client.on('error', closeBoth);
  inner.on('close', closeBoth);
  inner.on('error', closeBoth);
}
