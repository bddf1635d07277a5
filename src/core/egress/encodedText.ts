/**
 * How browsers and servers write a text, as a pattern that finds it however it was written: each character
 * as itself or in any encoding a URL builder, a form, a JSON or HTML serializer uses for it, character by
 * character, so that the mixes those builders make (some characters encoded, the rest left as they are) are
 * found too; and each escape written once more by a second encoder (a percent sign percent-encoded, a JSON
 * escape inside a JSON string, an HTML entity escaped again). The encoders: percent-encoding of UTF-8 bytes and of
 * a legacy page's single byte (windows-1252, Latin-1) or escape()'s %u; a form's `+`; JSON's and JavaScript's
 * backslash escapes; a quote doubled in its quotes (YAML, CSV); HTML's character references. Base64 and base64url
 * are found by decoding (`base64Runs`), since one character there is not one character of the text; a long string
 * abbreviated around an ellipsis by what is left of it (`abbreviatedTextPatterns`).
 *
 * Built, not listed: the encoders are rules for one character, and every spelling is their product.
 */

const HEX_DIGIT = (digit: string): string => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);
/** A hexadecimal number as either case writes it (`2f`, `2F`). */
const anyCaseHex = (hex: string): string => [...hex].map(HEX_DIGIT).join('');
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** HTML's own names for a character: the ones serializers write (XML's five and the no-break space). */
const HTML_NAMES: Record<string, string[]> = { '&': ['amp'], '<': ['lt'], '>': ['gt'], '"': ['quot'], "'": ['apos'], '\u00a0': ['nbsp'] };
/** JSON's short escapes (JSON.stringify, and the `\/` some servers write), and JavaScript's for its other quotes (generated code). */
const BACKSLASH_SHORT: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  "'": "'",
  '`': '`',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};
/** Characters a short escape writes as themselves after the backslash: a second encoder may encode them again. */
const ESCAPED_AS_ITSELF = new Set(['"', '\\', '/', "'", '`']);
/**
 * The bytes 0x80-0x9F of windows-1252, the charset a legacy page's forms and JavaScript's escape() write with (Latin-1
 * elsewhere): where its table differs from Latin-1. The character at each place; the control characters mean "as Latin-1".
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** The character's single byte in a legacy page's charset (windows-1252, or Latin-1), if it has one. */
function legacyByte(codePoint: number): number | undefined {
  const high = WINDOWS_1252_HIGH.indexOf(String.fromCodePoint(codePoint));
  if (high >= 0) return 0x80 + high;
  return codePoint >= 0xa0 && codePoint <= 0xff ? codePoint : undefined;
}

/**
 * One character's encodings, each as a list of pieces: a piece is either a character that a second encoder
 * may encode again (`{ char }`), or a fixed pattern no encoder changes (`{ pattern }`: hex digits, letters).
 */
type Piece = { char: string } | { pattern: string };

function encodings(char: string): Piece[][] {
  const codePoint = char.codePointAt(0)!;
  const fixed = (pattern: string): Piece => ({ pattern });
  const forms: Piece[][] = [];
  const hex = (value: number, digits: number) => anyCaseHex(value.toString(16).padStart(digits, '0'));
  // Percent-encoding of its UTF-8 bytes, in either case (a URL, a form, a cookie).
  forms.push([...Buffer.from(char, 'utf8')].flatMap(byte => [{ char: '%' }, fixed(hex(byte, 2))]));
  // A legacy page's form, or JavaScript's escape(): its one byte in windows-1252 or Latin-1, or %u and four hex digits.
  const byte = legacyByte(codePoint);
  if (byte !== undefined) forms.push([{ char: '%' }, fixed(hex(byte, 2))]);
  if (codePoint > 0xff && codePoint <= 0xffff) forms.push([{ char: '%' }, fixed(`[uU]${hex(codePoint, 4)}`)]);
  // A form's space.
  if (char === ' ') forms.push([{ char: '+' }]);
  // A quote doubled inside its own quotes (YAML's single-quoted strings, as Playwright's snapshot writes them; CSV).
  if (char === "'" || char === '"') forms.push([fixed(escapeRegExp(char + char))]);
  // JSON and JavaScript: a short escape, \u and four hex digits (a pair of them above the BMP), \u{…}, or \x and two.
  const short = BACKSLASH_SHORT[char];
  if (short) forms.push([{ char: '\\' }, ESCAPED_AS_ITSELF.has(short) ? { char: short } : fixed(short)]);
  const units = codePoint > 0xffff ? [char.charCodeAt(0), char.charCodeAt(1)] : [codePoint];
  forms.push(units.flatMap(unit => [{ char: '\\' }, fixed(`u${hex(unit, 4)}`)]));
  forms.push([{ char: '\\' }, fixed(`u\\{0*${anyCaseHex(codePoint.toString(16))}\\}`)]);
  if (codePoint <= 0xff) forms.push([{ char: '\\' }, fixed(`x${hex(codePoint, 2)}`)]);
  // HTML: a decimal or hexadecimal character reference (any leading zeros), or the character's name.
  forms.push([{ char: '&' }, { char: '#' }, fixed(`0*${codePoint}`), { char: ';' }]);
  forms.push([{ char: '&' }, { char: '#' }, fixed(`[xX]0*${anyCaseHex(codePoint.toString(16))}`), { char: ';' }]);
  for (const name of HTML_NAMES[char] ?? []) forms.push([{ char: '&' }, fixed(name), { char: ';' }]);
  return forms;
}

/** A character as itself or in one encoding: `depth` 1. As itself, or in an encoding whose escape characters are encoded once more: `depth` 2. */
function characterPattern(char: string, depth: number): string {
  // Letters and digits are written as they are by every encoder here: only their own spelling.
  if (depth === 0 || (/[\p{L}\p{N}]/u.test(char) && char.codePointAt(0)! < 0x80)) return escapeRegExp(char);
  const forms = encodings(char).map(pieces => pieces.map(piece => ('pattern' in piece ? piece.pattern : characterPattern(piece.char, depth - 1))).join(''));
  return `(?:${escapeRegExp(char)}|${forms.join('|')})`;
}

/** A pattern (source of a RegExp without flags) that finds `text` as written raw or by any mix of the encoders here, twice over at most. */
export function encodedTextPattern(text: string): string {
  return [...text].map(char => characterPattern(char, 2)).join('');
}

/** An ellipsis (`…`) however it is written: a text without one has nothing abbreviated in it. */
export const ELLIPSIS = new RegExp(characterPattern('\u2026', 1));

/** The fewest characters of a text kept beside an ellipsis that are still taken for it. */
export const ABBREVIATED_MIN_CHARS = 4;

/**
 * Patterns for what is left of `text` where a string holding it was abbreviated around an ellipsis (`…`), as V8's
 * inspector writes a long string in a console preview (its first 50 and last 49 characters) and as text cut at an
 * end is written: the start of `text` (at least ABBREVIATED_MIN_CHARS characters) just before an ellipsis, and its end
 * just after one. The ellipsis itself is not part of the match. Encoded as encodedTextPattern encodes.
 */
export function abbreviatedTextPatterns(text: string): { head: string; tail: string } | undefined {
  const chars = [...text].map(char => characterPattern(char, 2));
  if (chars.length <= ABBREVIATED_MIN_CHARS) return undefined;
  const ellipsis = ELLIPSIS.source;
  let longerHead = '';
  for (let i = chars.length - 1; i >= ABBREVIATED_MIN_CHARS; i--) longerHead = `(?:${chars[i]}${longerHead})?`;
  let longerTail = '';
  for (let i = 0; i < chars.length - ABBREVIATED_MIN_CHARS; i++) longerTail = `(?:${longerTail}${chars[i]})?`;
  return {
    head: `${chars.slice(0, ABBREVIATED_MIN_CHARS).join('')}${longerHead}(?=${ellipsis})`,
    tail: `(?<=${ellipsis})${longerTail}${chars.slice(-ABBREVIATED_MIN_CHARS).join('')}`,
  };
}

/** The shortest base64 run that can hold `byteLength` bytes at any alignment. */
export function base64Length(byteLength: number): number {
  return Math.floor((byteLength * 4) / 3);
}

/**
 * Every run of base64 or base64url characters (its `+`, `/` and `=` also percent-encoded, as a URL builder writes
 * them) at least `minLength` long, with its text decoded at each alignment the run could start at: a value inside
 * `Basic …`, a JWT, a cookie or a body that a page or server encoded.
 */
export function* base64Runs(text: string, minLength: number, latin1: boolean): Generator<{ start: number; end: number; decoded: string[] }> {
  const RUN = /(?:[A-Za-z0-9+/_-]|%2[bBfF]|%3[dD])+=*(?:%3[dD])*/g;
  for (let match = RUN.exec(text); match; match = RUN.exec(text)) {
    if (match[0].length < minLength) continue;
    const plain = match[0]
      .replace(/%2[bB]/g, '+')
      .replace(/%2[fF]/g, '/')
      .replace(/%3[dD]/g, '')
      .replace(/=+$/, '')
      .replace(/-/g, '+')
      .replace(/_/g, '/');
    // A long run is a body or a file, written from its start; a short one may be a value inside a longer word.
    const offsets = plain.length > 65536 ? [0] : [0, 1, 2, 3];
    // Node decodes a run without its padding, and its last, partial group as far as it goes. A browser's btoa() takes
    // Latin-1: its bytes are read that way too where a value has such characters.
    const bytes = offsets.map(offset => Buffer.from(plain.slice(offset), 'base64'));
    const decoded = [...bytes.map(b => b.toString('utf8')), ...(latin1 ? bytes.map(b => b.toString('latin1')) : [])];
    yield { start: match.index, end: match.index + match[0].length, decoded };
  }
}
