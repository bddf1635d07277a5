/**
 * The assertions a test ends with: what the model last read on the page, where a stable locator can say
 * it. From upstream's last snapshot of the page, the elements that were not there when the page was first
 * read after its last navigation (what the session changed): headings by role and name, text by its exact
 * words. A text that appears twice, or inside a frame, is left out: its locator would not be stable.
 */
import { quote } from './pageCode';

/** One element of upstream's ARIA snapshot that a locator can name. */
interface Readable {
  key: string;
  locator: string;
}

const LINE = /^(\s*)- (\w+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)(?::\s*(.*))?$/;
const TEXT_ROLES = new Set(['paragraph', 'listitem', 'generic', 'text', 'status', 'alert', 'cell', 'strong', 'emphasis', 'code', 'option']);
const MAX_CHECKS = 3;

/** A one-line text of the snapshot: plain, or double-quoted as YAML quotes it; none for a block or a broken quote. */
function plainText(rest: string | undefined): string | undefined {
  const raw = rest?.trim();
  if (!raw || /^[|>]/.test(raw)) return undefined;
  if (!raw.startsWith('"')) return raw.startsWith("'") ? undefined : raw;
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'string' ? parsed.trim() : undefined;
  } catch {
    return undefined;
  }
}

function readables(snapshot: string): Readable[] {
  const found: Readable[] = [];
  let frameIndent = -1;
  for (const raw of snapshot.split('\n')) {
    const match = LINE.exec(raw);
    if (!match) continue;
    const [, indent, role, name, , rest] = match;
    if (frameIndent >= 0 && indent.length > frameIndent) continue;
    frameIndent = role === 'iframe' ? indent.length : -1;
    const text = plainText(rest);
    if (role === 'heading' && name) found.push({ key: `heading:${name}`, locator: `getByRole('heading', { name: ${quote(name)}, exact: true })` });
    else if (role === 'text' && text) found.push({ key: `text:${text}`, locator: `getByText(${quote(text)}, { exact: true })` });
    else if (TEXT_ROLES.has(role) && text && !text.endsWith(':')) found.push({ key: `text:${text}`, locator: `getByText(${quote(text)}, { exact: true })` });
  }
  return found.filter(r => r.key.length <= 120 && r.key.length > 6);
}

/**
 * `expect` lines (without the page variable: `${page}.` goes before each locator) for what `last` shows
 * that `first` did not; the first heading when nothing changed.
 */
export function finalChecks(last: string, first: string | undefined, page: string): string[] {
  const now = readables(last);
  const count = new Map<string, number>();
  for (const r of now) count.set(r.key, (count.get(r.key) ?? 0) + 1);
  const before = new Set(first === undefined ? [] : readables(first).map(r => r.key));
  const unique = now.filter(r => count.get(r.key) === 1);
  let chosen = unique.filter(r => !before.has(r.key)).slice(-MAX_CHECKS);
  if (!chosen.length) chosen = unique.filter(r => r.key.startsWith('heading:')).slice(0, 1);
  return chosen.map(r => `await expect(${page}.${r.locator}).toBeVisible();`);
}
