/**
 * A WebSocket admitted at one of the CDP doors, passed on byte for byte to the port behind it: the handshake's path
 * and Host become that port's, its Origin is left out, and from then on neither side is parsed (DevTools' traffic
 * would otherwise cost the extension host's event loop, where every tool call passes).
 */
import type * as http from 'http';
import type * as net from 'net';
import type { Duplex } from 'stream';
import { NONCE_HEADER, PROOF_HEADER, proofInHead, type ProofChallenge } from './endpointProof';

/** The CDP WebSockets a door passes on: the browser's, or one page's. */
export const CDP_TARGET_PATH = /^\/devtools\/(browser|page\/[0-9A-Fa-f]{1,64})$/;

/**
 * Writes the handshake to `inner` (connected to `port`), pipes both ways, and ends both when either ends. With a
 * proof, the answer's head is held until it proves the port behind; if it does not, the client gets a 502.
 */
export function passThrough(
  req: http.IncomingMessage,
  client: Duplex,
  head: Buffer,
  inner: net.Socket,
  port: number,
  path: string,
  ended: () => void,
  proof?: ProofChallenge,
): void {
  const lines = [`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
  // The client's own Host, Origin and anything claiming to be the bridge's are not passed on.
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
    if (!/^(host|origin|x-playwright-bridge-.*)$/i.test(req.rawHeaders[i])) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  if (proof) lines.push(`${NONCE_HEADER}: ${proof.nonce}`);
  inner.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length) inner.write(head);
  client.pipe(inner);
  const closeBoth = () => {
    ended();
    client.destroy();
    inner.destroy();
  };
  client.on('close', closeBoth);
  client.on('error', closeBoth);
  inner.on('close', closeBoth);
  inner.on('error', closeBoth);
  if (!proof) {
    inner.pipe(client);
    return;
  }
  let held = Buffer.alloc(0);
  const hold = (chunk: Buffer) => {
    held = Buffer.concat([held, chunk]);
    const end = held.indexOf('\r\n\r\n');
    if (end < 0) {
      if (held.length > 16 * 1024) closeBoth();
      return;
    }
    inner.off('data', hold);
    if (!proof.metBy(proofInHead(held.subarray(0, end).toString('latin1')))) {
      // The client hears why before its socket ends: the port behind is dropped quietly first.
      inner.off('close', closeBoth);
      inner.off('error', closeBoth);
      inner.on('error', () => undefined);
      inner.destroy();
      client.end(
        "HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nRefused: what answered did not prove to be the browser's endpoint\n",
      );
      return;
    }
    // The proof was for the bridge: the client gets the answer without it.
    const answer = held
      .subarray(0, end)
      .toString('latin1')
      .replace(new RegExp(`\\r\\n${PROOF_HEADER}:[^\\r]*`, 'gi'), '');
    client.write(Buffer.concat([Buffer.from(answer, 'latin1'), held.subarray(end)]));
    inner.pipe(client);
  };
  inner.on('data', hold);
}
