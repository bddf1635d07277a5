/**
 * Connecting to a browser that runs elsewhere instead of launching one: a Playwright server
 * (`run-server`, a grid) or a Chromium-family browser's DevTools (CDP) endpoint. Only loopback
 * unless the person allows more, because an open CDP port is full control of that browser.
 */
import type { BrowserConnection, ConnectionProtocol } from '../../protocol/childConfig';
export type { BrowserConnection, ConnectionProtocol } from '../../protocol/childConfig';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * How to reach `endpoint`: http(s) and DevTools websocket addresses are CDP; any other ws(s)
 * address is a Playwright server. Returns the connection or why it cannot be used.
 */
export function parseConnection(
  endpoint: string,
  headers: Record<string, string>,
  allowNonLoopback: boolean,
): { connection: BrowserConnection } | { problem: string } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    // Not quoted: what cannot be parsed cannot be told apart from its credentials either.
    return { problem: `The endpoint is not an address like ws://127.0.0.1:3000/ (a Playwright server) or http://127.0.0.1:9222 (CDP).` };
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) {
    // Not quoted: `admin:pw@host` parses as scheme `admin:`, the rest being its credentials.
    return { problem: 'The endpoint must start with ws://, wss://, http:// or https://.' };
  }
  if (!isLoopbackHost(url.hostname) && !allowNonLoopback) {
    return {
      problem:
        `"${url.host}" is not this machine. Connecting to a browser elsewhere needs playwrightBridge.connect.allowNonLoopback ` +
        '(user settings): anyone who can reach that endpoint controls that browser.',
    };
  }
  const protocol: ConnectionProtocol = url.protocol.startsWith('http') || url.pathname.startsWith('/devtools/browser/') ? 'cdp' : 'playwright';
  const kind = protocol === 'cdp' ? 'a browser over CDP' : 'a Playwright server';
  // Canonical from here on (ws:admin:pw@host, ws:\\admin@… and quotes in a password become ws://…%22…@host/): the
  // one spelling redactEndpoint is sure to read, for connecting and for every message alike.
  // No slash added to a bare host:port (http://127.0.0.1:9222 stays as written, as messages quote it).
  const canonical = url.pathname === '/' && !url.search && !url.hash && !endpoint.trim().endsWith('/') ? url.href.slice(0, -1) : url.href;
  const shown = redactEndpoint(canonical);
  return { connection: { protocol, endpoint: canonical, headers, summary: `${kind} at ${shown} (connected, not started by the bridge)` } };
}

/**
 * Any URL in `text` (an endpoint, or a message that quotes one) without its user name, password,
 * query string and fragment: `ws://***@host:3000/?…`. Tokens ride in the query of many grids, so it
 * goes whole. The one place endpoints are made fit to show: results, the log, the status bar,
 * errors and the panel all pass through here.
 */
export function redactEndpoint(text: string): string {
  return text.replace(
    URL_IN_TEXT,
    (_match, scheme: string, userinfo: string | undefined, rest: string, query: string | undefined) =>
      `${scheme}${userinfo ? '***@' : ''}${rest}${query ? '?…' : ''}`,
  );
}

/** scheme://, then userinfo up to the last @ before the path, host and path, then a query and/or fragment. */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#"'<>]*@)?([^\s?#"'<>]*)([?#][^\s"'<>]*)?/gi;

/** Query keys that carry credentials in the grids' own instructions (browserless `token`, `apiKey`, `auth`...). */
const CREDENTIAL_QUERY_KEY = /token|key|auth|pass|secret|sig|cred|session|jwt/i;

/**
 * Whether the endpoint as written holds credentials: a user name or password, or a query key that
 * names one. Settings files are plain text (and often shared), so the person is pointed to Set
 * Connection Credentials, which keeps a header in VS Code's secret storage.
 */
export function endpointHoldsCredentials(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return redactEndpoint(endpoint) !== endpoint;
  }
  return !!(url.username || url.password) || [...url.searchParams.keys()].some(key => CREDENTIAL_QUERY_KEY.test(key));
}
