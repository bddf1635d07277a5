/**
 * The start of a JSON text as `JSON.stringify(JSON.parse(text), null, 2)` would print it, made by reading
 * only as far as that start needs: the panel shows the first KB of a 2 MB body, and parsing and printing
 * all of it first cost more than fetching it. Strings and numbers are printed exactly as JSON.stringify
 * prints their parsed value (escapes decoded, so the mask sees a secret however the server spelled it).
 */

const MAX_DEPTH = 200;

/** `undefined` when the text is not JSON as far as it is read (it is then shown as it came). */
export function prettyJsonStart(raw: string, maxChars: number): { text: string; whole: boolean } | undefined {
  const out: string[] = [];
  let length = 0;
  let depth = 0;
  let i = 0;
  /** After `[`, `{` or `,`: the next value starts a new line. */
  let newLine = false;
  /** A value (or a key) just ended: only `,`, `:` or a closing bracket may follow. */
  let afterValue = false;
  const emit = (piece: string) => {
    out.push(piece);
    length += piece.length;
  };
  const skipSpace = () => {
    while (i < raw.length && (raw[i] === ' ' || raw[i] === '\n' || raw[i] === '\r' || raw[i] === '\t')) i++;
  };
  const indent = () => `\n${'  '.repeat(depth)}`;
  skipSpace();
  while (i < raw.length && length < maxChars) {
    const c = raw[i];
    if (newLine) {
      // A comma before a closing bracket is not JSON.
      if (c === ']' || c === '}') return undefined;
      emit(indent());
      newLine = false;
    }
    const startsValue = c === '{' || c === '[' || c === '"' || (c !== '}' && c !== ']' && c !== ',' && c !== ':');
    if (startsValue && afterValue) return undefined;
    if (!startsValue && c !== '}' && c !== ']' && !afterValue) return undefined;
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      skipSpace();
      if (raw[i] === close) {
        emit(c + close);
        i++;
        afterValue = true;
      } else {
        // Deeper than any document a person reads: shown as it came rather than indented off the screen.
        if (++depth > MAX_DEPTH) return undefined;
        emit(c);
        newLine = true;
        afterValue = false;
      }
    } else if (c === '}' || c === ']') {
      if (depth === 0) return undefined;
      depth--;
      emit(indent() + c);
      newLine = false;
      afterValue = true;
      i++;
    } else if (c === ',') {
      if (depth === 0) return undefined;
      emit(',');
      newLine = true;
      afterValue = false;
      i++;
    } else if (c === ':') {
      emit(': ');
      afterValue = false;
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < raw.length && raw[end] !== '"') end += raw[end] === '\\' ? 2 : 1;
      if (end >= raw.length) return undefined;
      try {
        emit(JSON.stringify(JSON.parse(raw.slice(i, end + 1)) as string));
      } catch {
        return undefined;
      }
      i = end + 1;
      afterValue = true;
    } else {
      const token = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(raw.slice(i, i + 400))?.[0];
      if (!token) return undefined;
      try {
        emit(JSON.stringify(JSON.parse(token)));
      } catch {
        return undefined;
      }
      i += token.length;
      afterValue = true;
    }
    skipSpace();
  }
  // Read to its end with a bracket still open: not JSON after all.
  if (i >= raw.length && depth > 0 && length < maxChars) return undefined;
  const text = out.join('');
  return { text: text.slice(0, maxChars), whole: i >= raw.length && text.length <= maxChars };
}
