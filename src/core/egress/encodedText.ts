/**
 * How browsers and servers write a text, as a pattern that finds it however it was written: each character
 * as itself or in any encoding a URL builder, a form, a JSON or HTML serializer uses for it, character by
 * character, so that the mixes those builders make (some characters encoded, the rest left as they are) are
 * found too; and each escape written once more by a second encoder (a percent sign percent-encoded, a JSON
 * escape inside a JSON string, an HTML entity escaped again). Base64 and base64url are found by decoding
 * (`base64Runs`), since one character there is not one character of the text.
 *
 * Built, not listed: the encoders are rules for one character, and every spelling is their product.
 */

const HEX_DIGIT = (digit: string): string => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit);
/** A hexadecimal number as either case writes it (`2f`, `2F`). */
const anyCaseHex = (hex: string): string => [...hex].map(HEX_DIGIT).join('');
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** HTML's own names for a character: the ones serializers write (XML's five and the no-break space). */
const HTML_NAMES: Record<string, string[]> = { '&': ['amp'], '<': ['lt'], '>': ['gt'], '"': ['quot'], '\'': ['apos'], '\u00a0': ['nbsp'] };
/** JSON's short escapes (JSON.stringify, and the `\/` some servers write). */
const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/**
 * One character's encodings, each as a list of pieces: a piece is either a character that a second encoder
 * may encode again (`{ char }`), or a fixed pattern no encoder changes (`{ pattern }`: hex digits, letters).
 */
type Piece = { char: string } | { pattern: string };

function encodings(char: string): Piece[][] {
  const codePoint = char.codePointAt(0)!;
  const fixed = (pattern: string): Piece => ({ pattern });
  const forms: Piece[][] = [];
  // Percent-encoding of its UTF-8 bytes, in either case (a URL, a form, a cookie).
  forms.push([...Buffer.from(char, 'utf8')].flatMap(byte => [{ char: '%' }, fixed(anyCaseHex(byte.toString(16).padStart(2, '0')))]));
  // A form's space.
  if (char === ' ') forms.push([{ char: '+' }]);
  // JSON: a short escape, or \u and four hex digits (a pair of them above the BMP).
  if (JSON_SHORT[char]) forms.push([{ char: '\\' }, JSON_SHORT[char] === '"' || JSON_SHORT[char] === '\\' || JSON_SHORT[char] === '/' ? { char: JSON_SHORT[char] } : fixed(JSON_SHORT[char])]);
  const units = codePoint > 0xffff ? [char.charCodeAt(0), char.charCodeAt(1)] : [codePoint];
  forms.push(units.flatMap(unit => [{ char: '\\' }, fixed(`u${anyCaseHex(unit.toString(16).padStart(4, '0'))}`)]));
  // HTML: a decimal or hexadecimal character reference (any leading zeros), or the character's name.
  forms.push([{ char: '&' }, { char: '#' }, fixed(`0*${codePoint}`), { char: ';' }]);
  forms.push([{ char: '&' }, { char: '#' }, fixed(`[xX]0*${anyCaseHex(codePoint.toString(16))}`), { char: ';' }]);
  for (const name of HTML_NAMES[char] ?? []) forms.push([{ char: '&' }, fixed(name), { char: ';' }]);
  return forms;
}

/** A character as itself or in one encoding: `depth` 1. As itself, or in an encoding whose escape characters are encoded once more: `depth` 2. */
function characterPattern(char: string, depth: number): string {
  // Letters and digits are written as they are by every encoder here: only their own spelling.
  if (depth === 0 || /[\p{L}\p{N}]/u.test(char) && char.codePointAt(0)! < 0x80) return escapeRegExp(char);
  const forms = encodings(char).map(pieces => pieces.map(piece => ('pattern' in piece ? piece.pattern : characterPattern(piece.char, depth - 1))).join(''));
  return `(?:${escapeRegExp(char)}|${forms.join('|')})`;
}

/** A pattern (source of a RegExp without flags) that finds `text` as written raw or by any mix of the encoders here, twice over at most. */
export function encodedTextPattern(text: string): string {
  return [...text].map(char => characterPattern(char, 2)).join('');
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
export function* base64Runs(text: string, minLength: number): Generator<{ start: number; end: number; decoded: string[] }> {
  const RUN = /(?:[A-Za-z0-9+/_-]|%2[bBfF]|%3[dD])+=*(?:%3[dD])*/g;
  for (let match = RUN.exec(text); match; match = RUN.exec(text)) {
    if (match[0].length < minLength) continue;
    const plain = match[0].replace(/%2[bB]/g, '+').replace(/%2[fF]/g, '/').replace(/%3[dD]/g, '').replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    // A long run is a body or a file, written from its start; a short one may be a value inside a longer word.
    const offsets = plain.length > 65536 ? [0] : [0, 1, 2, 3];
    // Node decodes a run without its padding, and its last, partial group as far as it goes.
    const decoded = offsets.map(offset => Buffer.from(plain.slice(offset), 'base64').toString('utf8'));
    yield { start: match.index, end: match.index + match[0].length, decoded };
  }
}
