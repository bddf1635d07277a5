/**
 * bridge_performance_trace: records a trace of the agent's page while an action runs (a reload, a navigation,
 * a number of seconds, or the agent's next call), reads it with DevTools' trace engine (traceFacts.ts), and
 * keeps the whole trace in the output folder, openable in Chrome DevTools' Performance panel.
 *
 * What leaves: facts (the vitals, the insights, the LCP element with its ref) and the file. Both pass the
 * secret mask like every output; the file keeps no Cookie, Set-Cookie or Authorization header, no screenshots
 * are recorded (traceRecorder.ts), and the long texts a page writes into it are cut (traceCut.ts). The file is
 * bounded as a whole, under the output folder's budget (a file over it would be deleted as the call ends, and
 * the answer would name a file that is not there): events past the bound are left out, and the file's metadata
 * and the answer say what was cut. The engine reads the events the file holds, so the answer and the file agree.
 */
import { mkdir, writeFile } from 'fs/promises';
import * as path from 'path';
import type { BrowserContext, Page } from 'playwright';
import type { SecretMask } from '../../core/egress/secretMask';
import { type Emulation, type FindingElement, rate, type TraceFacts } from '../../protocol/devtoolsFacts';
import { largestFileKeptIn } from '../outputBudget';
import { DESCRIBE_ELEMENT, type DescribedElement, isolatedWorld } from './isolatedWorld';
import { SnapshotRefs } from './snapshotRefs';
import { TEXT_CUT_RULE, TraceCut } from './traceCut';
import { parseTrace } from './traceFacts';
import type { InsightDetails } from './insightDetail';
import { MAX_TRACE_MS, type RecordedTrace, type RunningTrace, startTrace, type TraceEvent } from './traceRecorder';
import { eventsOfTracedTab } from './traceScope';

/** After the action, the trace records this long more: late shifts and paints (DevTools MCP waits 5 s). */
export const SETTLE_MS = 3000;
/** Headers a trace file never keeps (Chromium records response headers for the cache insight). */
const PRIVATE_HEADERS = /^(cookie|set-cookie|authorization|proxy-authorization)$/i;
/** The largest trace file, whatever the output budget: a busy minute with its scripts' sources is far less. */
const TRACE_FILE_BYTES = 64 * 1024 * 1024;
/** The file around its events: its opening, its metadata (what was cut, in numbers and our words) and its close. */
const FILE_FRAME_BYTES = 4096;

/** The most a trace file of this folder may take: under the folder's budget, so the budget keeps it. */
const fileLimitOf = (outputDir: string) => Math.min(TRACE_FILE_BYTES, largestFileKeptIn(outputDir));

export interface TraceRequest {
  during: TraceFacts['during'];
  url?: string;
  seconds?: number;
  /** Where the file goes (an absolute path the host resolved into the output folder), else a name of ours there. */
  filename?: string;
}

/** The last trace of a session, kept for the agent's drill-down into one of its insights. */
export interface LastTrace {
  details: InsightDetails;
  page: Page;
}

export interface TraceContext {
  context: BrowserContext;
  page: Page;
  outputDir: string;
  mask: SecretMask;
  emulation: Emulation;
  /** Keeps the finished trace's insights for a drill-down. */
  keep(last: LastTrace): void;
}

/** A trace started for the agent's next call, kept on its session until that call ends. */
export interface PendingTrace {
  running: RunningTrace;
  request: TraceRequest;
  startedAt: number;
  emulation: Emulation;
  outputDir: string;
  keep(last: LastTrace): void;
}

/** Drops what a trace file must not keep: private headers in the events the network records. */
function withoutPrivateHeaders(events: TraceEvent[]): TraceEvent[] {
  return events.map(event => {
    const data = (event.args as { data?: { headers?: unknown } } | undefined)?.data;
    if (!data || !Array.isArray(data.headers)) return event;
    const headers = (data.headers as { name?: string }[]).filter(header => !PRIVATE_HEADERS.test(String(header?.name ?? '')));
    return { ...event, args: { ...(event.args as object), data: { ...data, headers } } };
  });
}

/** What the file holds, where it is, and what was left out of it. */
interface SavedTrace {
  /** The events the file holds, as read (unmasked: the facts are masked once, with the whole answer). */
  events: TraceEvent[];
  file?: string;
  /** Why there is no file, when there is none. */
  noFile?: NonNullable<TraceFacts['noFile']>;
  eventsLeftOut: number;
  limitBytes: number;
}

/**
 * Writes the trace, masked and without private headers, as DevTools' own file shape (it opens in the Performance
 * panel: Load profile…), one event a line for as long as the file keeps within its limit; the events past it are
 * left out and counted. The file's metadata says what was cut (DevTools reads only the keys it knows).
 */
async function saveTrace(recorded: RecordedTrace, request: TraceRequest, outputDir: string, mask: SecretMask): Promise<SavedTrace> {
  const limitBytes = fileLimitOf(outputDir);
  const lines: string[] = [];
  const events: TraceEvent[] = [];
  let bytes = FILE_FRAME_BYTES;
  let eventsLeftOut = recorded.eventsLeftOut;
  // One masked event for each event read, in order.
  for (const [index, event] of mask.deep(withoutPrivateHeaders(recorded.events)).entries()) {
    const line = JSON.stringify(event);
    const size = Buffer.byteLength(line, 'utf8') + 2;
    if (bytes + size > limitBytes) {
      eventsLeftOut++;
      continue;
    }
    bytes += size;
    lines.push(line);
    events.push(recorded.events[index]);
  }
  if (!events.length) return { events, noFile: { why: 'budget', limitBytes }, eventsLeftOut, limitBytes };
  const cut =
    recorded.textsCut || eventsLeftOut
      ? {
          textsCut: recorded.textsCut,
          eventsLeftOut,
          limitBytes,
          why: `${TEXT_CUT_RULE} Events past the file's limit (under the output folder's budget) are left out.`,
        }
      : undefined;
  const metadata = { source: 'Playwright Bridge', startTime: new Date().toISOString(), ...(cut ? { cut } : {}) };
  const file = request.filename ?? path.join(outputDir, `trace-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `{"traceEvents":[\n${lines.join(',\n')}\n],"metadata":${JSON.stringify(metadata)}}\n`, { encoding: 'utf8', mode: 0o600 });
  } catch (error) {
    // The facts still stand: the answer says why there is no file instead of naming one.
    return { events, noFile: { why: 'write', detail: (error as Error).message.split('\n')[0] }, eventsLeftOut, limitBytes };
  }
  return { events, file: path.relative(outputDir, file) || path.basename(file), eventsLeftOut, limitBytes };
}

/** The LCP element, said in words, with its ref and box, found again by its node id over the trace's session. */
async function lcpElement(running: RunningTrace, nodeId: number | undefined): Promise<FindingElement | undefined> {
  if (nodeId === undefined) return undefined;
  try {
    const world = await isolatedWorld(running.cdp);
    const element = await world.onNode<DescribedElement>(nodeId, DESCRIBE_ELEMENT);
    if (!element) return undefined;
    const ref = await (await SnapshotRefs.take(running.page, running.cdp)).of(nodeId);
    return { description: element.description, ...(ref ? { ref } : {}), box: element.box };
  } catch {
    // The page navigated since (its nodes are gone): the vitals stand without it.
    return undefined;
  }
}

/** Ends a trace and reads it: the facts the model, the card and the file share. */
export async function finishTrace(pending: PendingTrace, actionMs: number, mask: SecretMask, measuredCall?: string): Promise<TraceFacts> {
  const { running, request } = pending;
  try {
    const recorded = await running.stop();
    // Of a browser-wide recording, the traced tab's part only: the file, the engine and the answer read the same.
    const saved = await saveTrace({ ...recorded, events: eventsOfTracedTab(recorded.events) }, request, pending.outputDir, mask);
    const parsed = await parseTrace(saved.events);
    pending.keep({ details: parsed.details, page: running.page });
    const element = await lcpElement(running, parsed.lcp?.nodeId);
    const facts: TraceFacts = {
      url: running.page.isClosed() ? (request.url ?? '') : running.page.url(),
      during: request.during,
      ...(measuredCall ? { measuredCall } : {}),
      actionMs: Math.round(actionMs),
      ...(saved.file ? { file: saved.file } : {}),
      ...(saved.noFile ? { noFile: saved.noFile } : {}),
      ...(recorded.textsCut || saved.eventsLeftOut
        ? { cut: { textsCut: recorded.textsCut, eventsLeftOut: saved.eventsLeftOut, limitBytes: saved.limitBytes } }
        : {}),
      ...(recorded.pausedScriptsMs ? { pausedScriptsMs: recorded.pausedScriptsMs } : {}),
      ...(parsed.lcp
        ? {
            lcp: {
              ms: parsed.lcp.ms,
              rating: rate('lcp', parsed.lcp.ms),
              ...(parsed.lcp.phases ? { phases: parsed.lcp.phases } : {}),
              ...(element ? { element } : {}),
              ...(parsed.lcp.url ? { url: parsed.lcp.url } : {}),
            },
          }
        : {}),
      cls: { value: parsed.cls.value, rating: rate('cls', parsed.cls.value), culprits: parsed.cls.culprits },
      ...(parsed.inp
        ? { inp: { ms: parsed.inp.ms, rating: rate('inp', parsed.inp.ms), ...(parsed.inp.interaction ? { interaction: parsed.inp.interaction } : {}) } }
        : {}),
      insights: parsed.insights,
      ...(parsed.notComputed.length ? { notComputed: parsed.notComputed } : {}),
      emulation: pending.emulation,
    };
    // Not masked here: the facts leave as the call's marks, which the router masks once with the whole answer.
    return facts;
  } finally {
    await running.close();
  }
}

/** Starts recording; for `nextCall` the caller keeps it until the next call ends. */
export async function beginTrace(target: TraceContext, request: TraceRequest): Promise<PendingTrace> {
  if (request.during === 'reload') {
    // As DevTools' "record and reload": from a blank page, so the trace holds the whole load and nothing before it.
    request = { ...request, url: target.page.url() };
    await target.page.goto('about:blank');
  }
  let running: RunningTrace;
  try {
    // Kept as it is read up to what its file may hold: a flood is not held in memory to be left out at the end.
    running = await startTrace(target.context, target.page, new TraceCut(text => target.mask.text(text)), fileLimitOf(target.outputDir));
  } catch (error) {
    // No trace (another is recording in this browser): the tab goes back to the page it showed, not left blank.
    if (request.during === 'reload') await target.page.goto(request.url!, { timeout: MAX_TRACE_MS }).catch(() => undefined);
    throw error;
  }
  return { running, request, startedAt: Date.now(), emulation: target.emulation, outputDir: target.outputDir, keep: target.keep };
}

/** Records the trace of a reload, a navigation or some seconds, and reads it. */
export async function traceAction(target: TraceContext, request: TraceRequest): Promise<TraceFacts> {
  const pending = await beginTrace(target, request);
  const started = Date.now();
  try {
    if (request.during === 'reload' || request.during === 'navigate') {
      await target.page.goto(pending.request.url!, { waitUntil: 'load', timeout: MAX_TRACE_MS });
    } else {
      await new Promise(resolve => setTimeout(resolve, Math.min(MAX_TRACE_MS, (request.seconds ?? 5) * 1000)));
    }
  } catch (error) {
    await pending.running.close();
    throw error;
  }
  const actionMs = Date.now() - started;
  if (request.during !== 'seconds') await new Promise(resolve => setTimeout(resolve, SETTLE_MS));
  return finishTrace(pending, actionMs, target.mask);
}
