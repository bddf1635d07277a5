/**
 * A logged object's preview for the panel's Console, as DevTools unfolds it: captured in the page when the
 * message is logged (previewInPage), then bounded again in the child (boundPreview), since the page's own
 * script can replace the builtins the capture calls and so make it return anything. Getters are not called
 * (DevTools shows `(...)` for them too): a preview must not run the page's code.
 */
import { VALUE_PREVIEW_LIMITS, type ValuePreview } from '../../protocol/childMessages';

type Limits = typeof VALUE_PREVIEW_LIMITS;

/** Runs in the page (serialized by Playwright, as a handle's evaluate): self-contained, bounded by `limits` as it walks. */
export function previewInPage(_handle: unknown, { values, limits }: { values: unknown[]; limits: Limits }): ValuePreview[] {
  let nodes = 0;
  let chars = 0;
  /** Stands for a getter, which is never called: only this very object is one. */
  const getter = {};
  const text = (value: string): string => {
    const cut = value.length > limits.stringChars ? `${value.slice(0, limits.stringChars)}…` : value;
    chars += cut.length;
    return cut;
  };
  const full = () => nodes >= limits.nodes || chars >= limits.chars;
  const classNameOf = (value: object): string => {
    try {
      const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
      return typeof name === 'string' && name ? text(name) : 'Object';
    } catch {
      return 'Object';
    }
  };
  function walk(value: unknown, depth: number): ValuePreview {
    nodes++;
    if (value === null) return { type: 'null' };
    switch (typeof value) {
      case 'string':
        return { type: 'string', text: text(value) };
      case 'number':
      case 'boolean':
        return { type: typeof value as 'number' | 'boolean', text: String(value) };
      case 'undefined':
        return { type: 'undefined' };
      case 'bigint':
        return { type: 'bigint', text: `${value}n` };
      case 'symbol':
        return { type: 'symbol', text: text(value.toString()) };
      case 'function':
        return { type: 'function', text: text(`ƒ ${(value as { name?: string }).name ?? ''}()`) };
    }
    const object = value as Record<string, unknown>;
    const className = classNameOf(object);
    // Things DevTools shows by their description rather than their properties.
    if (object instanceof Error) return { type: 'object', className, text: text(String(object.stack ?? `${object.name}: ${object.message}`)) };
    if (object instanceof Date) return { type: 'object', className, text: text(String(object)) };
    if (object instanceof RegExp) return { type: 'object', className, text: text(String(object)) };
    const node = object as { nodeType?: unknown; nodeName?: unknown; id?: unknown; className?: unknown };
    if (typeof node.nodeType === 'number' && typeof node.nodeName === 'string') {
      const id = typeof node.id === 'string' && node.id ? `#${node.id}` : '';
      const classes = typeof node.className === 'string' && node.className.trim() ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
      return { type: 'object', className, text: text(`${node.nodeName.toLowerCase()}${id}${classes}`) };
    }
    const isArray = Array.isArray(object);
    const preview: ValuePreview = { type: isArray ? 'array' : 'object', className };
    let entries: [string, () => unknown][];
    if (isArray) {
      preview.size = object.length as number;
      entries = Array.from({ length: Math.min(object.length as number, limits.props + 1) }, (_, i) => [String(i), () => object[i]]);
    } else if (object instanceof Map) {
      preview.size = object.size;
      entries = [...object.entries()].slice(0, limits.props + 1).map(([key, entry]) => [String(key), () => entry as unknown]);
    } else if (object instanceof Set) {
      preview.size = object.size;
      entries = [...object.values()].slice(0, limits.props + 1).map((entry, i) => [String(i), () => entry as unknown]);
    } else {
      entries = Object.keys(object)
        .slice(0, limits.props + 1)
        .map(key => {
          const descriptor = Object.getOwnPropertyDescriptor(object, key);
          return [key, descriptor && 'value' in descriptor ? () => descriptor.value : () => getter];
        });
    }
    const total = isArray || object instanceof Map || object instanceof Set ? (preview.size ?? 0) : Object.keys(object).length;
    // Deeper than captured: the panel shows `{…}`, not unfoldable.
    if (depth >= limits.depth) return preview;
    preview.props = [];
    for (const [name, read] of entries) {
      if (preview.props.length >= limits.props || full()) break;
      let entry: ValuePreview;
      try {
        const got = read();
        entry = got === getter ? { type: 'undefined', text: '(...)' } : walk(got, depth + 1);
      } catch {
        entry = { type: 'undefined', text: '(...)' };
      }
      preview.props.push({ name: text(name), value: entry });
    }
    if (total > preview.props.length) preview.more = total - preview.props.length;
    return preview;
  }
  const previews: ValuePreview[] = [];
  for (const value of values) {
    try {
      previews.push(walk(value, 0));
    } catch {
      previews.push({ type: 'undefined', text: '(...)' });
    }
  }
  return previews;
}

const TYPES = new Set<ValuePreview['type']>(['string', 'number', 'boolean', 'undefined', 'null', 'bigint', 'symbol', 'function', 'object', 'array']);

/**
 * What the page returned, rebuilt within the limits whatever it is: the real bound (the page's script could
 * have made previewInPage return anything). Unknown shapes become `(...)`.
 */
export function boundPreview(untrusted: unknown, limits: Limits = VALUE_PREVIEW_LIMITS): ValuePreview[] {
  let nodes = 0;
  let chars = 0;
  const str = (value: unknown, max = limits.stringChars): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const cut = value.length > max ? `${value.slice(0, max)}…` : value;
    chars += cut.length;
    return cut;
  };
  const full = () => nodes >= limits.nodes || chars >= limits.chars;
  function rebuild(value: unknown, depth: number): ValuePreview {
    nodes++;
    const given = (value ?? {}) as Partial<Record<keyof ValuePreview, unknown>>;
    const type = given.type as ValuePreview['type'];
    if (typeof value !== 'object' || !TYPES.has(type)) return { type: 'undefined', text: '(...)' };
    const preview: ValuePreview = { type };
    const text = str(given.text);
    if (text !== undefined) preview.text = text;
    const className = str(given.className, 100);
    if (className !== undefined) preview.className = className;
    if (typeof given.size === 'number' && Number.isFinite(given.size)) preview.size = given.size;
    if ((type === 'object' || type === 'array') && Array.isArray(given.props) && depth < limits.depth) {
      preview.props = [];
      for (const prop of given.props as unknown[]) {
        if (preview.props.length >= limits.props || full()) break;
        const { name, value: inner } = (prop ?? {}) as { name?: unknown; value?: unknown };
        preview.props.push({ name: str(name, 200) ?? '?', value: rebuild(inner, depth + 1) });
      }
      const left = (given.props as unknown[]).length - preview.props.length + (typeof given.more === 'number' && given.more > 0 ? given.more : 0);
      if (left > 0) preview.more = left;
    }
    return preview;
  }
  if (!Array.isArray(untrusted)) return [];
  return untrusted.slice(0, limits.props).map(value => rebuild(value, 0));
}

/** Whether a message's arguments hold anything the panel unfolds (else its text says it all). */
export function hasUnfoldable(previews: readonly ValuePreview[]): boolean {
  return previews.some(preview => preview.props !== undefined);
}
