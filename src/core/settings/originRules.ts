/**
 * The entries of network.allowedOrigins / blockedOrigins: each read by a strict grammar into a rule (a scheme, a
 * host pattern, a port), refused in words when it is not one, and handed to upstream written back from that rule in
 * one canonical form. Upstream then acts on exactly what the bridge checked: when entries were passed through as
 * written, a workspace's `http://**.localhost:*` or `HTTP://*?.localhost:*` was judged within the person's
 * `http://*.localhost:*` but read far wider upstream, and `HTTP://evil.test:*` blocked nothing (issue 42).
 *
 * How upstream reads an entry (`originOrHostGlob` in playwright-core's tools/backend/context.ts) gives the canonical
 * forms, one per kind of rule:
 *   - `http://host:*`, `https://host:*` (upstream's test for it is case-sensitive: hence the lowercase scheme): that
 *     scheme and host on any port the URL names, as the glob `http://host:*` + `/**`;
 *   - an address (`https://example.com`, `http://127.0.0.1:8080`): its origin as the URL parser writes it (lowercase,
 *     no default port), so upstream's `new URL(entry).origin` gives back the very text, glob `<origin>/**`;
 *   - anything else is a host on every scheme (`example.com`, `localhost:3000`, `*.example.com`, `*`): `*://host/**`,
 *     matched as written, so its host is lowercase and numeric addresses are written as the browser writes them.
 * In those globs `*` is any run of characters but `/`, `**` any run at all (across `/`, into a page's path), and `?`,
 * `{`, `,` and `\` mean something of their own; so a host here is letters, digits, `-`, `_` and `.`, with single `*`s,
 * or a bracketed IPv6 address. Without a port only the URL's default one matches (`example.com` does not match
 * `http://example.com:8080`).
 */
import { NO_ORIGIN_ALLOWED } from './scopePolicy';

/** One entry as the bridge and upstream both read it. */
export interface OriginRule {
  /** `*`: every scheme (a host rule). */
  scheme: 'http' | 'https' | '*';
  /** Lowercase: labels of letters, digits, `-` and `_` where `*` is any run of characters but `/`; or `[ipv6]`. */
  host: string;
  /** A port, `*` for any port the URL names, or none: the URL names no port (its scheme's default). */
  port?: number | '*';
}

export const ORIGIN_FORMS = 'https://example.com, http://localhost:*, example.com, localhost:3000 or *.example.com';

const HOST_WORDS = 'a host is letters, digits, "-", "_" and ".", with "*" for any run of them';
const SCHEME_PREFIX = /^([a-z][a-z0-9+.-]*):\/\//;
/** The host, then `:port` if any (a bracketed IPv6 address holds colons of its own). */
const AUTHORITY = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/;

/** The rule `entry` says, or why it is not one and how to write it (the reader words it as `holds "…", which …`). */
export function parseOriginRule(entry: string): OriginRule | { problem: string } {
  if (/\s/.test(entry)) return { problem: `has a space; write one origin or host name per entry (forms: ${ORIGIN_FORMS})` };
  const text = entry.toLowerCase();
  // A query or fragment has no place in an origin, and in upstream's reading everything after `?` is one.
  const query = /[?#]/.exec(text);
  if (query) {
    return {
      problem: `has "${query[0]}": it begins a ${query[0] === '?' ? 'query' : 'fragment'} in an address, so upstream would cut the host there and match far more than meant; ${HOST_WORDS}`,
    };
  }
  const scheme = SCHEME_PREFIX.exec(text)?.[1];
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    return { problem: `is a ${scheme}: address; origin rules apply only to http and https requests, so it would do nothing` };
  }
  let rest = scheme === undefined ? text : text.slice(scheme.length + 3);
  const slash = rest.indexOf('/');
  if (slash >= 0) {
    // Upstream keeps only an address's origin: a path after one is ignored, as it always was; a host has none.
    if (scheme === undefined) {
      return {
        problem: `is not an origin or host name upstream can match: only an address with its scheme may have a path, which is ignored (forms: ${ORIGIN_FORMS})`,
      };
    }
    rest = rest.slice(0, slash);
  }
  const [, hostText, portText] = AUTHORITY.exec(rest)!;
  const host = hostPattern(hostText);
  if (typeof host !== 'string') return host;
  const port = portOf(portText);
  if (port !== undefined && typeof port === 'object') return port;
  return scheme === undefined ? hostRule(host, port) : addressRule(scheme, host, port);
}

/** The rule written as upstream is given it (module comment): the same rule always gives the same text. */
export function originText(rule: OriginRule): string {
  const authority = rule.port === undefined ? rule.host : `${rule.host}:${rule.port}`;
  return rule.scheme === '*' ? authority : `${rule.scheme}://${authority}`;
}

/**
 * Whether `outer` matches every request `inner` matches, so keeping `inner` allows nothing `outer` does not. Both
 * globs match the URL's `host[:port]` text between `//` and the next `/`; `outer` matches `inner`'s text with
 * `inner`'s `*` taken as a character, so its own `*`s (runs without `/`) take that character's place, and then any
 * run without `/` that `inner`'s `*` stands for. Anything else counts as not covered: narrower, never wider.
 */
export function originRuleCovers(outer: string, inner: string): boolean {
  const wide = parseOriginRule(outer);
  const narrow = parseOriginRule(inner);
  if ('problem' in wide || 'problem' in narrow) return false;
  if (wide.scheme !== '*' && wide.scheme !== narrow.scheme) return false;
  const authority = (rule: OriginRule) => originText({ ...rule, scheme: '*' });
  const pattern = authority(wide)
    .split('*')
    .map(part => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${pattern}$`).test(authority(narrow));
}

/**
 * A list as upstream is given it: each entry written back from its rule. The reader has already written them so; this
 * holds for settings made any other way too. An entry that is no rule is left out (the reader said why), and an allow
 * list left with none allows nothing, since upstream reads an empty one as "all".
 */
export function originListForUpstream(entries: readonly string[], list: 'allowed' | 'blocked'): string[] {
  const written = entries.flatMap(entry => {
    const rule = parseOriginRule(entry);
    return 'problem' in rule ? [] : [originText(rule)];
  });
  if (list === 'allowed' && entries.length && !written.length) return [NO_ORIGIN_ALLOWED];
  return [...new Set(written)];
}

/** The host as the rule holds it: a pattern checked label by label, or an address as the URL parser writes it. */
function hostPattern(text: string): string | { problem: string } {
  if (!text) return { problem: `names no host (forms: ${ORIGIN_FORMS})` };
  if (text.startsWith('[')) {
    const written = hostAsTheBrowserWritesIt(text);
    return written ?? { problem: `is not an IPv6 address in brackets, such as [::1]:8080` };
  }
  const stray = /[^a-z0-9_.*-]/.exec(text);
  if (stray) return { problem: `has "${stray[0]}", which no host name has: ${HOST_WORDS} (forms: ${ORIGIN_FORMS})` };
  if (text.includes('**')) {
    return {
      problem:
        'has "**": upstream lets it run across "/" into a page\'s path, so it matches any site whose address merely holds the rest; write one "*", which stays within the host, as in *.example.com',
    };
  }
  if (text.split('.').includes(''))
    return { problem: 'has an empty part between dots; write the host as example.com, or *.example.com for every host below it' };
  if (text.includes('*')) return text;
  // Matched as text against the browser's URL, which writes `127.1` as 127.0.0.1.
  return hostAsTheBrowserWritesIt(text) ?? { problem: `names "${text}", which is not a host name or IP address` };
}

function hostAsTheBrowserWritesIt(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** No port (the default), any (`*`), or a number from 1 to 65535 (leading zeros dropped, as the browser writes it). */
function portOf(text: string | undefined): OriginRule['port'] | { problem: string } {
  if (text === undefined || text === '*') return text;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : 0;
  return port >= 1 && port <= 65535 ? port : { problem: `has port "${text}"; a port is a number from 1 to 65535, or "*" for any` };
}

/** A host on every scheme, as long as upstream does not read its text as an address (`http:8080` is http://0.0.31.144). */
function hostRule(host: string, port: OriginRule['port']): OriginRule | { problem: string } {
  const rule: OriginRule = { scheme: '*', host, port };
  const origin = originOfAddress(originText(rule));
  if (origin !== undefined) {
    return {
      problem: `names a host "${host}" with a port, but upstream reads it as the address ${origin}; write it with a scheme, as http://${originText(rule)}`,
    };
  }
  return rule;
}

/** An address: any port as upstream's own pattern reads it, or the origin as the URL parser writes it. */
function addressRule(scheme: 'http' | 'https', host: string, port: OriginRule['port']): OriginRule | { problem: string } {
  if (port === '*') {
    // Upstream's any-port pattern takes a host without colons; after it, `http://[::1]:*` would be a host rule that matches nothing.
    if (host.startsWith('['))
      return { problem: `names any port of an IPv6 address, which upstream reads only after a host name; write ${host}:* (every scheme) or the port` };
    return { scheme, host, port };
  }
  const written = originText({ scheme, host, port });
  const origin = originOfAddress(written);
  if (origin === undefined) {
    return {
      problem: `is not an address upstream can read ("${host}" is not a host there); write it without the scheme, ${originText({ scheme: '*', host, port })}, to match that host on every scheme`,
    };
  }
  const url = new URL(origin);
  return { scheme, host: url.hostname, port: url.port ? Number(url.port) : undefined };
}

/** The origin upstream takes `text` to be an address of, as it decides it (`new URL(text).origin` not "null"). */
function originOfAddress(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
