/**
 * A console call's format string as DevTools applies it: `console.log('%s is %d', name, age)` reads "Ada is 36",
 * not the raw specifiers followed by the values. %s, %d/%i, %f, %o/%O take the next value; %c takes a style,
 * which is dropped (the panel never applies a page's CSS); %% is a percent sign.
 */
import type { ValuePreview } from '../../protocol/childMessages';

const SPECIFIER = /%([sdifoOc%])/g;

/** A value as one short piece of text, as the Console writes it inline. */
function inline(preview: ValuePreview): string {
  switch (preview.type) {
    case 'undefined':
    case 'null':
      return preview.type;
    case 'array':
      return `${preview.className ?? 'Array'}(${preview.size ?? 0})`;
    case 'object':
      return preview.text ?? preview.className ?? 'Object';
    default:
      return preview.text ?? '';
  }
}

function asNumber(preview: ValuePreview | undefined, integer: boolean): string {
  const value = preview?.type === 'number' ? Number(preview.text) : NaN;
  return String(integer ? Math.trunc(value) : value);
}

/**
 * The message text and the values left to show after it, when the first value is a string holding a specifier;
 * undefined when there is nothing to format (the message's own text stands).
 */
export function formatConsoleCall(previews: readonly ValuePreview[]): { text: string; args: ValuePreview[] } | undefined {
  const [first, ...rest] = previews;
  if (first?.type !== 'string' || !first.text || !/%[sdifoOc%]/.test(first.text)) return undefined;
  let next = 0;
  const formatted = first.text.replace(SPECIFIER, (whole, kind: string) => {
    if (kind === '%') return '%';
    if (next >= rest.length) return whole;
    const value = rest[next++];
    if (kind === 'c') return '';
    if (kind === 'd' || kind === 'i') return asNumber(value, true);
    if (kind === 'f') return asNumber(value, false);
    return inline(value);
  });
  const left = rest.slice(next);
  return { text: [formatted, ...left.map(inline)].join(' '), args: [{ type: 'string', text: formatted }, ...left] };
}
