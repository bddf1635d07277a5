/**
 * How a call's arguments are said in one line (the activity list, chat's "Clicking …"): an element, a quoted
 * text, a short value, each cut to a length that fits a line. The tools' own phrases are their records'
 * (`says` in toolRegistry.ts); core/results/invocationMessages.ts puts them together.
 */
export type CallArgs = Record<string, unknown>;

export function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** The element a call names (its description and ref), or "the page". */
export function elementOf(args: CallArgs): string {
  const description = typeof args.element === 'string' && args.element.trim() ? args.element.trim() : undefined;
  const target = typeof args.target === 'string' ? args.target : undefined;
  if (description && target) return `“${truncate(description, 60)}” (${truncate(target, 40)})`;
  if (description) return `“${truncate(description, 60)}”`;
  if (target) return truncate(target, 60);
  return 'the page';
}

export function quote(value: unknown): string {
  return `"${truncate(String(value ?? ''), 60)}"`;
}

export function short(value: unknown): string {
  return truncate(String(value ?? ''), 100);
}
