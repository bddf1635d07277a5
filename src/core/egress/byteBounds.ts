/**
 * What the extension host keeps of a call is bounded in bytes: the step journal, time travel's timeline,
 * the panel's store and the rows waiting for a panel each keep a copy of what a call was given and what
 * it said, and a caller may send megabytes (a refused 3 MB argument was once kept by every one of them).
 * This module measures a kept value without serialising it, cuts one to a budget with a visible marker,
 * and names the bounds; the consumers call it. Pure: no state, no I/O.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capText } from '../../protocol/childMessages';
import type { DevtoolsCard } from '../../protocol/devtoolsFacts';
import { withoutErrorHeading } from '../results/resultText';

const KB = 1024;

/** A step's arguments as the step journal and the timeline keep them: larger ones are cut, with a marker, to this. */
export const MAX_KEPT_ARGS_BYTES = 64 * KB;

/**
 * A failed call's arguments (refused by the bridge, or an error from the browser): a few hundred bytes, to
 * name what was asked. No consumer repeats a failed step (an exported test leaves it out, time travel
 * restores the page, not the call), so nothing more of it is kept.
 */
export const REFUSED_ARGS_BYTES = 512;

/** One line of text kept beside a call: its error line, its title in Activity, a marker between entries. */
export const MAX_KEPT_LINE_CHARS = 500;

/** A note kept for the panel until the next one replaces it (the last export's status line). */
export const MAX_KEPT_NOTE_CHARS = 4000;

/**
 * The step journal's steps together, without their snapshots (MAX_SNAPSHOT_CHARS there bounds those): the
 * arguments and what the answers said. The oldest steps go first (counted as dropped); the newest stays.
 */
export const MAX_JOURNAL_BYTES = 16 * 1024 * KB;

/**
 * Console lines and requests the timeline gathers for the step under way, in bytes (besides its count):
 * a page that floods between two steps cannot hold more than this until the step ends and the budget counts it.
 */
export const MAX_STEP_ROWS_BYTES = 4 * 1024 * KB;

/**
 * Rows waiting for a panel (core/liveView/rowBatch.ts), in bytes and in rows: past either, they go at once
 * instead of after the batch's delay, so a burst never waits in the host as one heap of rows.
 */
export const ROW_BATCH_MAX_BYTES = 1024 * KB;
export const ROW_BATCH_MAX_ROWS = 2000;

/** What every object or array costs to keep on top of its values, as the ring buffer has always counted it. */
const OBJECT_BYTES = 64;
/** A number, boolean or null. */
const SCALAR_BYTES = 8;
/** Deeper than this, an object counts as its overhead alone and is cut (arguments are JSON, a few levels deep). */
const MAX_DEPTH = 32;

/**
 * What a value costs to keep, roughly: two bytes per UTF-16 code unit of its strings and of its objects'
 * keys (V8 may store them in one, so this errs high), eight per number or boolean, the bytes of a binary
 * buffer, and 64 for each object or array. Walked, never serialised; once the count passes `cap` it stops and returns what it has
 * (more than `cap`), so measuring a 3 MB value against a 64 KB bound looks at about 64 KB of it.
 */
export function keptBytes(value: unknown, cap = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: [object, number][] = [];
  /** Counts a value; an object is counted for its overhead here and its entries when taken off the stack. */
  const count = (item: unknown, depth: number) => {
    if (typeof item === 'string') bytes += 2 * item.length;
    else if (typeof item === 'number' || typeof item === 'boolean' || typeof item === 'bigint') bytes += SCALAR_BYTES;
    else if (item && typeof item === 'object' && !seen.has(item)) {
      seen.add(item);
      bytes += OBJECT_BYTES + (ArrayBuffer.isView(item) ? item.byteLength : 0);
      if (!ArrayBuffer.isView(item) && depth < MAX_DEPTH) stack.push([item, depth + 1]);
    }
  };
  count(value, 0);
  while (stack.length && bytes <= cap) {
    const [item, depth] = stack.pop()!;
    // Entry by entry, so that a wide object stops being read once the count passes the cap.
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length && bytes <= cap; i++) count(item[i], depth);
      continue;
    }
    const keys = Object.keys(item);
    for (let i = 0; i < keys.length && bytes <= cap; i++) {
      bytes += 2 * keys[i].length;
      count((item as Record<string, unknown>)[keys[i]], depth);
    }
  }
  return bytes;
}

/**
 * A copy of a text that shares no memory with the text it was cut from. V8 makes `slice` (and `split`, and
 * the regular expressions' matches) of a longer string a view into it: a 500-character cut of a 3 MB
 * argument kept the 3 MB alive. Through a buffer, the copy is a string of its own.
 */
export function detached(text: string): string {
  return text.length < 13 ? text : Buffer.from(text, 'utf16le').toString('utf16le');
}

/** A value cut to a budget, and whether anything was cut. */
export interface Bounded<T> {
  value: T;
  cut: boolean;
}

/** The room a marker takes (`… (12345 more characters cut)`, an entry saying how many entries went). */
const MARKER_BYTES = 2 * 48 + OBJECT_BYTES;

/**
 * The value itself when it keeps to `maxBytes` (by keptBytes; no copy), else a copy that does, give or take a
 * marker per level it cut at: strings cut as the child cuts a long console line (`… (N more characters
 * cut)`), an array keeps its first items and an object its smallest entries whole, saying how many more were
 * cut (a last string item in an array, `"…": "(N more entries cut)"` in an object). The shape of what is
 * kept stays as it was, and an argument that fits is the very value given.
 */
export function boundValue<T>(value: T, maxBytes: number): Bounded<T> {
  if (keptBytes(value, maxBytes) <= maxBytes) return { value, cut: false };
  const budget = { left: maxBytes };
  return { value: fit(value, budget, 0) as T, cut: true };
}

function fit(value: unknown, budget: { left: number }, depth: number): unknown {
  if (typeof value === 'string') {
    const bytes = 2 * value.length;
    if (bytes <= budget.left) {
      budget.left -= bytes;
      return value;
    }
    const keep = Math.max(0, Math.floor((budget.left - MARKER_BYTES) / 2));
    budget.left = 0;
    return detached(capText(value, keep));
  }
  if (!value || typeof value !== 'object') {
    budget.left -= SCALAR_BYTES;
    return value;
  }
  budget.left -= OBJECT_BYTES;
  if (ArrayBuffer.isView(value) || depth >= MAX_DEPTH) {
    budget.left -= MARKER_BYTES;
    return `(${ArrayBuffer.isView(value) ? `${value.byteLength} bytes` : 'nested too deep'}, cut)`;
  }
  if (Array.isArray(value)) {
    // An array keeps its first items.
    const items: unknown[] = [];
    for (let i = 0; i < value.length && budget.left > MARKER_BYTES; i++) items.push(fit(value[i], budget, depth + 1));
    if (items.length < value.length) items.push(`… (${value.length - items.length} more items cut)`);
    return items;
  }
  // An object keeps its small entries whole (an `action` beside a huge `text`), the large ones cut, in its own key order.
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const sizes = keys.map(key => 2 * key.length + keptBytes(record[key], budget.left));
  const fitted = new Map<string, unknown>();
  for (const i of keys.map((_, i) => i).sort((a, b) => sizes[a] - sizes[b])) {
    const keyBytes = 2 * keys[i].length;
    if (budget.left - keyBytes <= MARKER_BYTES) break;
    budget.left -= keyBytes;
    fitted.set(keys[i], fit(record[keys[i]], budget, depth + 1));
  }
  // As data properties (a "__proto__" key of parsed JSON stays a key).
  const kept: [string, unknown][] = keys.filter(key => fitted.has(key)).map(key => [key, fitted.get(key)]);
  if (fitted.size < keys.length) kept.push(['…', `(${keys.length - fitted.size} more entries cut)`]);
  return Object.fromEntries(kept);
}

/** A call's arguments as a consumer keeps them: whole up to MAX_KEPT_ARGS_BYTES, a failed call's up to REFUSED_ARGS_BYTES. */
export function keptArgs(args: Record<string, unknown> | undefined, failed: boolean): Bounded<Record<string, unknown>> {
  return boundValue(args ?? {}, failed ? REFUSED_ARGS_BYTES : MAX_KEPT_ARGS_BYTES);
}

/**
 * One line kept beside a call (an error, a title, a marker): its first line, at most MAX_KEPT_LINE_CHARS
 * characters, as a string of its own (a line split or cut from a longer text elsewhere would keep all of it).
 */
export function keptLine(text: string, max = MAX_KEPT_LINE_CHARS): string {
  const newline = text.indexOf('\n');
  return detached(capText(newline < 0 ? text : text.slice(0, newline), max));
}

/** The error line of a failed result (a refusal's reason, the browser's error), as a consumer keeps it. */
export function errorLineOf(result: CallToolResult | undefined): string {
  const first = (result?.content ?? []).find(part => part.type === 'text');
  // Only the start is read: a refusal may be long, its first line is what is kept.
  const text = first && first.type === 'text' ? withoutErrorHeading(first.text.slice(0, 4 * MAX_KEPT_LINE_CHARS)) : '';
  return keptLine(text.trim() || 'failed');
}

/** A DevTools card as Activity keeps it: at most this many violations, elements per violation and characters per fix. */
export const CARD_BOUNDS = { violations: 30, nodes: 10, fixChars: 300 };

/** A trace's card is bounded by its facts' schema; an audit's is cut to CARD_BOUNDS (axe can name hundreds of elements). */
export function keptCard(card: DevtoolsCard): DevtoolsCard {
  if (card.kind === 'trace') return card;
  const violations = card.audit.violations.slice(0, CARD_BOUNDS.violations).map(v => ({
    ...v,
    nodes: v.nodes.slice(0, CARD_BOUNDS.nodes).map(node => ({ ...node, fix: keptLine(node.fix.replace(/\s+/g, ' '), CARD_BOUNDS.fixChars) })),
    more: v.more + Math.max(0, v.nodes.length - CARD_BOUNDS.nodes),
  }));
  return { kind: 'audit', audit: { ...card.audit, violations } };
}
