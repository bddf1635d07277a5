/**
 * What of a trace belongs to the traced tab. Chromium's tracing is browser-wide even when started on one
 * tab's session: the MCP clients' contexts share one browser (isolation `perClient`), and a trace of client
 * A's tab held client B's renderer and the browser's navigation events with B's addresses (measured: B's
 * URL in 55 of A's events). A trace keeps the traced tab's renderer processes, found from the frames the
 * trace names for it, and of the browser's own processes only the events that carry no address or name
 * one of those frames (other processes, the network service's included, are left out). The file, the engine and so the answer read only these.
 */
import type { TraceEvent } from './traceRecorder';

interface FrameRecord {
  frame?: string;
  parent?: string;
  processId?: number;
}

const dataOf = (event: TraceEvent): Record<string, unknown> | undefined => (event.args as { data?: Record<string, unknown> } | undefined)?.data;

/** The browser events that map frames to processes: kept for the traced tab's frames only. */
const FRAME_EVENTS = new Set(['TracingStartedInBrowser', 'FrameCommittedInBrowser', 'ProcessReadyInBrowser', 'FrameDeletedInBrowser']);

/** An address anywhere in an event's arguments (an origin, a URL): another tab's, unless its frame is ours. */
const HAS_ADDRESS = /:\/\//;

export function eventsOfTracedTab(events: TraceEvent[]): TraceEvent[] {
  const started = events.find(event => event.name === 'TracingStartedInBrowser');
  // Not a trace Chromium scoped to a tab (none names its frames): nothing to tell apart.
  const startFrames = (dataOf(started ?? {})?.frames ?? []) as FrameRecord[];
  if (!started || !startFrames.length) return events;
  const browserPid = started.pid;
  const frames = new Set<string>();
  const renderers = new Set<unknown>();
  const adopt = (record: FrameRecord) => {
    if (record.frame) frames.add(record.frame);
    if (record.processId !== undefined) renderers.add(record.processId);
  };
  startFrames.forEach(adopt);
  // Frames the tab commits later (a navigation to another process, a child frame): in trace order.
  for (const event of events) {
    if (event.pid !== browserPid || !FRAME_EVENTS.has(String(event.name))) continue;
    const data = dataOf(event) as FrameRecord | undefined;
    if (data && ((data.frame && frames.has(data.frame)) || (data.parent && frames.has(data.parent)))) adopt(data);
  }
  const namesOurFrame = (event: TraceEvent) => {
    const frame = dataOf(event)?.frame ?? (event.args as { frame?: unknown } | undefined)?.frame;
    return typeof frame === 'string' && frames.has(frame);
  };
  // The browser's own processes (the browser, its GPU process): not a tab's renderer, nor a utility process
  // that serves every tab (the network service).
  const shared = new Set<unknown>([
    browserPid,
    ...events.filter(event => event.name === 'process_name' && (event.args as { name?: string } | undefined)?.name === 'GPU Process').map(event => event.pid),
  ]);
  return events.filter(event => {
    if (renderers.has(event.pid)) return true;
    if (event.name === 'TracingStartedInBrowser') return true;
    if (FRAME_EVENTS.has(String(event.name))) return namesOurFrame(event);
    // Another tab's renderer, a utility process: none of it.
    if (!shared.has(event.pid)) return false;
    // The browser and its GPU process: their work without an address, or for our frames.
    return namesOurFrame(event) || !HAS_ADDRESS.test(JSON.stringify(event.args ?? {}));
  });
}
