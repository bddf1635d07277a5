import { randomBytes, timingSafeEqual } from 'crypto';
import type { IncomingMessage } from 'http';

/** 256 bits from the OS's random source, URL-safe. */
export function newBearerToken(): string {
  return randomBytes(32).toString('base64url');
}

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

/**
 * Who may talk to the loopback endpoint: a request must name a loopback host with our port (so a
 * page on a rebinding DNS name cannot reach us), come from no browser page (no Origin header), and
 * carry our bearer token (compared in constant time). The token never appears in a reason.
 */
export function checkRequest(req: Pick<IncomingMessage, 'headers'>, port: number, token: string): GuardVerdict {
  const host = (req.headers.host ?? '').toLowerCase();
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!allowedHosts.includes(host)) return { ok: false, status: 403, reason: `Host "${host.slice(0, 100)}" is not a loopback address of this endpoint` };
  if (req.headers.origin !== undefined) return { ok: false, status: 403, reason: 'requests from web pages (with an Origin header) are refused' };
  const authorization = req.headers.authorization ?? '';
  const presented = /^Bearer (.+)$/i.exec(authorization)?.[1] ?? '';
  if (!presented) return { ok: false, status: 401, reason: 'missing bearer token' };
  if (!sameSecret(presented, token)) return { ok: false, status: 401, reason: 'wrong bearer token' };
  return { ok: true };
}

/** Whether a presented secret is the expected one, in time that says nothing of how much of it matched. */
export function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  // Compare equal-length buffers only; a length mismatch still costs one comparison.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
