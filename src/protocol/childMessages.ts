/**
 * What the extension host and its browser-server child say to each other beyond plain MCP: the
 * schemas of the params and results, with the types inferred from them. The methods that carry them
 * (names, directions, timeouts) are declared once in controlChannel.ts; the host's client and the
 * child's handlers are derived from that table, so a change on one side that the other does not
 * understand fails to compile or fails validation. The floor of the source tree: imports nothing of ours.
 */
import { z } from 'zod';
import { EmulationSchema } from './devtoolsFacts';

export const BrowserEngineSchema = z.enum(['chromium', 'firefox', 'webkit']);
export type BrowserEngine = z.infer<typeof BrowserEngineSchema>;

// ---- browser state (child -> host) -------------------------------------------------------------

export const BrowserStateParamsSchema = z.object({
  state: z.enum(['launching', 'ready', 'closed', 'lost', 'failed']),
  /** For `failed` and `lost`: what happened and how to fix it, ready to show a person. */
  message: z.string().optional(),
});
export type BrowserStateParams = z.infer<typeof BrowserStateParamsSchema>;
export type BrowserState = BrowserStateParams['state'];

// ---- observation (child -> host): what the browser does, for the live panel ----------------------

export const ConsoleLevelSchema = z.enum(['error', 'warning', 'info', 'debug']);
export type ConsoleLevel = z.infer<typeof ConsoleLevelSchema>;

export const TabInfoSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  current: z.boolean(),
  /** The page's viewport in CSS pixels (the size the agent works at), when it has a fixed one. */
  viewport: z.object({ width: z.number(), height: z.number() }).optional(),
  /** Its last load failed (the browser shows its own error page): why, in words; `url` is then the address that failed. */
  loadError: z.string().optional(),
  /** The named browser context it is in (`browser_tabs` with `isolatedContext`); absent in the session's own. */
  context: z.string().optional(),
});
export type TabInfo = z.infer<typeof TabInfoSchema>;

/**
 * A logged value as the child captured it for the panel to unfold, one level at a time (DevTools' object
 * preview): JSON-safe and bounded (VALUE_PREVIEW_LIMITS), never the live object. `text` is a primitive's
 * value or an object's own description (an Error's stack, a Date, an element); `props` are the properties
 * captured (absent: deeper than captured), `more` how many were left out.
 */
export interface ValuePreview {
  type: 'string' | 'number' | 'boolean' | 'undefined' | 'null' | 'bigint' | 'symbol' | 'function' | 'object' | 'array';
  text?: string;
  /** An object's constructor name as DevTools shows it ("Object", "Map", "HTMLDivElement"); an array's length is `size`. */
  className?: string;
  size?: number;
  props?: { name: string; value: ValuePreview }[];
  more?: number;
}
export const ValuePreviewSchema: z.ZodType<ValuePreview> = z.lazy(() =>
  z.object({
    type: z.enum(['string', 'number', 'boolean', 'undefined', 'null', 'bigint', 'symbol', 'function', 'object', 'array']),
    text: z.string().optional(),
    className: z.string().optional(),
    size: z.number().optional(),
    props: z.array(z.object({ name: z.string(), value: ValuePreviewSchema })).optional(),
    more: z.number().optional(),
  }),
);

/** How much of a logged value is captured: levels below the argument, properties per object, nodes and characters in all. */
export const VALUE_PREVIEW_LIMITS = { depth: 3, props: 50, nodes: 200, chars: 8000, stringChars: 500 };

export const ConsoleEntrySchema = z.object({
  level: ConsoleLevelSchema,
  text: z.string(),
  /** url:line:column where the message came from, when known. */
  location: z.string().optional(),
  /** An uncaught error's stack: its "at …" lines, without the message (the text has it). */
  stack: z.string().optional(),
  /** The logged arguments, when one of them is an object the panel can unfold (absent: the text says it all). */
  args: z.array(ValuePreviewSchema).optional(),
  pageId: z.string(),
  time: z.number(),
});
export type ConsoleEntry = z.infer<typeof ConsoleEntrySchema>;

export const NetworkEntrySchema = z.object({
  id: z.string(),
  method: z.string(),
  url: z.string(),
  resourceType: z.string(),
  /** HTTP status; 0 while pending or when the request failed before a response. */
  status: z.number(),
  /** The failure (net::ERR_...) when it failed. */
  failure: z.string().optional(),
  durationMs: z.number().optional(),
  /** The response body's bytes as sent over the wire (Playwright's responseBodySize; never below 0). */
  sizeBytes: z.number().optional(),
  /** Bytes over the network, headers included (DevTools' "transferred"); 0 for a response from a cache. */
  transferBytes: z.number().optional(),
  /** The body's bytes once decoded (DevTools' "resources"), when known. */
  resourceBytes: z.number().optional(),
  /** Answered from the browser's cache, as DevTools says it: "(memory cache)", "(disk cache)". */
  cache: z.enum(['memory', 'disk']).optional(),
  /**
   * What started it: the script as `url:line:column` when a script did, the document of the frame that asked
   * for it (the parser), "Redirect", or "Other" (a navigation of the tab itself, or unknown).
   */
  initiator: z.string().optional(),
  /** On a navigation's own entry: when its page fired DOMContentLoaded and load, in ms from its start (the footer, the waterfall's lines). */
  domContentLoadedMs: z.number().optional(),
  loadMs: z.number().optional(),
  /** The main frame's own navigation (a new page in the tab): without Preserve log the list starts again at it. */
  navigation: z.boolean().optional(),
  pageId: z.string(),
  /** When it started (ms since epoch; the browser's own start once it finished). */
  time: z.number(),
});
export type NetworkEntry = z.infer<typeof NetworkEntrySchema>;

export const FrameEventSchema = z.object({
  pageId: z.string(),
  /** JPEG, base64. */
  data: z.string(),
  width: z.number(),
  height: z.number(),
  /** When the browser produced it (ms since epoch), for latency figures. */
  timestamp: z.number(),
  /**
   * 'screencast' frames stream; 'screenshot' frames are the fallback after a state-changing call;
   * a 'still' is taken when a stream starts on a page that is not changing (Chromium sends frames
   * only for new paints, so an already painted static page would show nothing).
   */
  source: z.enum(['screencast', 'screenshot', 'still']),
});
export type FrameEvent = z.infer<typeof FrameEventSchema>;

/** A browser context the panel can watch: the window's (id `window`) or an MCP client's own. */
export const WatchableContextSchema = z.object({ id: z.string(), label: z.string(), watched: z.boolean() });
export type WatchableContext = z.infer<typeof WatchableContextSchema>;

/**
 * The current tab's state after a step, as the child saw it: where it was, its size, and the context's
 * storage (Playwright's storage state with IndexedDB, plus the tab's sessionStorage) as one JSON string,
 * sent only when it changed since the last checkpoint (absent: as the step before).
 */
export const CheckpointFactsSchema = z.object({
  url: z.string(),
  title: z.string(),
  viewport: z.object({ width: z.number(), height: z.number() }).optional(),
  tabCount: z.number(),
  /** The named context its tab is in (browser_tabs isolatedContext); absent: the session's own. Its storage is that context's. */
  context: z.string().optional(),
  storage: z.string().optional(),
});
export type CheckpointFacts = z.infer<typeof CheckpointFactsSchema>;

/** The most characters of each field of a picked or clicked element: the page writes them, so each has a cap (the child cuts to it). */
export const PICKED_ELEMENT_LIMITS = { role: 64, name: 200, ref: 32, tag: 64, html: 2000, url: 2048 };

export const ObservationEventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sessions'), sessions: z.array(WatchableContextSchema) }),
  z.object({ kind: z.literal('tabs'), tabs: z.array(TabInfoSchema) }),
  z.object({ kind: z.literal('console'), entry: ConsoleEntrySchema }),
  /** A tab's main frame committed a new document (not a same-document change): the Console starts again there, as DevTools' does. */
  z.object({ kind: z.literal('navigated'), pageId: z.string(), url: z.string() }),
  z.object({ kind: z.literal('network'), entry: NetworkEntrySchema }),
  z.object({ kind: z.literal('frame'), frame: FrameEventSchema }),
  /** Time travel: the checkpoint of the window's step whose result carried the mark `checkpoint: { seq }`, taken once the result had gone. */
  z.object({ kind: z.literal('checkpoint'), seq: z.number(), facts: CheckpointFactsSchema }),
  /** What the watched context emulates now (the panel's network controls or the agent's bridge_emulate changed it, or its context went). */
  z.object({ kind: z.literal('emulation'), emulation: EmulationSchema }),
  /** A page is paused in a debugger on the managed CDP endpoint (a breakpoint in VS Code's debugger or DevTools), or runs again. */
  z.object({ kind: z.literal('debuggerPaused'), paused: z.boolean() }),
  /** The element under the person's mouse-down in the picture, read before the click reached it (Activity names it). */
  z.object({ kind: z.literal('personClicked'), role: z.string().max(PICKED_ELEMENT_LIMITS.role), name: z.string().max(PICKED_ELEMENT_LIMITS.name) }),
]);
export type ObservationEvent = z.infer<typeof ObservationEventSchema>;

/** The longest console text, URL and title an entry carries to the extension; the rest is cut, saying how much. */
export const ENTRY_LIMITS = { text: 8000, url: 2000, title: 500 };

/** A text cut to `max` characters, ending with how many were cut. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters cut)`;
}

// ---- live view (host -> child): start, resize or stop the stream of frames ----------------------

export const LiveViewParamsSchema = z.object({
  enabled: z.boolean(),
  /** Largest frame wanted, in device pixels (the panel's size times its pixel ratio). */
  maxWidth: z.number(),
  maxHeight: z.number(),
  quality: z.number().optional(),
});
export type LiveViewParams = z.infer<typeof LiveViewParamsSchema>;

// ---- a request's details (host -> child request), when the person opens it in the panel --------

/**
 * Which request, and how much of its bodies: the panel asks for the first characters of each, JSON
 * pretty-printed (what it shows first: a 1 MB body need not cross to the webview to show its start);
 * Copy as cURL and Add to Chat ask for them as sent, whole (up to REQUEST_BODY_LIMIT bytes).
 */
export const RequestDetailParamsSchema = z.object({
  id: z.string().min(1).max(32),
  bodyChars: z.number().int().min(1).optional(),
  pretty: z.boolean().optional(),
  /**
   * Asked ahead of a click (the person's pointer rests on the row): answered only for a finished body whose read
   * is bounded (child/observer/networkLog.ts' readAheadAllowed), else refused with nothing read.
   */
  ahead: z.boolean().optional(),
});
export type RequestDetailParams = z.infer<typeof RequestDetailParamsSchema>;

/** A request or response body as the panel shows it: text (JSON pretty-printed there), an image, or described only. */
export const RequestBodySchema = z.object({
  kind: z.enum(['text', 'json', 'image', 'binary', 'none', 'unavailable']),
  mimeType: z.string(),
  /** Its whole size in bytes. */
  size: z.number(),
  /** Text and JSON: the text (at most REQUEST_BODY_LIMIT bytes of it, or the characters asked for). */
  text: z.string().optional(),
  /** An image: base64, at most REQUEST_BODY_LIMIT bytes. */
  base64: z.string().optional(),
  /** Only the start came (the first REQUEST_BODY_LIMIT bytes, or the characters asked for): there is more. */
  truncated: z.boolean().optional(),
  /** The text is JSON pretty-printed (not the bytes as sent). */
  pretty: z.boolean().optional(),
  /** Why there is none ("still loading", "the browser no longer has it"). */
  reason: z.string().optional(),
});
export type RequestBody = z.infer<typeof RequestBodySchema>;

/** The most of one body the child sends; the panel shows less at first, the rest on "Show more". */
export const REQUEST_BODY_LIMIT = 2 * 1024 * 1024;

export const HeaderSchema = z.object({ name: z.string(), value: z.string() });
export type Header = z.infer<typeof HeaderSchema>;

export const RequestDetailSchema = z.object({
  id: z.string(),
  url: z.string(),
  method: z.string(),
  resourceType: z.string(),
  status: z.number(),
  statusText: z.string().optional(),
  failure: z.string().optional(),
  /** The server's address and port, when the browser says. */
  remoteAddress: z.string().optional(),
  /** Where the time went (DNS, connecting, TLS, waiting, download), in ms; phases the browser did not report are left out. */
  timing: z.array(z.object({ phase: z.string(), ms: z.number() })),
  requestHeaders: z.array(HeaderSchema),
  responseHeaders: z.array(HeaderSchema),
  requestBody: RequestBodySchema,
  responseBody: RequestBodySchema,
});
export type RequestDetail = z.infer<typeof RequestDetailSchema>;

/** One of Playwright's devices, as the panel's size picker offers it. */
export const DeviceInfoSchema = z.object({
  name: z.string(),
  width: z.number(),
  height: z.number(),
  scale: z.number(),
  mobile: z.boolean(),
  touch: z.boolean(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

// ---- screenshot (host -> child request): a PNG of the current page, for "Save Screenshot" -------

export const ScreenshotResultSchema = z.object({ data: z.string(), mimeType: z.string(), url: z.string(), title: z.string() });
export type ScreenshotResult = z.infer<typeof ScreenshotResultSchema>;

// ---- the person's input and navigation (host -> child), from the panel ------------------------

/** Where on the page, as a fraction of the viewport's width and height (the panel scales freely). */
const fraction = z.number().min(0).max(1);
const ModifiersSchema = z
  .array(z.enum(['Alt', 'Control', 'Meta', 'Shift']))
  .max(4)
  .default([]);

export const InputEventSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('mouse'),
    action: z.enum(['move', 'down', 'up']),
    x: fraction,
    y: fraction,
    button: z.enum(['left', 'middle', 'right']).default('left'),
    clickCount: z.number().int().min(1).max(3).default(1),
  }),
  z.object({ kind: z.literal('wheel'), x: fraction, y: fraction, deltaX: z.number().min(-10000).max(10000), deltaY: z.number().min(-10000).max(10000) }),
  /** A key by its DOM `key` name ("a", "Enter", "ArrowLeft"), with the modifiers held. */
  z.object({ kind: z.literal('key'), action: z.enum(['down', 'up']), key: z.string().min(1).max(32), modifiers: ModifiersSchema }),
  /** Text that arrives whole: the end of an IME composition, or a paste. */
  z.object({ kind: z.literal('text'), text: z.string().min(1).max(10000) }),
]);
export type InputEvent = z.infer<typeof InputEventSchema>;

/** What the panel's navigation bar and tab strip ask for. */
export const PageActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('navigate'), url: z.string().min(1).max(8192) }),
  z.object({ action: z.enum(['back', 'forward', 'reload', 'stop', 'newTab']) }),
  z.object({ action: z.enum(['selectTab', 'closeTab']), tabId: z.string().max(32) }),
  /** The panel's size picker: the current page's viewport, at once (Playwright's setViewportSize). */
  z.object({ action: z.literal('resize'), width: z.number().int().min(100).max(8000), height: z.number().int().min(100).max(8000) }),
]);
export type PageAction = z.infer<typeof PageActionSchema>;

/** What a page action did, in words for the activity list, or why it could not. */
export const PageActionResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** For selectTab and closeTab: the tab's place in the tab strip (0 first) when it was chosen, as a test names it. */
  tabIndex: z.number().int().nonnegative().optional(),
});
export type PageActionResult = z.infer<typeof PageActionResultSchema>;

// ---- picking an element for chat (host -> child request), from the panel ------------------------

/**
 * Hover shows which element a click would pick (drawn in the page); choose picks it; region takes a
 * picture of a dragged rectangle (corners as fractions); cancel ends picking.
 */
export const PickParamsSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.enum(['hover', 'choose']), x: fraction, y: fraction }),
  z.object({ phase: z.literal('region'), x0: fraction, y0: fraction, x1: fraction, y1: fraction }),
  z.object({ phase: z.literal('cancel') }),
]);
export type PickParams = z.infer<typeof PickParamsSchema>;

/** The element under the point, as chat should read it. */
export const PickedElementSchema = z.object({
  role: z.string().max(PICKED_ELEMENT_LIMITS.role),
  name: z.string().max(PICKED_ELEMENT_LIMITS.name),
  /** Its ref in upstream's snapshot (for browser_click and friends), when one could be matched. */
  ref: z.string().max(PICKED_ELEMENT_LIMITS.ref).optional(),
  tag: z.string().max(PICKED_ELEMENT_LIMITS.tag),
  /** Its outer HTML, trimmed. */
  html: z.string().max(PICKED_ELEMENT_LIMITS.html),
  url: z.string().max(PICKED_ELEMENT_LIMITS.url),
});
export type PickedElement = z.infer<typeof PickedElementSchema>;

export const PickResultSchema = z.object({
  element: PickedElementSchema.optional(),
  /** For a region: a PNG of it, base64, and the page it shows. */
  region: z.object({ png: z.string(), url: z.string(), width: z.number(), height: z.number() }).optional(),
});
export type PickResult = z.infer<typeof PickResultSchema>;

// ---- sessions (isolation `perClient`): which MCP client a call comes from, and when it leaves ----

/** `_meta` key of a tools/call: the MCP client session the call came through (absent: the window). */
export const SESSION_META = 'playwrightBridge/session';
/** `_meta` key of a tools/call: the client's own name (from its initialize), for the session list. */
export const CLIENT_NAME_META = 'playwrightBridge/client';

/** The panel watches another session (host -> child); an unknown id changes nothing. */

// ---- login profiles (host -> child request): the watched context's storage state -----------------

/** The context's cookies and local storage as Playwright's storage-state JSON (kept out of every log). */
export const StorageStateResultSchema = z.object({ state: z.string() });

// ---- the person's actions recorded as Playwright code (host -> child request), for exported tests ----

export const RecordPersonParamsSchema = z.object({ action: z.enum(['start', 'stop']) });
/**
 * On stop: the code Playwright's recorder wrote for what the person did, one statement per line, where the page
 * is, and the origins of every page and frame the actions were on (an export grants a secret only if all are its sites).
 */
export const RecordPersonResultSchema = z.object({ code: z.array(z.string()), url: z.string().optional(), origins: z.array(z.string()).max(200).optional() });

// ---- time travel: a checkpoint after each step, and the browser restored to one ---------------

/**
 * What `storage` holds: Playwright's storage state, and the current tab's sessionStorage for its origin; or,
 * for a page whose storage was not kept, only how much (`tooLarge`, characters; 0 when no size is known) and,
 * from the child, why (`reason`, in words the person reads).
 */
export interface CheckpointStorage {
  state: { cookies: unknown[]; origins: { origin: string }[] };
  session?: { origin: string; items: [string, string][] };
}
export interface CheckpointStorageTooLarge {
  tooLarge: number;
  reason?: string;
}

/** The browser put back to a checkpoint: the storage it had (absent: empty), the address, the size. */
export const RestoreCheckpointParamsSchema = z.object({
  url: z.string(),
  /** The named context to put back (opened again if it closed since); absent: the session's own. */
  context: z.string().max(ENTRY_LIMITS.title).optional(),
  viewport: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).optional(),
  storage: z.string().optional(),
});
export type RestoreCheckpointParams = z.infer<typeof RestoreCheckpointParamsSchema>;
export const RestoreCheckpointResultSchema = z.object({ url: z.string(), title: z.string() });
export type RestoreCheckpointResult = z.infer<typeof RestoreCheckpointResultSchema>;

// ---- memory (host -> child request): the child's own figures, for the soak that looks for leaks ----

/** Measured after a full garbage collection, so what is counted is what the child still holds. */
export const MemoryResultSchema = z.object({ heapUsedBytes: z.number(), rssBytes: z.number() });
export type MemoryResult = z.infer<typeof MemoryResultSchema>;

// ---- private input (host -> child, once, on the child's private pipe) ---------------------------

/** One secret: its value, and the origins (scheme://host:port) it may be typed into. */
export const SecretEntrySchema = z.object({
  value: z.string().min(1),
  origins: z.array(z.string()),
});
export type SecretEntry = z.infer<typeof SecretEntrySchema>;

/** What a secret's value is shown as wherever the child masks it (results, the person's recorded code). */
export function secretPlaceholder(name: string): string {
  return `<secret>${name}</secret>`;
}

/** A placeholder quoted as a JavaScript string literal, with the name as group 1 (how recorded code holds one). */
export const QUOTED_SECRET_PLACEHOLDER = /'<secret>([A-Za-z_]\w*)<\/secret>'/g;

/**
 * What the child must know but nothing else may read: the person's secrets by name, and the
 * credential headers of a browser endpoint. Sent on a pipe, never in the environment or argv.
 */
export const ChildPrivateInputSchema = z.object({
  secrets: z.record(z.string(), SecretEntrySchema),
  connectHeaders: z.record(z.string(), z.string()),
});
export type ChildPrivateInput = z.infer<typeof ChildPrivateInputSchema>;
