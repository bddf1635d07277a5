/**
 * A failed load in words: Chromium's net error codes (and Playwright's wording of them) as a person reads
 * them, the code kept at the end for whoever searches it. What the panel's error page and Activity say.
 */

const WORDS: Record<string, string> = {
  ERR_CONNECTION_REFUSED: 'the server refused the connection: nothing listens at that address and port',
  ERR_CONNECTION_RESET: 'the connection was reset before the server answered',
  ERR_CONNECTION_CLOSED: 'the server closed the connection without an answer',
  ERR_EMPTY_RESPONSE: 'the server closed the connection without an answer',
  ERR_CONNECTION_TIMED_OUT: 'the server did not answer in time',
  ERR_TIMED_OUT: 'the server did not answer in time',
  ERR_ADDRESS_UNREACHABLE: 'that address cannot be reached from this machine',
  ERR_NAME_NOT_RESOLVED: 'no server is known by that name (it may be mistyped, or this machine is offline)',
  ERR_NAME_RESOLUTION_FAILED: 'the name could not be looked up (this machine may be offline)',
  ERR_INTERNET_DISCONNECTED: 'this machine is offline',
  ERR_NETWORK_CHANGED: 'the network changed during the load',
  ERR_UNSAFE_PORT: 'browsers do not open that port (it belongs to another kind of service)',
  ERR_BLOCKED_BY_CLIENT: 'the bridge blocked it (the allowed or blocked origins settings)',
  ERR_BLOCKED_BY_RESPONSE: 'the site does not allow itself to be shown here',
  ERR_TOO_MANY_REDIRECTS: 'the site redirects in a loop',
  ERR_INVALID_URL: 'that is not a valid address',
  ERR_DISALLOWED_URL_SCHEME: 'the browser does not open that kind of address',
  ERR_UNKNOWN_URL_SCHEME: 'the browser does not open that kind of address',
  ERR_SSL_PROTOCOL_ERROR: 'the secure connection failed (the server may not speak HTTPS on that port)',
  ERR_CERT_AUTHORITY_INVALID: "the site's certificate is not from an authority the browser trusts",
  ERR_CERT_COMMON_NAME_INVALID: "the site's certificate is for another name",
  ERR_CERT_DATE_INVALID: "the site's certificate has expired or is not valid yet",
  ERR_FILE_NOT_FOUND: 'there is no such file',
  ERR_ABORTED: 'the load was stopped (another navigation, a download, or Stop)',
  ERR_FAILED: 'the load failed',
};

/** "net::ERR_CONNECTION_REFUSED at http://…" (or a line holding it) in words, with the code; other text as it is. */
export function netErrorWords(text: string): string {
  const code = /net::(ERR_[A-Z_]+)/.exec(text)?.[1];
  if (!code) return text;
  const words = WORDS[code] ?? (code.startsWith('ERR_CERT_') ? "the site's certificate is not accepted" : 'the load failed');
  return `${words} (${code})`;
}

/** A failed page load as Activity says it: "Could not open <url>: <reason>". */
export function failedLoadMessage(url: string, errorText: string): string | undefined {
  if (!/net::ERR_[A-Z_]+/.test(errorText)) return undefined;
  return `Could not open ${url}: ${netErrorWords(errorText)}`;
}

/** The page Chromium shows for a failed load (its address is not the one that failed). */
export function isBrowserErrorPage(url: string): boolean {
  return url.startsWith('chrome-error://');
}
