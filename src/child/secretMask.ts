import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ObservationEvent } from '../protocol/childMessages';

/**
 * Replaces every secret value with its name, as upstream does in its results, everywhere else the
 * bridge shows text: the panel's console, network and tab lists, the log, and (again, to be sure)
 * results. Longest values first, so one secret inside another is masked whole.
 */
export class SecretMask {
  private readonly entries: [string, string][];

  constructor(secrets: Record<string, string>) {
    this.entries = Object.entries(secrets).filter(([, value]) => value.length > 0).sort((a, b) => b[1].length - a[1].length);
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  text(value: string): string {
    let masked = value;
    for (const [name, secret] of this.entries) {
      // As typed, and as a URL carries it (a query string, a GET form).
      for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)])) {
        if (masked.includes(form)) masked = masked.replaceAll(form, `<secret>${name}</secret>`);
      }
    }
    return masked;
  }

  result(result: CallToolResult): CallToolResult {
    if (this.empty) return result;
    return { ...result, content: result.content.map(part => (part.type === 'text' ? { ...part, text: this.text(part.text) } : part)) };
  }

  event(event: ObservationEvent): ObservationEvent {
    if (this.empty) return event;
    switch (event.kind) {
      case 'console':
        return { ...event, entry: { ...event.entry, text: this.text(event.entry.text), location: event.entry.location && this.text(event.entry.location) } };
      case 'network':
        return { ...event, entry: { ...event.entry, url: this.text(event.entry.url), failure: event.entry.failure && this.text(event.entry.failure) } };
      case 'tabs':
        return { ...event, tabs: event.tabs.map(tab => ({ ...tab, url: this.text(tab.url), title: this.text(tab.title) })) };
      default:
        return event;
    }
  }
}
