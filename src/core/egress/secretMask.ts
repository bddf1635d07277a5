import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ObservationEvent, secretPlaceholder } from '../../protocol/childMessages';
import { neutralisePlaceholders } from './pagePlaceholders';
import { abbreviatedTextPatterns, base64Length, base64Runs, ELLIPSIS, encodedTextPattern } from './encodedText';

/** Under this many bytes a secret found in decoded base64 could be chance: such short values are matched as written only. */
const BASE64_MIN_BYTES = 6;

/**
 * Replaces every secret value with its name, as upstream does in its results, everywhere else the
 * bridge shows text: the panel's console, network and tab lists, the log, picked elements, files it
 * writes, the person's recorded code, and (again, to be sure) results. Each value is found however a
 * browser or server wrote it (encodedText.ts: percent, form, JSON and HTML encodings in any mix, twice
 * over, and base64 decoded), and one secret inside another is masked whole. A page that transforms the
 * value (reverses, hashes, splits it) is beyond any mask: the README says so. Every text masked here is
 * the page's (or upstream's words about it): a placeholder it wrote itself is made inert first
 * (pagePlaceholders.ts), also when no secret is set (one may be set before an export reads the text).
 * So each text passes the mask once, where it leaves the child.
 */
export class SecretMask {
  private readonly entries: { name: string; pattern: RegExp; abbreviated: RegExp[]; base64From: number | undefined }[];
  /** A value holds a character past ASCII: base64 is read as Latin-1 too (btoa's bytes). */
  private readonly latin1: boolean;

  constructor(secrets: Record<string, string>) {
    this.entries = Object.entries(secrets)
      .filter(([, value]) => value.length > 0)
      .map(([name, value]) => {
        const bytes = Buffer.byteLength(value, 'utf8');
        const cut = abbreviatedTextPatterns(value);
        return {
          name,
          pattern: new RegExp(encodedTextPattern(value), 'g'),
          abbreviated: cut ? [new RegExp(cut.head, 'g'), new RegExp(cut.tail, 'g')] : [],
          base64From: bytes >= BASE64_MIN_BYTES ? base64Length(bytes) : undefined,
        };
      });
    this.latin1 = Object.values(secrets).some(value => [...value].some(char => char.charCodeAt(0) > 0x7f));
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  text(value: string): string {
    const text = neutralisePlaceholders(value);
    if (!this.entries.length) return text;
    const spans: { start: number; end: number; name: string }[] = [];
    // What is left of a value beside an ellipsis is looked for only where the text has one: most have none.
    const abbreviated = ELLIPSIS.test(text);
    for (const entry of this.entries) {
      const { name } = entry;
      for (const found of abbreviated ? [entry.pattern, ...entry.abbreviated] : [entry.pattern]) {
        found.lastIndex = 0;
        for (let match = found.exec(text); match; match = found.exec(text)) {
          if (!match[0]) found.lastIndex++;
          else spans.push({ start: match.index, end: match.index + match[0].length, name });
        }
      }
    }
    const base64Entries = this.entries.filter(entry => entry.base64From !== undefined);
    if (base64Entries.length) {
      const shortest = Math.min(...base64Entries.map(entry => entry.base64From!));
      for (const run of base64Runs(text, shortest, this.latin1)) {
        const found = base64Entries.find(
          entry =>
            run.end - run.start >= entry.base64From! &&
            run.decoded.some(decoded => {
              entry.pattern.lastIndex = 0;
              return entry.pattern.test(decoded);
            }),
        );
        // The whole run: what else it encodes (a user name before the value, a JSON body around it) goes with it.
        if (found) spans.push({ start: run.start, end: run.end, name: found.name });
      }
    }
    return spans.length ? withPlaceholders(text, spans) : text;
  }

  /** Every string inside a plain JSON value (a picked element, a page action's answer), masked. */
  deep<T>(value: T): T {
    if (typeof value === 'string') return this.text(value) as T;
    if (Array.isArray(value)) return value.map(item => this.deep(item)) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.deep(item)])) as T;
    }
    return value;
  }

  result(result: CallToolResult): CallToolResult {
    return {
      ...result,
      content: result.content.map(part => (part.type === 'text' ? { ...part, text: this.text(part.text) } : part)),
      ...(result.structuredContent ? { structuredContent: this.deep(result.structuredContent) } : {}),
      // The child's marks (a page's address in a refusal, tab titles in the session list) too.
      ...(result._meta ? { _meta: this.deep(result._meta) } : {}),
    };
  }

  event(event: ObservationEvent): ObservationEvent {
    // Pixels are not text; every other kind has all its fields masked (never `kind`: a secret that happens to
    // spell a kind must not break the message). By construction: a kind added later is masked without a new case.
    if (event.kind === 'frame') return event;
    const { kind, ...fields } = event;
    return { kind, ...this.deep(fields) } as ObservationEvent;
  }
}

/**
 * The text with each span replaced by its secret's placeholder; overlapping spans (one secret inside another, a
 * value inside a base64 run that also holds it as written) become one, named by the longest of them.
 */
function withPlaceholders(text: string, spans: { start: number; end: number; name: string }[]): string {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  let i = 0;
  while (i < spans.length) {
    const first = spans[i];
    let end = first.end;
    let named = first;
    for (i++; i < spans.length && spans[i].start < end; i++) {
      if (spans[i].end - spans[i].start > named.end - named.start) named = spans[i];
      end = Math.max(end, spans[i].end);
    }
    out += text.slice(at, first.start) + secretPlaceholder(named.name);
    at = end;
  }
  return out + text.slice(at);
}
