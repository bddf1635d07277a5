/**
 * Reading a result's text: small and free of the image codecs, so the child can use it too.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Every text part of a result, joined. */
export function resultText(result: CallToolResult): string {
  return (result.content ?? [])
    .map(part => (part.type === 'text' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Upstream starts an error's text with a "### Error" heading: the reason is what follows. */
export function withoutErrorHeading(text: string): string {
  return text.replace(/^#+\s*Error\s*\n?/, '');
}
