/**
 * The entries of network.allowedOrigins / blockedOrigins, read the way upstream reads them (`originOrHostGlob` in
 * @playwright/mcp's context.ts), so the bridge accepts exactly what upstream acts on and passes it through unchanged:
 *   - `http://host:*` or `https://host:*`: that scheme and host on any port given in the URL;
 *   - a URL whose origin is not "null" (`https://example.com`, `http://localhost:3000`, a path is ignored): that origin;
 *   - anything else is a host, matched on every scheme: `example.com`, `localhost:3000`, `*.example.com`, `*`.
 * Upstream turns each into a URL glob where `*` stands for any run of characters but `/`; without a port only the
 * scheme's default port matches (`example.com` does not match `http://example.com:8080`).
 */

/** One entry as upstream matches it: a scheme (`*`: any) and `host[:port]`, where `*` in either is a wildcard. */
export interface OriginRule {
  scheme: string;
  authority: string;
}

const ANY_PORT = /^(https?):\/\/([^/:]+):\*$/i;
/** A host (letters, digits, `-`, `_`, `.`, `*` wildcards, or a bracketed IPv6 address) with an optional port or `*`. */
const HOST_FORM = /^(\[[0-9a-f:.]+\]|[a-z0-9*_.-]+)(:(\d{1,5}|\*))?$/i;
const ROUTED_SCHEMES = ['http:', 'https:'];

export const ORIGIN_FORMS = 'https://example.com, http://localhost:*, example.com, localhost:3000 or *.example.com';

/** How upstream reads `entry`, or why it would not act on it the way the person means. */
export function parseOriginRule(entry: string): OriginRule | { problem: string } {
  const anyPort = ANY_PORT.exec(entry);
  if (anyPort) return { scheme: anyPort[1].toLowerCase(), authority: `${anyPort[2].toLowerCase()}:*` };
  let url: URL | undefined;
  try { url = new URL(entry); } catch { url = undefined; }
  if (url && url.origin !== 'null') {
    if (!ROUTED_SCHEMES.includes(url.protocol)) {
      return { problem: `is a ${url.protocol} address; origin rules apply only to http and https requests, so it would do nothing` };
    }
    return { scheme: url.protocol.slice(0, -1), authority: url.host };
  }
  if (HOST_FORM.test(entry)) return { scheme: '*', authority: entry.toLowerCase() };
  return { problem: `is not an origin or host name upstream can match (forms: ${ORIGIN_FORMS})` };
}

/** Whether `rule` matches every request `entry` matches, so keeping `entry` allows nothing that `rule` does not. */
export function originRuleCovers(rule: string, entry: string): boolean {
  if (rule.toLowerCase() === entry.toLowerCase()) return true;
  const outer = parseOriginRule(rule);
  const inner = parseOriginRule(entry);
  if ('problem' in outer || 'problem' in inner) return false;
  if (outer.scheme !== '*' && outer.scheme !== inner.scheme) return false;
  // The rule's `*` matches any run without `/`, so matching the entry's text (its own `*` as a plain character) means
  // every host the entry's wildcards can produce matches too; anything else is treated as not covered (narrower).
  const pattern = outer.authority.split('*').map(part => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*');
  return new RegExp(`^${pattern}$`).test(inner.authority);
}
