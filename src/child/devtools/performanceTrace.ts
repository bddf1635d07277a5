/**
 * bridge_performance_trace: records a trace of the agent's page while an action runs (a reload, a navigation,
 * a number of seconds, or the agent's next call), reads it with DevTools' trace engine (traceFacts.ts), and
 * keeps the whole trace in the output folder, openable in Chrome DevTools' Performance panel.
 *
 * What leaves: facts (the vitals, the insights, the LCP element with its ref) and the file. Both pass the
 * secret mask like every output; the file keeps no Cookie, Set-Cookie or Authorization header, no screenshots
 * are recorded (traceRecorder.ts), and the long texts a page writes into it are cut (traceCut.ts).
 */
import { mkdir, writeFile } from 'fs/promises';
import * as path from 'path';
import type { BrowserContext, Page } from 'playwright';
import type { SecretMask } from '../../core/egress/secretMask';
import { type Emulation, type FindingElement, rate, type TraceFacts } from '../../protocol/devtoolsFacts';
import { DESCRIBE_ELEMENT, type DescribedElement, isolatedWorld } from './isolatedWorld';
import { SnapshotRefs } from './snapshotRefs';
import { TraceCut } from './traceCut';
import { parseTrace } from './traceFacts';
import { MAX_TRACE_MS, type RunningTrace, startTrace, type TraceEvent } from './traceRecorder';
import { eventsOfTracedTab } from './traceScope';

/** After the action, the trace records this long more: late shifts and paints (DevTools MCP waits 5 s). */
export const SETTLE_MS = 3000;
/** Headers a trace file never keeps (Chromium records response headers for the cache insight). */
const PRIVATE_HEADERS = /^(cookie|set-cookie|authorization|proxy-authorization)$/i;

export interface TraceRequest {
  during: TraceFacts['during'];
  url?: string;
  seconds?: number;
  /** Where the file goes (an absolute path the host resolved into the output folder), else a name of ours there. */
  filename?: string;
}

export interface TraceContext {
  context: BrowserContext;
  page: Page;
  outputDir: string;
  mask: SecretMask;
  emulation: Emulation;
}

/** A trace started for the agent's next call, kept on its session until that call ends. */
export interface PendingTrace {
  running: RunningTrace;
  request: TraceRequest;
  startedAt: number;
  emulation: Emulation;
  outputDir: string;
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

async function saveTrace(events: TraceEvent[], request: TraceRequest, outputDir: string, mask: SecretMask): Promise<string> {
  const file = request.filename ?? path.join(outputDir, `trace-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await mkdir(path.dirname(file), { recursive: true });
  // DevTools' own file shape: it opens in the Performance panel (Load profile…).
  const body = { traceEvents: mask.deep(withoutPrivateHeaders(events)), metadata: { source: 'Playwright Bridge', startTime: new Date().toISOString() } };
  await writeFile(file, JSON.stringify(body), { encoding: 'utf8', mode: 0o600 });
  return path.relative(outputDir, file) || path.basename(file);
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
    // Of a browser-wide recording, the traced tab's part only: the file, the engine and the answer read the same.
    const events = eventsOfTracedTab(await running.stop());
    const parsed = await parseTrace(events);
    const element = await lcpElement(running, parsed.lcp?.nodeId);
    const file = await saveTrace(events, request, pending.outputDir, mask);
    const insights = [...parsed.insights];
    if (parsed.longTasks.count) {
      insights.push({
        name: 'LongTasks', title: 'Long main-thread tasks', state: 'informative',
        items: [`${parsed.longTasks.count} task${parsed.longTasks.count === 1 ? '' : 's'} over 50 ms, the longest ${parsed.longTasks.longestMs} ms, ${parsed.longTasks.totalMs} ms in all`],
      });
    }
    const facts: TraceFacts = {
      url: running.page.isClosed() ? request.url ?? '' : running.page.url(),
      during: request.during,
      ...(measuredCall ? { measuredCall } : {}),
      actionMs: Math.round(actionMs),
      file,
      ...(parsed.lcp ? { lcp: {
        ms: parsed.lcp.ms, rating: rate('lcp', parsed.lcp.ms),
        ...(parsed.lcp.phases ? { phases: parsed.lcp.phases } : {}),
        ...(element ? { element } : {}),
        ...(parsed.lcp.url ? { url: parsed.lcp.url } : {}),
      } } : {}),
      cls: { value: parsed.cls.value, rating: rate('cls', parsed.cls.value), culprits: parsed.cls.culprits },
      ...(parsed.inp ? { inp: { ms: parsed.inp.ms, rating: rate('inp', parsed.inp.ms), ...(parsed.inp.interaction ? { interaction: parsed.inp.interaction } : {}) } } : {}),
      insights,
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
    running = await startTrace(target.context, target.page, new TraceCut(text => target.mask.text(text)));
  } catch (error) {
    // No trace (another is recording in this browser): the tab goes back to the page it showed, not left blank.
    if (request.during === 'reload') await target.page.goto(request.url!, { timeout: MAX_TRACE_MS }).catch(() => undefined);
    throw error;
  }
  return { running, request, startedAt: Date.now(), emulation: target.emulation, outputDir: target.outputDir };
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
