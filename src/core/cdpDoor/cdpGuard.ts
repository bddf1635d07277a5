/**
 * Who may use the managed CDP endpoint: a request must name a loopback host (so a page on a rebinding DNS name
 * cannot reach it; any port, as VS Code's port forwarding may give another), come from no web page (no Origin),
 * or from the endpoint's own origin (the DevTools frontend it serves), and carry the current capability as the
 * first segment of its path (compared in constant time). The capability never appears in a reason.
 */
import type { IncomingMessage } from 'http';
import { sameSecret } from '../mcpDoor/requestGuard';

export type CdpVerdict = { ok: true; capability: string; path: string } | { ok: false; status: 403 | 404; reason: string };

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/**
 * `capabilities`: the ones published now (none: every request is refused). `origins`: the origins the endpoint
 * itself serves pages from (its loopback address, and where VS Code forwards it).
 */
export function checkCdpRequest(req: Pick<IncomingMessage, 'headers' | 'url'>, capabilities: readonly string[], origins: ReadonlySet<string>): CdpVerdict {
  const host = (req.headers.host ?? '').toLowerCase();
  if (!LOOPBACK_HOST.test(host)) return { ok: false, status: 403, reason: `Host "${host.slice(0, 100)}" is not a loopback address` };
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin.toLowerCase()))
    return { ok: false, status: 403, reason: `requests from web pages (Origin ${origin.slice(0, 100)}) are refused` };
  const [, presented = '', ...rest] = new URL(req.url ?? '/', 'http://cdp').pathname.split('/');
  if (!capabilities.length) return { ok: false, status: 403, reason: 'nothing is shared now (Share Browser CDP Address or Open DevTools publishes one)' };
  // Each one compared whole, whichever matches: how long it takes says nothing of which, or of how much matched.
  const matched = capabilities.filter(capability => sameSecret(presented, capability));
  if (matched.length !== 1) return { ok: false, status: 403, reason: 'not an address published now (revoked, or from an earlier browser)' };
  return { ok: true, capability: matched[0], path: `/${rest.join('/')}` };
}
