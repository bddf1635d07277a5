import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ObservationEvent, secretPlaceholder } from '../../protocol/childMessages';
import { neutralisePlaceholders } from './pagePlaceholders';

/** The spellings masking follows, by the name the README and the harden figures use. */
export const SECRET_FORMS: Record<string, (value: string) => string[]> = {
  raw: value => [value],
  // A query string or a path (encodeURI leaves more characters as they are); some clients write %2f, not %2F.
  urlEncoded: value => [encodeURIComponent(value), encodeURI(value)].flatMap(v => [v, v.replace(/%[0-9A-F]{2}/g, h => h.toLowerCase())]),
  // A form body or a GET form (space as +).
  formEncoded: value => [new URLSearchParams({ v: value }).toString().slice(2)],
  // A JSON body, a console line of JSON.stringify: quotes and backslashes escaped, some servers also escape / and non-ASCII.
  jsonEscaped: value => {
    const json = JSON.stringify(value).slice(1, -1);
    return [json, json.replaceAll('/', '\\/'), json.replace(/[\u007f-\uffff]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)];
  },
  // HTML text and attributes (an element's outer HTML, a page that echoes the value).
  // Every serializer's choice: < and > escaped or not (attributes), each quote left or escaped one of three ways.
  htmlEscaped: value => {
    const amp = value.replaceAll('&', '&amp;');
    const spellings: string[] = [];
    for (const angled of [amp.replaceAll('<', '&lt;').replaceAll('>', '&gt;'), amp]) {
      for (const quote of ['"', '&quot;', '&#34;', '&#x22;']) {
        for (const apostrophe of ['\'', '&#39;', '&#x27;', '&apos;']) spellings.push(angled.replaceAll('"', quote).replaceAll('\'', apostrophe));
      }
    }
    return spellings;
  },
  // Base64 (an Authorization: Basic header holds base64 of "user:value", a page may btoa it): the value
  // may start at any of the three offsets in a 3-byte group, so each alignment's stable middle is masked.
  base64: value => base64Cores(value),
};

/** The part of base64(prefix + value + suffix) that depends on the value alone, for each alignment; plain and URL-safe. */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    // Under 6 characters a match could be chance: such short cores are left out (the raw forms still hold).
    if (whole.length < 6) continue;
    const core = whole.toString('base64');
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * Replaces every secret value with its name, as upstream does in its results, everywhere else the
 * bridge shows text: the panel's console, network and tab lists, the log, picked elements, files it
 * writes, the person's recorded code, and (again, to be sure) results. Each value in every spelling of
 * SECRET_FORMS; longest first, so one secret inside another is masked whole. A page that transforms the
 * value (reverses, hashes, splits it) is beyond any mask: the README says so. Every text masked here is
 * the page's (or upstream's words about it): a placeholder it wrote itself is made inert first
 * (pagePlaceholders.ts), also when no secret is set (one may be set before an export reads the text).
 * So each text passes the mask once, where it leaves the child.
 */
export class SecretMask {
  private readonly entries: { name: string; spellings: string[] }[];

  constructor(secrets: Record<string, string>) {
    this.entries = Object.entries(secrets)
      .filter(([, value]) => value.length > 0)
      .map(([name, value]) => ({ name, spellings: [...new Set(Object.values(SECRET_FORMS).flatMap(form => form(value)))] }))
      .map(entry => ({ ...entry, spellings: entry.spellings.sort((a, b) => b.length - a.length) }));
    this.entries.sort((a, b) => b.spellings[0].length - a.spellings[0].length);
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  text(value: string): string {
    let masked = neutralisePlaceholders(value);
    for (const { name, spellings } of this.entries) {
      for (const form of spellings) if (masked.includes(form)) masked = masked.replaceAll(form, secretPlaceholder(name));
    }
    return masked;
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
    switch (event.kind) {
      // The fields only, never `kind`: a secret that happens to spell a kind must not break the message.
      case 'console':
      case 'network':
        return { ...event, entry: this.deep(event.entry) } as ObservationEvent;
      case 'tabs':
        return { ...event, tabs: this.deep(event.tabs) };
      case 'checkpoint':
        return { ...event, facts: this.deep(event.facts) };
      default:
        return event;
    }
  }
}
