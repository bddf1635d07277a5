/**
 * Connecting to a browser that runs elsewhere instead of launching one: a Playwright server
 * (`run-server`, a grid) or a Chromium-family browser's DevTools (CDP) endpoint. Only loopback
 * unless the person allows more, because an open CDP port is full control of that browser.
 */
export type ConnectionProtocol = 'playwright' | 'cdp';

export interface BrowserConnection {
  protocol: ConnectionProtocol;
  endpoint: string;
  /** Headers from settings (not credentials; those come from SecretStorage at start). */
  headers: Record<string, string>;
  /** A browser we did not start: Restart Browser reconnects, closing VS Code leaves it running. */
  summary: string;
}

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
    return { problem: `"${endpoint}" is not an address like ws://127.0.0.1:3000/ (a Playwright server) or http://127.0.0.1:9222 (CDP).` };
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol)) {
    return { problem: `"${endpoint}" must start with ws://, wss://, http:// or https://.` };
  }
  if (!isLoopbackHost(url.hostname) && !allowNonLoopback) {
    return {
      problem: `"${url.host}" is not this machine. Connecting to a browser elsewhere needs playwrightBridge.connect.allowNonLoopback ` +
        '(user settings): anyone who can reach that endpoint controls that browser.',
    };
  }
  const protocol: ConnectionProtocol = url.protocol.startsWith('http') || url.pathname.startsWith('/devtools/browser/') ? 'cdp' : 'playwright';
  const kind = protocol === 'cdp' ? 'a browser over CDP' : 'a Playwright server';
  return { connection: { protocol, endpoint, headers, summary: `${kind} at ${url.host} (connected, not started by the bridge)` } };
}
