/**
 * The log's audience (the Output channel a person reads, copies into an issue, or shares): a line never
 * carries a credential the bridge holds (the endpoint's bearer token, in any spelling SecretMask follows: a
 * client that put it in the URL's query was refused, and the refusal quoted the URL), never a raw control
 * character (a page's text with ESC sequences would repaint a terminal the log is pasted into; kept: tab and
 * newline), and is bounded in length (a page's 3 MB console line is not kept whole).
 */
import { SecretMask } from './secretMask';

/** A log line is cut past this many characters, saying how long it was. */
export const MAX_LOG_LINE_CHARS = 8000;

// C0 but tab and newline, DEL, C1, and the line and paragraph separators.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;

export class LogGate {
  private mask = new SecretMask({});
  private readonly hidden: Record<string, string> = {};

  constructor(private readonly sink: (line: string) => void) {}

  /** A value that must never be logged, under the name the log shows instead. */
  hide(name: string, value: string): this {
    this.hidden[name] = value;
    this.mask = new SecretMask(this.hidden);
    return this;
  }

  /** The line as it may be logged. */
  shown(line: string): string {
    const masked = this.mask.text(line).replace(CONTROL, c => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
    return masked.length > MAX_LOG_LINE_CHARS ? `${masked.slice(0, MAX_LOG_LINE_CHARS)}… (${masked.length} characters in all)` : masked;
  }

  readonly log = (line: string): void => this.sink(this.shown(line));
}
