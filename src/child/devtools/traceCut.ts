/**
 * What a trace keeps of the text a page writes into it. A page names its user timing marks and measures, gives
 * them detail, labels its console timers and time stamps, and loads its addresses and scripts; Chromium copies
 * each into the trace, some into several events. Forty marks of 1 MB made an 85 MB trace: seconds for the
 * browser to hand over and the engine to read, and a file over the output budget, deleted as it was named.
 *
 * Each text is kept up to TEXT_CHARS and cut there, saying how long it was; the scripts' sources, which
 * DevTools' JavaScript insights read whole, up to SOURCES_CHARS in all, then cut as any text. Texts count in
 * total too, not only each on its own: 8,000 marks just under TEXT_CHARS made a trace over the output budget.
 * Past TEXTS_TOTAL_CHARS of long texts, each further one keeps only its start (SHORT_TEXT_CHARS, enough to tell
 * a mark or an address by), and every cut is counted for the file's metadata and the answer. A text is masked
 * before it is cut, so a secret across the cut leaves no part of itself in the trace.
 */
import type { TraceEvent } from './traceEvent';

/** Longer than any mark name, console label or address a page means to be read (DevTools shows a line of one). */
const TEXT_CHARS = 4096;
/** The long texts a trace keeps in all (a busy page's addresses and labels are far less), sources aside. */
const TEXTS_TOTAL_CHARS = 8 * 1024 * 1024;
/** A text this short is never counted nor cut (ids, categories, event names); past the total, what a long text keeps. */
const SHORT_TEXT_CHARS = 64;
/** The rule in words, for the file's metadata: what a trace keeps of the page's texts. */
export const TEXT_CUT_RULE = `A text the page wrote is kept up to ${TEXT_CHARS} characters, and to its first ${SHORT_TEXT_CHARS} once ${TEXTS_TOTAL_CHARS} characters of such texts are kept.`;
/** The scripts' sources a trace keeps whole (a large application's bundles are a few megabytes). */
const SOURCES_CHARS = 32 * 1024 * 1024;
/** The category whose events carry the scripts' sources (`args.data.sourceText`). */
const SOURCES_CATEGORY = 'disabled-by-default-devtools.v8-source-rundown-sources';

export class TraceCut {
  private sourcesLeft = SOURCES_CHARS;
  private textsLeft = TEXTS_TOTAL_CHARS;
  /** Texts cut so far, at either length. */
  textsCut = 0;
  /** Characters the cuts took out so far (what an event's line no longer holds once cut). */
  charsCut = 0;

  constructor(private readonly mask: (text: string) => string) {}

  /** The event with its long texts cut (changed in place: it is the reader's own copy). */
  event(event: TraceEvent): TraceEvent {
    const data = (event.args as { data?: { sourceText?: unknown } } | undefined)?.data;
    const source = event.cat === SOURCES_CATEGORY ? data?.sourceText : undefined;
    if (typeof source === 'string' && source.length > TEXT_CHARS && source.length <= this.sourcesLeft) {
      this.sourcesLeft -= source.length;
      data!.sourceText = '';
      this.within(event);
      data!.sourceText = source;
      return event;
    }
    return this.within(event) as TraceEvent;
  }

  private within(value: unknown): unknown {
    if (typeof value === 'string') {
      if (value.length <= SHORT_TEXT_CHARS) return value;
      const keeps = this.textsLeft > 0 ? TEXT_CHARS : SHORT_TEXT_CHARS;
      this.textsLeft -= Math.min(value.length, keeps);
      return value.length > keeps ? this.cut(value, keeps) : value;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.within(value[i]);
    } else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.within(record[key]);
    }
    return value;
  }

  private cut(text: string, keeps: number): string {
    const masked = this.mask(text);
    const kept = `${masked.slice(0, keeps)}… [cut: ${text.length} characters]`;
    this.textsCut++;
    this.charsCut += Math.max(0, text.length - kept.length);
    return kept;
  }
}
