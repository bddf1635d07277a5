/**
 * What a trace keeps of the text a page writes into it. A page names its user timing marks and measures, gives
 * them detail, labels its console timers and time stamps, and loads its addresses and scripts; Chromium copies
 * each into the trace, some into several events. Forty marks of 1 MB made an 85 MB trace: seconds for the
 * browser to hand over and the engine to read, and a file over the output budget, deleted as it was named.
 *
 * Each text is kept up to TEXT_CHARS and cut there, saying how long it was; the scripts' sources, which
 * DevTools' JavaScript insights read whole, up to SOURCES_CHARS in all, then cut as any text. A text is masked
 * before it is cut, so a secret across the cut leaves no part of itself in the trace.
 */
import type { TraceEvent } from './traceEvent';

/** Longer than any mark name, console label or address a page means to be read (DevTools shows a line of one). */
const TEXT_CHARS = 4096;
/** The scripts' sources a trace keeps whole (a large application's bundles are a few megabytes). */
const SOURCES_CHARS = 32 * 1024 * 1024;
/** The category whose events carry the scripts' sources (`args.data.sourceText`). */
const SOURCES_CATEGORY = 'disabled-by-default-devtools.v8-source-rundown-sources';

export class TraceCut {
  private sourcesLeft = SOURCES_CHARS;

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
    if (typeof value === 'string') return value.length > TEXT_CHARS ? this.cut(value) : value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.within(value[i]);
    } else if (value && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.within(record[key]);
    }
    return value;
  }

  private cut(text: string): string {
    const masked = this.mask(text);
    return `${masked.slice(0, TEXT_CHARS)}… [cut: ${text.length} characters]`;
  }
}
