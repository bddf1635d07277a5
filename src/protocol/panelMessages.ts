/**
 * The one message protocol between the extension host and the browser panel's webview, defined
 * once as schemas with the types inferred from them. The host validates everything the webview
 * sends with `parsePanelMessage` (the webview is a separate, less trusted context); the webview
 * imports only the types (so zod stays out of its bundle) and `isMarker` from panelRows.
 */
import { z } from 'zod';
import {
  BrowserStateParamsSchema,
  ConsoleEntrySchema,
  InputEventSchema,
  NetworkEntrySchema,
  PageActionSchema,
  PickParamsSchema,
  REQUEST_BODY_LIMIT,
  RequestDetailSchema,
  TabInfoSchema,
} from './childMessages';
import { DevtoolsCardSchema, EmulationSchema } from './devtoolsFacts';

/** The bridge's state, as the supervisor keeps it and the panel shows it. */
export const BridgeStateSchema = z.enum(['idle', 'starting', 'ready', 'restarting', 'failed', 'disposed']);
export type BridgeState = z.infer<typeof BridgeStateSchema>;

/**
 * Which way a call came in: a language-model tool, the MCP server, a tool call the panel's own buttons make
 * (through the pipeline, like an agent's), or the person acting on the page themselves (no tool call; see core/README.md).
 */
export const DoorSchema = z.enum(['tool', 'mcp', 'panel', 'person']);
export type Door = z.infer<typeof DoorSchema>;

export const CallOutcomeSchema = z.enum(['ok', 'error', 'cancelled']);
export type CallOutcome = z.infer<typeof CallOutcomeSchema>;

/**
 * Whether the browser is there, as everything shows it (the status bar, the panel's badge and placeholder):
 * worked out once in the host (core/supervision/browserHealth.ts) from the server's state and its browser's.
 */
export const HealthStateSchema = z.enum(['notStarted', 'starting', 'restarting', 'ready', 'failed', 'stopped']);
export type HealthState = z.infer<typeof HealthStateSchema>;
export const BrowserHealthSchema = z.object({
  state: HealthStateSchema,
  /** As the status bar and the panel's badge say it ("Ready", "Failed to start"). */
  label: z.string(),
  /** Why it is so, for people: a failure's message with its fix, or why the server stopped. */
  detail: z.string().optional(),
  /** What failed: the browser's launch, or the bridge's own browser server. */
  failed: z.enum(['browser', 'server']).optional(),
  /** The current server's browser; absent until it first launches. */
  browser: BrowserStateParamsSchema.shape.state.optional(),
});
export type BrowserHealth = z.infer<typeof BrowserHealthSchema>;

export const PanelStateSchema = z.object({
  health: BrowserHealthSchema,
  browser: z.string(),
  tabs: z.array(TabInfoSchema),
  paused: z.boolean(),
  /** Set when frames come from screenshots after changes instead of a stream. */
  frameSource: z.enum(['screencast', 'screenshot']).optional(),
  /** Who drives: the agent, or the person (Take control), whose agent calls then wait. */
  driver: z.enum(['agent', 'person']),
  /** A page is paused in a debugger on the managed CDP endpoint (VS Code's or the person's DevTools). */
  debuggerPaused: z.boolean().optional(),
  /** The sessions there are to watch (isolation `perClient`), and which one the panel shows. */
  sessions: z.array(z.object({ id: z.string(), label: z.string() })),
  watching: z.string(),
  /** The Network pane's controls: throttling and Disable cache (applied in the browser), Preserve log (the list's own). */
  network: EmulationSchema.extend({ preserveLog: z.boolean() }),
  /** The Console pane's Preserve log: on, a navigation adds a "Navigated to" line instead of starting the list again. */
  console: z.object({ preserveLog: z.boolean() }),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

/** A console message as the panel lists it (what the child saw, numbered by the store). */
export const ConsoleRowSchema = ConsoleEntrySchema.omit({ pageId: true }).extend({ seq: z.number() });
export type ConsoleRow = z.infer<typeof ConsoleRowSchema>;

/** A request as the panel lists it; updated in place when it finishes. */
export const NetworkRowSchema = NetworkEntrySchema.omit({ pageId: true }).extend({ seq: z.number() });
export type NetworkRow = z.infer<typeof NetworkRowSchema>;

export const ActivityRowSchema = z.object({
  seq: z.number(),
  id: z.number(),
  /** What the call does, with its key argument ("Opening http://…"). */
  title: z.string(),
  tool: z.string(),
  door: DoorSchema,
  startedAt: z.number(),
  durationMs: z.number().optional(),
  outcome: CallOutcomeSchema.optional(),
  error: z.string().optional(),
  /** A small JPEG of the image the result held, as a data: URL. */
  thumbnail: z.string().optional(),
  /** A performance trace's or an accessibility audit's card (the facts its answer was worded from, bounded). */
  card: DevtoolsCardSchema.optional(),
});
export type ActivityRow = z.infer<typeof ActivityRowSchema>;

/** A line between the entries of two browsers, after a restart. */
export const MarkerRowSchema = z.object({ seq: z.number(), marker: z.string(), time: z.number() });
export type MarkerRow = z.infer<typeof MarkerRowSchema>;

export const PanelLayoutSchema = z.object({
  /** The panel's width in CSS pixels. */
  width: z.number(),
  /** Controls in the toolbar and the visible filter row that are cut off or stick out of the panel. */
  cutControls: z.array(z.string()),
  /** Width of the visible filter box, in CSS pixels. */
  filterWidth: z.number(),
  /** The console level toggles sit on one line (none wraps alone). */
  levelsOnOneLine: z.boolean(),
  /** Width of the address field, in CSS pixels. */
  addressWidth: z.number(),
  /** Where an open request's details are: beside the list (the list in view), over it (in its place), or closed. */
  requestDetailPlace: z.enum(['closed', 'beside', 'over']),
  /** Width the details' title has to show the request, in CSS pixels (0: closed). */
  requestTitleWidth: z.number(),
  /** Empty space beside or above the drawn frame in its box, in CSS pixels (0 when it fills it). */
  frameBands: z.number(),
});
export type PanelLayout = z.infer<typeof PanelLayoutSchema>;

/** How a step of an exported test fared when Playwright Test ran it. */
export const ExportVerdictSchema = z.enum(['passed', 'failed', 'notReached']);
export type ExportVerdict = z.infer<typeof ExportVerdictSchema>;

/** The last export of the session as a Playwright test, as the Activity pane shows it. */
export const ExportStatusSchema = z.object({
  state: z.enum(['running', 'passed', 'failed', 'error']),
  /** One line: the file and how its runs went, or why there is none. */
  text: z.string(),
  /** The activity rows (call ids) that put lines in the test, and how each fared. */
  marks: z.array(z.object({ callId: z.number(), verdict: ExportVerdictSchema })),
});
export type ExportStatus = z.infer<typeof ExportStatusSchema>;

/** Time travel: a step of the timeline as it was, for the panel (Activity's scrub). */
export const StepViewSchema = z.object({
  index: z.number(),
  /** Steps this window has had (the newest one's index). */
  total: z.number(),
  /** When the step ended (ms since the epoch). */
  at: z.number(),
  tool: z.string(),
  title: z.string(),
  door: DoorSchema,
  url: z.string().optional(),
  pageTitle: z.string().optional(),
  /** The picture the panel showed right after it (JPEG, base64). */
  frame: z.object({ data: z.string(), width: z.number(), height: z.number() }).optional(),
  /** No picture was drawn between this step and the next: the one shown is this earlier step's. */
  frameFrom: z.number().optional(),
  snapshot: z.string().optional(),
  console: z.array(ConsoleRowSchema),
  network: z.array(NetworkRowSchema),
  /** "Continue from here" can put the browser back to it. */
  restorable: z.boolean(),
  /** Why it cannot, in words (a page whose storage was not kept, no page recorded, time travel off). */
  notRestorable: z.string().optional(),
  /** Older steps dropped to keep the budget. */
  dropped: z.number(),
});
export type StepView = z.infer<typeof StepViewSchema>;

/** What the webview reports of its own DOM when asked (`describe`): what a person would see. */
export const PanelReportSchema = z.object({
  frameDrawn: z.boolean(),
  frameSize: z.object({ width: z.number(), height: z.number() }).optional(),
  /** The page's CSS size the drawn picture shows (its frame says it), and the picture's box on screen. */
  pictureOf: z.object({ width: z.number(), height: z.number() }).optional(),
  pictureBox: z.object({ width: z.number(), height: z.number() }).optional(),
  consoleTexts: z.array(z.string()),
  networkUrls: z.array(z.string()),
  activityTitles: z.array(z.string()),
  /** The error line under each failed Activity row. */
  activityErrors: z.array(z.string()),
  /** Each DevTools card in Activity: its vitals with their ratings ("LCP1161 ms (good)"), then its lines. */
  activityCards: z.array(z.string()),
  header: z.string(),
  layout: PanelLayoutSchema,
  /** The Activity pane's export line, and each marked row as "verdict: title". */
  exportStatus: z.string(),
  exportMarks: z.array(z.string()),
  /** Time travel's banner while a past step is shown ("" when live), and the texts of its console lines. */
  stepBanner: z.string(),
  stepConsole: z.array(z.string()),
  /** The picture drawn is the step's, not the live page's. */
  stepFrameShown: z.boolean(),
  /** Steps of the list in view beside the details, the one shown among them (0: it is not). */
  stepsInView: z.number(),
  /** The Network pane's open request, as its detail pane reads ("" when none is open). */
  requestDetail: z.string(),
  /** What the header's size picker shows (the agent's current size). */
  sizeLabel: z.string(),
  /** The bridge's page for a failed load, as it reads ("" when none shows); the address bar's message for text that is not an address. */
  loadError: z.string(),
  addressMessage: z.string(),
  /** How many rows the header's controls take (the toolbar, the tabs and notes shown under it). */
  headerRows: z.number(),
});
export type PanelReport = z.infer<typeof PanelReportSchema>;

const rows = <T extends z.ZodTypeAny>(row: T) => z.array(z.union([row, MarkerRowSchema]));

export const HostToPanelSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    state: PanelStateSchema,
    console: rows(ConsoleRowSchema),
    network: rows(NetworkRowSchema),
    activity: rows(ActivityRowSchema),
  }),
  z.object({ type: z.literal('state'), state: PanelStateSchema }),
  z.object({ type: z.literal('console'), rows: rows(ConsoleRowSchema), dropBefore: z.number() }),
  z.object({ type: z.literal('network'), rows: rows(NetworkRowSchema), dropBefore: z.number() }),
  z.object({ type: z.literal('activity'), rows: rows(ActivityRowSchema), dropBefore: z.number() }),
  z.object({ type: z.literal('frame'), seq: z.number(), data: z.string(), width: z.number(), height: z.number(), producedAt: z.number() }),
  z.object({ type: z.literal('exportStatus'), status: ExportStatusSchema }),
  /** A request: the webview answers with a `report` of the same id. */
  z.object({ type: z.literal('describe'), id: z.number() }),
  /** Time travel: show this step as it was (null: back to live); `problem` when it cannot be shown or restored. */
  z.object({ type: z.literal('stepView'), view: StepViewSchema.nullable(), problem: z.string().optional() }),
  /** The answer to `openRequest`: the request's details, or why there are none. */
  z.object({
    type: z.literal('requestDetail'),
    id: z.string(),
    detail: RequestDetailSchema.optional(),
    problem: z.string().optional(),
    /** The answer to an `openRequest` asked ahead of a click. */
    ahead: z.literal(true).optional(),
  }),
]);
export type HostToPanel = z.infer<typeof HostToPanelSchema>;
export type FrameMessage = Extract<HostToPanel, { type: 'frame' }>;

/** The toolbar's commands. */
export const PanelCommandSchema = z.enum(['restart', 'start', 'togglePause', 'saveScreenshot', 'takeControl', 'handBack', 'addConsoleErrorsToChat', 'saveHar']);
export type PanelCommand = z.infer<typeof PanelCommandSchema>;

const size = z.number().min(0);

export const PanelToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** A trace's or an audit's card in Activity: open its trace file, or put its findings on the chat input (by the call's id: the host reads its own copy). */
  z.object({ type: z.literal('devtoolsCard'), callId: z.number(), action: z.enum(['openTrace', 'addToChat']) }),
  /** A card's Learn more or Rule docs: the host opens it only if that call's card holds this link. */
  z.object({ type: z.literal('devtoolsDocs'), callId: z.number(), url: z.string().max(2048) }),
  z.object({ type: z.literal('frameDrawn'), seq: z.number() }),
  z.object({ type: z.literal('resize'), width: size, height: size, devicePixelRatio: size }),
  z.object({ type: z.literal('command'), command: PanelCommandSchema }),
  /** The person's mouse and keyboard on the page's picture: positions as fractions of it. */
  z.object({ type: z.literal('input'), event: InputEventSchema }),
  /** The navigation bar and the tab strip. */
  z.object({ type: z.literal('pageAction'), pageAction: PageActionSchema }),
  /** Add to Chat: the element under the pointer is outlined (hover), then attached (choose). */
  z.object({ type: z.literal('pick'), pick: PickParamsSchema }),
  /** Show another session's browser (isolation `perClient`). */
  z.object({ type: z.literal('watchContext'), sessionId: z.string().min(1).max(200) }),
  /** Export as Playwright test: the activity rows the person selected (call ids), or none for every step. */
  z.object({ type: z.literal('exportTest'), callIds: z.array(z.number().int()).max(5000) }),
  /** Time travel: show the step listed as this activity row (null: back to live). */
  z.object({ type: z.literal('showStep'), callId: z.number().int().nullable() }),
  /** The step's picture and lists are drawn (for the scrub figure). */
  z.object({ type: z.literal('stepDrawn'), index: z.number().int() }),
  /** "Continue from here": the browser put back to this step. */
  z.object({ type: z.literal('restoreStep'), index: z.number().int().min(1) }),
  /** Save the session as a Playwright trace: every kept step, or the range of activity rows selected (call ids). */
  z.object({ type: z.literal('saveTrace'), callIds: z.array(z.number().int()).max(5000) }),
  /**
   * Network: the person opened this request (its details are fetched from the child now), with this much of each
   * body ("Show more" asks for more); `ahead`: not opened yet, the person's pointer rests on its row.
   */
  z.object({
    type: z.literal('openRequest'),
    id: z.string().min(1).max(32),
    bodyChars: z.number().int().min(1024).max(REQUEST_BODY_LIMIT),
    ahead: z.literal(true).optional(),
  }),
  /** Network: copy the request as cURL or fetch, or put it on the chat input. */
  z.object({ type: z.literal('requestAction'), id: z.string().min(1).max(32), action: z.enum(['copyCurl', 'copyFetch', 'addToChat']) }),
  /** Network: Clear the list, keep it across navigations (Preserve log), throttle or disable the cache (in the browser). */
  z.object({
    type: z.literal('networkControl'),
    control: z.union([
      z.object({ action: z.literal('clear') }),
      z.object({ action: z.literal('preserveLog'), on: z.boolean() }),
      z.object({ action: z.literal('conditions'), conditions: EmulationSchema }),
    ]),
  }),
  /** Console: Clear the list, keep it across navigations (Preserve log). */
  z.object({
    type: z.literal('consoleControl'),
    control: z.union([z.object({ action: z.literal('clear') }), z.object({ action: z.literal('preserveLog'), on: z.boolean() })]),
  }),
  /** The size picker's "Playwright device…": the host offers Playwright's devices. */
  z.object({ type: z.literal('pickDevice') }),
  /** The answer to the `describe` request with the same id. */
  z.object({ type: z.literal('report'), id: z.number(), report: PanelReportSchema }),
]);
export type PanelToHost = z.infer<typeof PanelToHostSchema>;

/** Accepts only well-formed messages from the webview; anything else is dropped. */
export function parsePanelMessage(value: unknown): PanelToHost | undefined {
  const parsed = PanelToHostSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
