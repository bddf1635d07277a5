/**
 * The tests' own view of a secret's spellings, written apart from the bridge's mask (which builds a
 * pattern character by character, src/core/egress/encodedText.ts): here the encoders browsers and
 * servers use are run on the value, and a text is searched by decoding all of it, layer by layer.
 */

/** Every printable ASCII character, space to tilde. */
export const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/**
 * Secrets made of every printable ASCII character, in two orders; neither starts or ends with a space, which
 * a header would trim (the page would then send another text, which no mask follows).
 */
export const ASCII_SECRETS: Record<string, string> = {
  ASCII_IN_ORDER: PRINTABLE_ASCII.slice(65) + PRINTABLE_ASCII.slice(0, 65),
  // 37 and 95 share no factor: every character once, in a scrambled order.
  ASCII_SCRAMBLED: Array.from({ length: 95 }, (_, i) => PRINTABLE_ASCII[(i * 37 + 3) % 95]).join(''),
};

/** A secret past ASCII: Latin-1 letters and windows-1252's euro sign, which legacy pages and escape() write as single bytes. */
export const LEGACY_SECRET = 'Pässwörd-9x €uro ñ';

/** windows-1252's bytes 0x80-0x9F where they differ from Latin-1 (the euro sign, quotes, dashes …), for the legacy encoders here. */
const WINDOWS_1252: Record<string, number> = {
  '\u20ac': 0x80,
  '\u201a': 0x82,
  '\u201e': 0x84,
  '\u2026': 0x85,
  '\u2018': 0x91,
  '\u2019': 0x92,
  '\u201c': 0x93,
  '\u201d': 0x94,
  '\u2013': 0x96,
  '\u2014': 0x97,
};
const legacyBytes = (text: string) => [...text].map(c => WINDOWS_1252[c] ?? c.charCodeAt(0));

/** How a legacy page and old JavaScript write a non-ASCII value: a windows-1252 form, escape(), btoa of Latin-1. */
export function legacyEncodingsOf(value: string): Record<string, string> {
  const latin1Only = [...value].filter(c => c.charCodeAt(0) <= 0xff).join('');
  return {
    'windows-1252 form': legacyBytes(value)
      .map(b =>
        /[A-Za-z0-9*\-._]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 32 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
      )
      .join(''),
    'escape()': escape(value),
    'btoa of Latin-1': Buffer.from(`ada:${latin1Only}`, 'latin1').toString('base64'),
  };
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');
const base64 = (text: string) => Buffer.from(text).toString('base64');
const htmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** How encoders write `value`: URL builders, forms, JSON and HTML serializers, base64, and some of them twice. */
export function encodingsOf(value: string): Record<string, string> {
  const url = new URL('http://127.0.0.1:1/');
  url.pathname = `/p/${value.replaceAll('\\', '%5C')}`;
  const path = url.pathname;
  url.search = `?q=${value}`;
  const rawQuery = url.search;
  url.searchParams.set('q', value);
  const formQuery = url.search;
  url.hash = value;
  const fragment = url.hash;
  const json = JSON.stringify(value);
  return {
    raw: value,
    encodeURIComponent: encodeURIComponent(value),
    encodeURIComponentLowerCase: encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, h => h.toLowerCase()),
    encodeURI: encodeURI(value),
    'URL pathname setter': path,
    'URL search setter': rawQuery,
    'URLSearchParams (form)': formQuery,
    'URL hash setter': fragment,
    'percent-encoded twice': encodeURIComponent(encodeURIComponent(value)),
    'JSON string': json,
    'JSON inside JSON': JSON.stringify(JSON.stringify({ v: value })),
    'JSON \\u escapes': `"${[...value].map(c => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('')}"`,
    'JSON then percent-encoded': encodeURIComponent(JSON.stringify({ v: value })),
    'HTML text': htmlText(value),
    'HTML attribute (browser)': htmlText(value).replaceAll('"', '&quot;'),
    'HTML attribute (PHP)': htmlText(value).replaceAll('"', '&quot;').replaceAll("'", '&#039;'),
    'HTML attribute (Python)': htmlText(value).replaceAll('"', '&quot;').replaceAll("'", '&#x27;'),
    'HTML of a percent-encoded URL': htmlText(`/a?x=1&q=${encodeURIComponent(value)}`),
    "YAML single-quoted (Playwright's snapshot)": `'heading "${value.replaceAll("'", "''")}" [level=2]'`,
    'JavaScript single-quoted (generated code)': `fill('${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}')`,
    'JavaScript template literal': `\`${value.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${')}\``,
    'JavaScript \\x escapes': [...value].map(c => (/[A-Za-z0-9]/.test(c) ? c : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)).join(''),
    'HTML escaped twice': htmlText(htmlText(value)),
    'base64 (Basic credentials)': base64(`ada:${value}`),
    'base64 at every alignment': ['', 'x', 'xy'].map(prefix => base64(prefix + value)).join(' '),
    base64url: base64url(value),
    'base64 of JSON': base64(JSON.stringify({ password: value })),
    'base64 percent-encoded': encodeURIComponent(base64(`ada:${value}`)),
  };
}

function percentDecoded(text: string, plusIsSpace: boolean, legacy = false): string {
  const spaced = plusIsSpace ? text.replaceAll('+', ' ') : text;
  const byteOf = Object.fromEntries(Object.entries(WINDOWS_1252).map(([c, b]) => [b, c]));
  return spaced
    .replace(/%u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/(?:%[0-9a-fA-F]{2})+/g, run => {
      const bytes = Buffer.from(run.replaceAll('%', ''), 'hex');
      return legacy ? [...bytes].map(b => byteOf[b] ?? String.fromCharCode(b)).join('') : bytes.toString('utf8');
    });
}

/** A string's quotes as YAML doubles them, and JavaScript's escapes beyond JSON's (\', \`, \xHH, \u{…}). */
function quotesDecoded(text: string): string {
  return text
    .replaceAll("''", "'")
    .replace(/\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]+)\}|(['`$]))/g, (_, hex: string | undefined, point: string | undefined, c: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : point ? String.fromCodePoint(parseInt(point, 16)) : c!,
    );
}

function jsonDecoded(text: string): string {
  const short: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, (_, hex: string | undefined, c: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : short[c!],
  );
}

function htmlDecoded(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
  return text.replace(/&(?:#[xX]([0-9a-fA-F]+)|#(\d+)|([a-z]+));/g, (all, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : (named[name!] ?? all),
  );
}

function base64Decoded(text: string, minLength: number): string[] {
  const runs = text.match(new RegExp(`[A-Za-z0-9+/_-]{${minLength},}`, 'g')) ?? [];
  return runs.flatMap(run =>
    [0, 1, 2, 3].flatMap(offset => {
      const bytes = Buffer.from(run.slice(offset).replaceAll('-', '+').replaceAll('_', '/'), 'base64');
      return [bytes.toString('utf8'), bytes.toString('latin1')];
    }),
  );
}

/** The text decoded every way, twice over: each decoder on the whole text, then each again on what came out, then base64. */
export function decodingsOf(text: string, minBase64Length = 8): string[] {
  const once = (t: string) => [
    t,
    percentDecoded(t, false),
    percentDecoded(t, true),
    percentDecoded(t, true, true),
    jsonDecoded(t),
    htmlDecoded(t),
    quotesDecoded(t),
  ];
  const twice = [...new Set(once(text).flatMap(once))];
  return [...twice, ...twice.flatMap(t => base64Decoded(t, minBase64Length)).flatMap(once)];
}

/** Whether `text`, decoded every way, holds `secret`. */
export function reveals(text: string, secret: string): boolean {
  return decodingsOf(text, Math.floor((secret.length * 4) / 3)).some(decoded => decoded.includes(secret));
}
