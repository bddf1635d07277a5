/**
 * Save as HAR's one budget for the whole file: everything written counts (addresses and the query strings that
 * repeat them, headers, bodies, the bridge's own comments), as the UTF-8 bytes of the JSON as written, masked.
 * A page picks its addresses (Chromium sends up to 2 MB each), its request headers and its server's response
 * headers: 40 requests with no body made a 130 MB HAR, and 160 made one too large for a string, the save failing.
 *
 * Each request is given the room left less a stub's room for every request after it, so every listed request is
 * in the file: one that does not fit whole is written as its stub (harExport.ts), whose strings are cut to their
 * share here so that it never takes more than STUB_BYTES.
 */

/** The whole file, bodies included. */
export const HAR_BUDGET = 20 * 1024 * 1024;
/**
 * The most a stub takes: six strings fitted to STUB_STRING_BYTES, and numbers and our words, about 900 bytes
 * even with every number at its longest (a stub of the largest values measured 2,120 bytes in all).
 */
export const STUB_BYTES = 2560;
/** Each string a stub keeps (the method, the address, the status text, the content type, the redirect). */
export const STUB_STRING_BYTES = 200;
/** The log around the entries: its version, creator and comment. */
const LOG_BYTES = 1024;

/** The bytes `value` takes in the file (JSON, UTF-8). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** What one UTF-16 unit costs in a JSON string (a surrogate pair's two units are 2 bytes each; a lone one is escaped). */
function unitBytes(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code >= 0xd800 && code <= 0xdbff) return at + 1 < text.length && /[\udc00-\udfff]/.test(text[at + 1]) ? 2 : 6;
  if (code >= 0xdc00 && code <= 0xdfff) return at > 0 && /[\ud800-\udbff]/.test(text[at - 1]) ? 2 : 6;
  return 3;
}

/**
 * `text` as a JSON string of at most `maxBytes` (its quotes included): whole, or its start and an ellipsis.
 * Cut after masking: a secret across the cut has already become its placeholder.
 */
export function fitted(text: string, maxBytes: number): string {
  if (jsonBytes(text) <= maxBytes) return text;
  // The quotes and the ellipsis (3 bytes) are part of the room.
  const room = maxBytes - 2 - 3;
  let used = 0;
  let end = 0;
  while (end < text.length && used + unitBytes(text, end) <= room) used += unitBytes(text, end++);
  // Never half a surrogate pair.
  if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

/** What is written so far, and the room each next request may take. */
export class HarBudget {
  private used = LOG_BYTES;

  /** `requests`: how many the file will list (the panel's list, at most 5,000 by the protocol: 12.8 MB of stubs at most). */
  constructor(private readonly requests: number) {}

  /** The room for the request at `index` (0-based): the budget less what is written and a stub for each request after it. */
  roomFor(index: number): number {
    return HAR_BUDGET - this.used - (this.requests - index - 1) * (STUB_BYTES + 1);
  }

  /** An entry written: its bytes and the comma after it. */
  take(bytes: number): void {
    this.used += bytes + 1;
  }
}
