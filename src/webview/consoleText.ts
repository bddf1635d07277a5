/**
 * How the Console pane words its rows, as Chrome DevTools does: a logged object's one-line preview
 * (`{a: 1, b: {…}}`, `(3) [1, 2, 3]`), a long message folded to its first lines, a location as its
 * file:line:column, and the badge's counts. No DOM here: the rows are drawn by consoleList.ts.
 */
import type { ConsoleRow, MarkerRow } from '../protocol/panelMessages';
import type { ValuePreview } from '../protocol/childMessages';
import { isMarker } from '../protocol/panelRows';

/** Properties a one-line preview names before "…" (DevTools shows about as many). */
const LINE_PROPS = { object: 5, array: 10 };

/** An object's name with its size where it has one: "Array(3)", "Map(2)", "Foo". */
function title(preview: ValuePreview): string {
  if (preview.type === 'array') return `Array(${preview.size ?? 0})`;
  return preview.size !== undefined ? `${preview.className ?? 'Object'}(${preview.size})` : (preview.className ?? 'Object');
}

/** A value inside a preview: strings quoted, objects shortened to `{…}` or their name. */
function nestedValue(preview: ValuePreview): string {
  switch (preview.type) {
    case 'string':
      return `'${preview.text ?? ''}'`;
    case 'null':
      return 'null';
    case 'undefined':
      return preview.text ?? 'undefined';
    case 'function':
      return 'ƒ';
    case 'array':
      return title(preview);
    case 'object':
      if (preview.text !== undefined) return firstLine(preview.text);
      return preview.className === 'Object' ? '{…}' : title(preview);
    default:
      return preview.text ?? '';
  }
}

/**
 * A logged value on one line as DevTools' Console shows it before it is unfolded: `{a: 1, b: {…}}`,
 * `(3) [1, 2, 3]`, `Map(1) {'a' => 1}`; a top-level string as it is (`top`), nested ones quoted.
 */
export function previewLine(preview: ValuePreview, top = true): string {
  if (preview.type === 'string') return top ? (preview.text ?? '') : nestedValue(preview);
  if (preview.type !== 'object' && preview.type !== 'array') return top && preview.type === 'function' ? (preview.text ?? 'ƒ') : nestedValue(preview);
  if (preview.text !== undefined) return top ? preview.text : firstLine(preview.text);
  if (!preview.props) return nestedValue(preview);
  const isArray = preview.type === 'array';
  const limit = isArray ? LINE_PROPS.array : LINE_PROPS.object;
  const keyed = preview.className === 'Map';
  const listed = preview.className === 'Set';
  const parts = preview.props.slice(0, limit).map(({ name, value }) => {
    if (isArray || listed) return nestedValue(value);
    return keyed ? `${quoteKey(name)} => ${nestedValue(value)}` : `${name}: ${nestedValue(value)}`;
  });
  if (preview.props.length > limit || preview.more) parts.push('…');
  if (isArray) return `(${preview.size ?? preview.props.length}) [${parts.join(', ')}]`;
  const prefix = preview.className && preview.className !== 'Object' ? `${title(preview)} ` : '';
  return `${prefix}{${parts.join(', ')}}`;
}

const quoteKey = (name: string) => (/^-?\d+(\.\d+)?$/.test(name) ? name : `'${name}'`);
const firstLine = (text: string) => text.split('\n', 1)[0];

/** Whether a value has properties to unfold (one level at a time). */
export const unfoldable = (preview: ValuePreview): boolean => !!preview.props?.length;

/** A long message folds to this many lines, or characters, whichever comes first. */
export const FOLD = { lines: 5, chars: 400 };

/** The first lines of a long message and how many characters are folded away; undefined when it shows whole. */
export function foldText(text: string, fold = FOLD): { head: string; hiddenChars: number } | undefined {
  let end = Math.min(text.length, fold.chars);
  let newlines = 0;
  for (let i = 0; i < end; i++) {
    if (text[i] === '\n' && ++newlines === fold.lines) {
      end = i;
      break;
    }
  }
  if (end >= text.length) return undefined;
  return { head: text.slice(0, end), hiddenChars: text.length - end };
}

/** "app.js:12:5" from a whole URL with its line and column (the whole one in its tooltip), as DevTools shows it. */
export function shortLocation(location: string): string {
  const match = /^(.*?)((?::\d+){1,2})$/.exec(location);
  const [address, place] = match ? [match[1], match[2]] : [location, ''];
  try {
    const url = new URL(address);
    const name = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
    return `${name || url.host || address}${place}`;
  } catch {
    return location;
  }
}

/** The badge: the errors and warnings the list holds now (a Clear or a navigation empties it, and them). */
export function countProblems(rows: readonly (ConsoleRow | MarkerRow)[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const row of rows) {
    if (isMarker(row)) continue;
    if (row.level === 'error') errors++;
    else if (row.level === 'warning') warnings++;
  }
  return { errors, warnings };
}
