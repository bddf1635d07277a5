/**
 * Only the bridge writes a secret's placeholder (`<secret>NAME</secret>`): a placeholder is read back as
 * the secret itself where the bridge expands one (a copied cURL reads `$NAME`, an exported test reads
 * `process.env['NAME']`). A page can write that very text (a field rewritten to it, a request body, a
 * title), so every text that came from the page has the opening tag broken by an invisible word joiner
 * before masking: the same to the eye, never a placeholder. The mask (secretMask.ts) runs this first.
 */

/** What secretPlaceholder() (protocol/childMessages.ts) opens with, and how the page's own text shows it. */
const PLACEHOLDER_OPEN = '<secret>';
export const PLACEHOLDER_SHOWN = '<\u2060secret>';

/** The page's own text, with any placeholder it wrote made inert. */
export function neutralisePlaceholders(text: string): string {
  return text.includes(PLACEHOLDER_OPEN) ? text.replaceAll(PLACEHOLDER_OPEN, PLACEHOLDER_SHOWN) : text;
}
