/**
 * Records a performance trace of one page as Chrome DevTools' Performance panel does: the browser's own
 * tracing over a CDP session of that page (Playwright's `newCDPSession`, on the pipe Playwright already
 * holds: no port is opened to other processes), with DevTools' default categories and its JS sampling. The
 * browser hands the trace over at its end as a compressed stream (traceStream.ts), its long texts cut as it is
 * read (traceCut.ts), within END_DEADLINE_MS; a page that keeps the browser from handing it over has its scripts
 * paused until it does (handOverPause.ts). What is kept is bounded as a whole (`keptChars`, MAX_EVENTS): the
 * rest is counted, not held. Screenshots are not recorded: a trace's film strip would hold pictures of what the
 * page showed, a password field's dots and the person's data included, and no insight needs them.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright';
import { withDeadline } from '../../core/supervision/deadline';
import { HandOverPause } from './handOverPause';
import { TraceCut } from './traceCut';
import type { TraceEvent } from './traceEvent';
export type { TraceEvent } from './traceEvent';
import { readTraceStream } from './traceStream';

/** DevTools' own default categories (its TracingManager) and JS sampling; not its screenshots. */
export const TRACE_CATEGORIES: readonly string[] = [
  'blink.console',
  'blink.user_timing',
  'loading',
  'devtools.timeline',
  'disabled-by-default-devtools.target-rundown',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.v8-source-rundown-sources',
  'disabled-by-default-devtools.v8-source-rundown',
  'disabled-by-default-layout_shift.debug',
  'disabled-by-default-v8.inspector',
  'disabled-by-default-v8.cpu_profiler.hires',
  'disabled-by-default-lighthouse',
  'v8.execute',
  'v8',
  'cppgc',
  'navigation',
  'rail',
  'disabled-by-default-v8.cpu_profiler',
];

/** The longest a trace may record, whatever it waits for: a page that never settles still gives a trace. */
export const MAX_TRACE_MS = 60_000;
/** A trace holds at most this many events (a busy page's minute is far fewer): the rest is dropped, not kept in memory. */
const MAX_EVENTS = 500_000;
/** The browser hands a trace over, and it is read, in this long, or the trace is given up (a renderer that hangs). */
export const END_DEADLINE_MS = 30_000;

/** What the bridge's readers keep of a trace when no bound is given (the bench's): a busy minute is far less. */
const KEPT_CHARS = 256 * 1024 * 1024;

/** A trace as the browser handed it over: the events kept, and what was cut or left out of it on the way. */
export interface RecordedTrace {
  events: TraceEvent[];
  /** The page's texts cut short (traceCut.ts). */
  textsCut: number;
  /** Events not kept: past the bound on what is kept, or a line too long to read. */
  eventsLeftOut: number;
  /** How long the page's scripts were paused for the browser to hand the trace over (0: not at all). */
  pausedScriptsMs: number;
}

/** A trace being recorded: `stop` ends it and hands over its events. */
export interface RunningTrace {
  readonly page: Page;
  /** The trace's CDP session, still open until `close` (the elements a trace names are resolved over it). */
  readonly cdp: CDPSession;
  stop(): Promise<RecordedTrace>;
  close(): Promise<void>;
}

/** Chromium's refusal of a second trace in one browser, said as what to do. */
export const ANOTHER_TRACE =
  "Another trace is recording in this browser (another client's, or a `nextCall` trace still waiting): try again when it ends (at most a minute).";

/** How long the page may take to run the one expression that starts JS sampling: a page that never yields is traced anyway. */
const SAMPLING_START_DEADLINE_MS = 2_000;

/**
 * V8 starts its JS sampling, and lists every script it holds, at the first JavaScript the page runs after
 * tracing starts. In a tab the agent has used, that heap holds Playwright's injected scripts, and the start
 * took 40 ms (measured) inside the next document's first script: the page's own load (LCP) read that much
 * later than DevTools reads it. A no-op expression, run now, pays that start before the measured action.
 */
async function startSamplingNow(cdp: CDPSession): Promise<void> {
  await withDeadline(cdp.send('Runtime.evaluate', { expression: '0', silent: true }), SAMPLING_START_DEADLINE_MS, 'sampling start').catch(() => undefined);
}

/**
 * `cut`: what the trace keeps of the page's text, with the secrets' mask (the bench, which has none, takes the
 * default); `keptChars`: the most of the events' lines, as cut, it keeps in all (the file it will be written to).
 */
export async function startTrace(context: BrowserContext, page: Page, cut = new TraceCut(text => text), keptChars = KEPT_CHARS): Promise<RunningTrace> {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Tracing.start', {
      transferMode: 'ReturnAsStream',
      streamFormat: 'json',
      streamCompression: 'gzip',
      traceConfig: { includedCategories: [...TRACE_CATEGORIES], excludedCategories: ['*'] },
    });
  } catch (error) {
    await cdp.detach().catch(() => undefined);
    // Chromium records one trace at a time in a browser, whichever tab or client started it.
    if (/already been started/i.test((error as Error).message)) throw new Error(ANOTHER_TRACE, { cause: error });
    throw error;
  }
  await startSamplingNow(cdp);
  let stopped: Promise<RecordedTrace> | undefined;
  return {
    page,
    cdp,
    stop: () =>
      (stopped ??= (async () => {
        const complete = new Promise<string | undefined>(resolve => cdp.once('Tracing.tracingComplete', ({ stream }) => resolve(stream)));
        await cdp.send('Tracing.end');
        const pause = new HandOverPause(cdp);
        try {
          return await withDeadline(
            (async () => {
              const stream = await complete;
              // Handed over: the page runs on while the trace is read.
              const pausedScriptsMs = await pause.end();
              if (!stream) throw new Error('The browser ended the trace without handing it over.');
              const kept = await readKept(cdp, stream, cut, keptChars);
              // A stream in a form the reader does not know (one event a line) is said so, not read as an empty trace.
              if (!kept.events.length) throw new Error('The browser handed the trace over in a form the bridge cannot read: no events in it.');
              return { ...kept, textsCut: cut.textsCut, pausedScriptsMs };
            })(),
            END_DEADLINE_MS,
            `The browser did not hand the trace over in ${END_DEADLINE_MS / 1000} s.`,
          );
        } finally {
          // Given up too: the page's scripts never stay paused.
          await pause.end();
        }
      })()),
    close: async () => {
      await stopped?.catch(() => undefined);
      await cdp.detach().catch(() => undefined);
    },
  };
}

/** The stream's events, cut, up to `keptChars` of their lines and MAX_EVENTS in all; the rest counted unparsed. */
async function readKept(cdp: CDPSession, stream: string, cut: TraceCut, keptChars: number): Promise<{ events: TraceEvent[]; eventsLeftOut: number }> {
  const events: TraceEvent[] = [];
  let chars = 0;
  let full = false;
  let eventsLeftOut = 0;
  await readTraceStream(
    cdp,
    stream,
    (event, lineChars) => {
      const before = cut.charsCut;
      const kept = cut.event(event);
      const size = lineChars - (cut.charsCut - before);
      // The first event that does not fit ends the keeping: the lines after it are counted, not parsed.
      if (events.length >= MAX_EVENTS || chars + size > keptChars) {
        full = true;
        eventsLeftOut++;
        return;
      }
      chars += size;
      events.push(kept);
    },
    { wants: () => !full, skipped: () => eventsLeftOut++ },
  );
  return { events, eventsLeftOut };
}
