/**
 * What the bridge hands the person to paste into a POSIX shell (Copy as cURL) reads back as exactly the
 * text it carries, and as nothing else, in bash, zsh and dash, however it is pasted: bracketed (the line
 * editor takes text until ESC [201~, so a page's own ESC [201~ would end the paste and the rest be typed),
 * typed (bash's readline and zsh's zle read every character as a key: DEL and Ctrl-W erase, Ctrl-U kills,
 * Tab completes, CR and LF enter), or into a shell with no line editor (dash: the terminal's line discipline
 * has its own erase, kill and interrupt keys, and keeps only so many bytes of a line). Four rules:
 *
 * - No character a terminal or a line editor acts on is ever written raw: C0 (tab, CR and LF too), DEL,
 *   C1 (8-bit terminal controls such as CSI) and U+2028/U+2029 (line breaks to some editors). printf writes
 *   them, from octal escapes in its format or its `%b` argument: plain ASCII that bash, zsh and dash all
 *   read alike (dash has no `$'...'`).
 * - The page's text is only ever inside single quotes, where nothing expands; an apostrophe is `\'` between them.
 * - Every line closes the quotes it opens: a long word is broken as `'\` newline `'`, so no line's quoting
 *   depends on another's (bash's history expansion of `!` reads one line at a time).
 * - No line is longer than LINE_BYTES: a terminal in canonical mode (dash, any shell without a line editor)
 *   keeps at most 4095 bytes of a line on Linux and 1023 on macOS and BSD, and drops the rest; a closing
 *   quote dropped there turned the quoting of every later line inside out, and a page's `; touch` ran.
 */

/** A part of what is written: the page's text, or a shell variable whose value is read (never run). */
export type ShellPiece = string | { readonly variable: string };

/** Never written raw (see above). */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const ENCODED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/**
 * The longest line written, in bytes. The caller's own words on a line (`  -H `, ` \`) stay under 100
 * bytes, so a line of the copy stays under 1000: below the 1023 of macOS and BSD.
 */
const LINE_BYTES = 900;
/** The longest `"$(printf '...')"` written: it is never broken across lines (that would leave a double quote open at a line's end). */
const PRINTF_BYTES = 400;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/** Whether the text holds a character that is written through printf. */
export function needsPrintf(text: string): boolean {
  return ENCODED.test(text);
}

/**
 * One shell word that reads back as the pieces, or undefined where no word can: a NUL (an argument ends
 * at one), and a newline at the end of a text piece (command substitution drops the newlines its output
 * ends with, and a raw newline is never written). A newline elsewhere takes the character after it into
 * its printf, so that printf's output does not end with it.
 */
export function shellWord(pieces: readonly ShellPiece[]): string | undefined {
  const lines = new Lines();
  for (const piece of pieces) {
    if (typeof piece !== 'string') {
      lines.put(variableOf(piece), false);
      continue;
    }
    const chars = [...piece];
    let i = 0;
    while (i < chars.length) {
      if (chars[i] === "'") {
        lines.put("\\'", false);
        i++;
      } else if (!ENCODED.test(chars[i])) {
        lines.put("'", false);
        for (; i < chars.length && chars[i] !== "'" && !ENCODED.test(chars[i]); i++) lines.put(chars[i], true);
        lines.put("'", true);
      } else {
        const printf = printfFrom(chars, i);
        if (!printf) return undefined;
        lines.put(printf.word, false);
        i = printf.end;
      }
    }
  }
  return lines.text || "''";
}

/**
 * A command that writes exactly the pieces to its standard output, with any character at all (NUL and a
 * final newline too): `printf '%b%s…' 'text' "$NAME" …`. A text piece is a `%b` argument (its backslashes
 * doubled, the characters above as `\0ddd`, which POSIX `%b` reads); a variable's value is a `%s` argument,
 * printed as it is.
 */
export function shellPrintf(pieces: readonly ShellPiece[]): string {
  const parts = pieces.filter(piece => piece !== '');
  const lines = new Lines();
  lines.put('printf', false);
  lines.put(' ', false);
  lines.put("'", false);
  for (const part of parts) lines.put(typeof part === 'string' ? '%b' : '%s', true);
  lines.put("'", true);
  for (const part of parts) {
    lines.put(' ', false);
    if (typeof part !== 'string') {
      lines.put(variableOf(part), false);
      continue;
    }
    lines.put("'", false);
    for (const char of part) lines.put(percentBEscape(char), true);
    lines.put("'", true);
  }
  return lines.text;
}

/** Lays what is written out on lines of at most LINE_BYTES, breaking only between whole atoms. */
class Lines {
  text = '';
  private bytes = 0;

  /** `quoted`: the atom goes inside single quotes, so a break there closes and reopens them. */
  put(atom: string, quoted: boolean): void {
    const size = atom.length === 1 && atom.charCodeAt(0) < 0x80 ? 1 : Buffer.byteLength(atom, 'utf8');
    // Two bytes for the break's own `'\` or ` \` at the line's end.
    if (this.bytes > 0 && this.bytes + size + 2 > LINE_BYTES) {
      this.text += quoted ? "'\\\n'" : '\\\n';
      this.bytes = quoted ? 1 : 0;
    }
    this.text += atom;
    this.bytes += size;
  }
}

/** `"$(printf '<escapes>')"` for the run of encoded characters at `start`, cut to PRINTF_BYTES where no newline ends it. */
function printfFrom(chars: readonly string[], start: number): { word: string; end: number } | undefined {
  let format = '';
  let end = start;
  while (end < chars.length && ENCODED.test(chars[end])) {
    if (chars[end] === '\0') return undefined;
    const escape = formatEscape(chars[end]);
    if (end > start && format.length + escape.length > PRINTF_BYTES && chars[end - 1] !== '\n') break;
    format += escape;
    end++;
    // Only a run of newlines gets this long, and no line could hold it.
    if (format.length > LINE_BYTES - 20) return undefined;
  }
  if (chars[end - 1] === '\n') {
    // Command substitution drops the newlines its output ends with: the next character comes along.
    if (end === chars.length) return undefined;
    format += formatEscape(chars[end]);
    end++;
  }
  return { word: `"$(printf '${format}')"`, end };
}

/** An escape printf's format reads: `\n`, `\t`, `\r`, else each UTF-8 byte as `\ddd` (octal). */
function formatEscape(char: string): string {
  return NAMED_ESCAPES[char] ?? octalBytes(char, '\\');
}

/** A character of a `%b` argument: a backslash doubled, the encoded ones as `\n`, `\t`, `\r` or `\0ddd`, an apostrophe closing and reopening the quotes. */
function percentBEscape(char: string): string {
  if (char === "'") return "'\\''";
  if (char === '\\') return '\\\\';
  if (!ENCODED.test(char)) return char;
  return NAMED_ESCAPES[char] ?? octalBytes(char, '\\0');
}

/** Always three digits, so a digit after the escape is never read as part of it. */
function octalBytes(char: string, lead: string): string {
  return [...Buffer.from(char, 'utf8')].map(byte => lead + byte.toString(8).padStart(3, '0')).join('');
}

function variableOf(piece: { readonly variable: string }): string {
  if (!VARIABLE_NAME.test(piece.variable)) throw new Error(`not a shell variable name: ${JSON.stringify(piece.variable)}`);
  return `"$${piece.variable}"`;
}
