/**
 * The control channel between the extension host and its child, beside plain MCP (tools/list,
 * tools/call): every method declared once, with its name on the wire, the schema of its params and
 * (for requests) of its result and how long the host waits. The host's client
 * (core/childProcess/controlClient.ts) and the child's handlers (child/controlHandlers.ts) are derived
 * from these tables: a method added here must be handled by the child, or the child does not compile.
 */
import { z } from 'zod';
import {
  BrowserStateParamsSchema,
  InputEventSchema,
  LiveViewParamsSchema,
  MemoryResultSchema,
  ObservationEventSchema,
  PageActionResultSchema,
  PageActionSchema,
  PickParamsSchema,
  PickResultSchema,
  RecordPersonParamsSchema,
  RecordPersonResultSchema,
  ScreenshotResultSchema,
  StorageStateResultSchema,
  CheckpointFactsSchema,
  RequestDetailSchema,
  RequestDetailParamsSchema,
  DeviceInfoSchema,
  RestoreCheckpointParamsSchema,
  RestoreCheckpointResultSchema,
} from './childMessages';
import { EmulationSchema } from './devtoolsFacts';

// The SDK may add `_meta` to any params: requests without params of their own take an open object.
const noParams = z.object({}).passthrough();
const sessionId = z.object({ sessionId: z.string().min(1).max(200) });

/** Host asks, child answers. */
export const CONTROL_REQUESTS = {
  /** A PNG of the current page, for Save Screenshot. */
  screenshot: { method: 'playwright_bridge/screenshot', params: noParams, result: ScreenshotResultSchema, timeoutMs: 15000 },
  /** The panel's navigation bar and tab strip. */
  pageAction: {
    method: 'playwright_bridge/page_action',
    params: z.object({ pageAction: PageActionSchema }),
    result: PageActionResultSchema,
    timeoutMs: 120000,
  },
  /** Picking an element for chat: outline it on hover, describe it on choose. */
  pick: { method: 'playwright_bridge/pick', params: PickParamsSchema, result: PickResultSchema, timeoutMs: 30000 },
  /** The watched context's cookies and local storage, for a login profile. */
  storageState: { method: 'playwright_bridge/storage_state', params: noParams, result: StorageStateResultSchema, timeoutMs: 30000 },
  /** Take control starts recording the person's actions as Playwright code; hand back stops it and returns the code. */
  recordPerson: { method: 'playwright_bridge/record_person', params: RecordPersonParamsSchema, result: RecordPersonResultSchema, timeoutMs: 15000 },
  /** A checkpoint now (after a burst of the person's input); the agent's steps carry theirs as a call mark. */
  checkpoint: { method: 'playwright_bridge/checkpoint', params: noParams, result: CheckpointFactsSchema, timeoutMs: 30000 },
  /** Time travel: the watched context put back to a checkpoint (its storage, address and size) in a fresh tab. */
  restoreCheckpoint: {
    method: 'playwright_bridge/restore_checkpoint',
    params: RestoreCheckpointParamsSchema,
    result: RestoreCheckpointResultSchema,
    timeoutMs: 120000,
  },
  /** One request of the watched session as the panel's Network pane opens it: headers, bodies, timing (fetched only then, masked). */
  requestDetail: { method: 'playwright_bridge/request_detail', params: RequestDetailParamsSchema, result: RequestDetailSchema, timeoutMs: 20000 },
  /** The Network pane's throttling and Disable cache, on every page of the watched session (through the browser). */
  networkConditions: { method: 'playwright_bridge/network_conditions', params: EmulationSchema, result: EmulationSchema, timeoutMs: 15000 },
  /**
   * Save all as HAR: the requests the Network pane lists (`ids`, as the person sees them after Clear), HAR 1.2 with
   * their bodies, sanitized and masked. With `file` the child writes it there (a large HAR never crosses the pipe)
   * and answers without it.
   */
  har: {
    method: 'playwright_bridge/har',
    params: z.object({ version: z.string().max(50), ids: z.array(z.string().max(64)).max(5000), file: z.string().min(1).max(4096).optional() }).passthrough(),
    result: z.object({ har: z.string(), entries: z.number(), omittedBodies: z.number() }),
    timeoutMs: 120000,
  },
  /** Playwright's devices (the panel's size picker): a device's user agent and touch need a new context, so choosing one restarts the browser. */
  deviceList: { method: 'playwright_bridge/device_list', params: noParams, result: z.object({ devices: z.array(DeviceInfoSchema) }), timeoutMs: 15000 },
  /**
   * The browser's internal CDP endpoint (child/cdp/), for the host's managed one: started for the watched browser
   * if it has none, with `challenge` set as a cookie of the watched context (on a domain no page has) for the host
   * to read back through CDP before it publishes anything. Chromium only: another engine is refused in words.
   */
  cdpEndpoint: {
    method: 'playwright_bridge/cdp_endpoint',
    params: z.object({ challenge: z.string().regex(/^[\w-]{32,64}$/) }).passthrough(),
    result: z.object({
      port: z.number().int().min(1).max(65535),
      secret: z.string().min(32),
      /** The key of the proof the endpoint gives in each answer (core/cdpDoor/endpointProof.ts). */
      proofKey: z.string().min(32),
      /** The watched context, where the challenge is. */
      browserContextId: z.string(),
      /** The watched session's current tab, for DevTools. */
      currentTargetId: z.string().optional(),
    }),
    timeoutMs: 30000,
  },
  /** The host read the challenge back (or gave up): it is taken off the watched context. */
  cdpChallengeDone: {
    method: 'playwright_bridge/cdp_challenge_done',
    params: z.object({ challenge: z.string().max(64) }).passthrough(),
    result: z.object({}).passthrough(),
    timeoutMs: 15000,
  },
  /** The child's heap and RSS after a full collection; `heapSnapshotPath`: also a V8 heap snapshot written there. */
  memory: {
    method: 'playwright_bridge/memory',
    params: z.object({ heapSnapshotPath: z.string().min(1).optional() }).passthrough(),
    result: MemoryResultSchema,
    timeoutMs: 120000,
  },
} as const;

/** Host tells the child; nothing answers. */
export const CONTROL_NOTIFICATIONS = {
  /** Start, resize or stop the stream of frames for the panel. */
  liveView: { method: 'notifications/playwright_bridge/live_view', params: LiveViewParamsSchema },
  /**
   * Network's Preserve log: the watched session keeps each response's body as it ends, so Save all as HAR and a
   * request's details still have an earlier page's (the browser drops a page's bodies when the next one commits).
   */
  preserveNetworkLog: { method: 'notifications/playwright_bridge/preserve_network_log', params: z.object({ on: z.boolean() }) },
  /** The person's mouse or keyboard, for the current page (fire and forget: input must not queue). */
  input: { method: 'notifications/playwright_bridge/input', params: z.object({ event: InputEventSchema }) },
  /** An MCP client left: its own context (isolation `perClient`) closes. */
  closeSession: { method: 'notifications/playwright_bridge/close_session', params: sessionId },
  /** The panel watches another session; an unknown id changes nothing. */
  watchContext: { method: 'notifications/playwright_bridge/watch_context', params: sessionId },
} as const;

/** Child tells the host; nothing answers. */
export const CHILD_EVENTS = {
  /** The browser launching, ready, closed, lost or failed. */
  browserState: { method: 'notifications/playwright_bridge/browser_state', params: BrowserStateParamsSchema },
  /** What the browser does, for the panel: tabs, console, requests, frames, sessions. */
  observation: { method: 'notifications/playwright_bridge/observation', params: z.object({ event: ObservationEventSchema }) },
} as const;

export type ControlRequestName = keyof typeof CONTROL_REQUESTS;
export type ControlRequestParams<K extends ControlRequestName> = z.input<(typeof CONTROL_REQUESTS)[K]['params']>;
export type ControlRequestResult<K extends ControlRequestName> = z.infer<(typeof CONTROL_REQUESTS)[K]['result']>;
export type ControlNotificationName = keyof typeof CONTROL_NOTIFICATIONS;
export type ControlNotificationParams<K extends ControlNotificationName> = z.input<(typeof CONTROL_NOTIFICATIONS)[K]['params']>;
export type ChildEventName = keyof typeof CHILD_EVENTS;
export type ChildEventParams<K extends ChildEventName> = z.infer<(typeof CHILD_EVENTS)[K]['params']>;

/** A whole message (method and params) as the MCP SDK's handlers take it. */
export function messageSchema<M extends string, P extends z.ZodType>(entry: { method: M; params: P }) {
  return z.object({ method: z.literal(entry.method), params: entry.params });
}
