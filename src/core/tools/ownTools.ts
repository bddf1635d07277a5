/**
 * The definitions of the bridge's own tools, as published beside upstream's: the child's session tools
 * (isolation `perClient`) and the ones the extension host answers itself (Export as test, time travel).
 * Their traits and handler are their records in `toolRegistry.ts`; the manifest generator declares them
 * in package.json with the child's.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export const EXPORT_TEST_TOOL = 'bridge_export_test';
/** Time travel: the browser put back to an earlier step (also the name of that step in the Activity list). */
export const RESTORE_STEP_TOOL = 'bridge_restore_step';

export const SESSION_LIST_TOOL = 'bridge_session_list';
/** The DevTools tools: the child answers them on the caller's current tab (child/devtools/). */
export const PERFORMANCE_TRACE_TOOL = 'bridge_performance_trace';
export const ACCESSIBILITY_AUDIT_TOOL = 'bridge_accessibility_audit';
export const EMULATE_TOOL = 'bridge_emulate';
export const SESSION_CLOSE_TOOL = 'bridge_session_close';

export const OWN_TOOL_DEFINITIONS: readonly Tool[] = [
  {
    name: PERFORMANCE_TRACE_TOOL,
    title: 'Record a performance trace',
    description: 'Playwright Bridge: records a Chrome DevTools performance trace of the current tab while something happens, and answers ' +
      'with its Core Web Vitals (LCP with its phases and element, CLS with the shifts\' culprits, INP when there was an interaction) and ' +
      'DevTools\' insights (render-blocking requests, LCP request discovery, document latency, forced reflow, third parties, …), each with ' +
      'what to change. during: "reload" (default: reloads the current page from a blank tab), "navigate" (opens url), "nextCall" (measures ' +
      'your next browser call, such as a click, for INP: its answer carries the trace), or "seconds". The whole trace is saved in the output ' +
      'folder and opens in Chrome DevTools\' Performance panel. Chromium only.',
    inputSchema: {
      type: 'object',
      properties: {
        during: { type: 'string', enum: ['reload', 'navigate', 'nextCall', 'seconds'], description: 'What to record. Default: reload.' },
        url: { type: 'string', description: 'For "navigate": the address to open while recording.' },
        seconds: { type: 'number', minimum: 1, maximum: 60, description: 'For "seconds": how long to record (default 5).' },
        filename: { type: 'string', description: 'File name for the trace (.json) in the output folder. Default: trace-<time>.json.' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Record a performance trace', readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
  {
    name: ACCESSIBILITY_AUDIT_TOOL,
    title: 'Audit accessibility',
    description: 'Playwright Bridge: audits the current tab (or one element of it, by its snapshot ref) for accessibility with axe-core, ' +
      'and answers with the violations by impact: each rule, the elements that fail it with their snapshot refs (act on them with the ' +
      'other tools), and how to fix each. axe runs in a world of its own that the page cannot see or change. The main frame only.',
    inputSchema: {
      type: 'object',
      properties: {
        ref: { type: 'string', description: 'Audit only this element and what is inside it: its ref from the page snapshot. Default: the whole page.' },
        element: { type: 'string', description: 'What the element is, in words (for the person).' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Audit accessibility', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  {
    name: EMULATE_TOOL,
    title: 'Emulate network, CPU and media',
    description: 'Playwright Bridge: makes the browser of this session emulate a slower network (offline, DevTools\' slow or fast 4G, or ' +
      'your own figures), a slower CPU (4 or 6 times, as DevTools offers), a colour scheme or reduced motion, until changed, reset, or the ' +
      'session ends. A field you leave out keeps its value; "none" turns one off; reset: true turns them all off. The person sees what is ' +
      'on in the panel. Network and CPU: Chromium only.',
    inputSchema: {
      type: 'object',
      properties: {
        network: { type: 'string', enum: ['none', 'offline', 'slow4g', 'fast4g', 'custom'], description: 'Network throttling.' },
        downloadKbps: { type: 'number', exclusiveMinimum: 0, description: 'For network "custom": download speed in kbit/s.' },
        uploadKbps: { type: 'number', exclusiveMinimum: 0, description: 'For network "custom": upload speed in kbit/s.' },
        latencyMs: { type: 'number', minimum: 0, description: 'For network "custom": added round-trip time in ms.' },
        cpuSlowdown: { type: 'number', minimum: 1, maximum: 20, description: 'How many times slower the CPU runs (1: no slowdown; DevTools offers 4 and 6).' },
        colorScheme: { type: 'string', enum: ['light', 'dark', 'no-preference', 'none'], description: 'prefers-color-scheme; none: the browser\'s own.' },
        reducedMotion: { type: 'string', enum: ['reduce', 'no-preference', 'none'], description: 'prefers-reduced-motion; none: the browser\'s own.' },
        reset: { type: 'boolean', description: 'Turn every emulation off first.' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Emulate network, CPU and media', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  {
    name: SESSION_LIST_TOOL,
    title: 'List browser sessions',
    description: 'Playwright Bridge: lists the browser sessions. With isolation "perClient" each MCP client has its own browser context ' +
      '(cookies, storage, tabs); chat\'s tools use the window\'s. An MCP client sees its own session (id, tabs, idle time) and only a count ' +
      'of the others; chat\'s tools see every session.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'List browser sessions', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  {
    name: SESSION_CLOSE_TOOL,
    title: 'Close a browser session',
    description: 'Playwright Bridge: closes a browser context of isolation "perClient" (its cookies, storage and tabs are gone; its next call ' +
      'starts a fresh one). An MCP client closes only its own session; chat\'s tools may close any client\'s. Takes the id from ' +
      'bridge_session_list, or its first 8 characters. The window\'s session is closed with browser_close instead.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The session id from bridge_session_list (at least its first 8 characters).' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { title: 'Close a browser session', readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
  {
    name: EXPORT_TEST_TOOL,
    description: 'Playwright Bridge: writes what was done in the browser in this window (every successful action since the browser ' +
      'started, or the last N steps) as a Playwright test file in the workspace, opens it, and runs it headless 3 times with Playwright ' +
      'Test (no model, no bridge: plain Playwright). Answers whether it passed and, if not, the first failing line and step. Reads ' +
      '(snapshots, screenshots, console, network), failed calls and the bridge\'s own tools leave nothing; secrets stay ' +
      "process.env['NAME']. A test that fails is kept as *.failing.spec.ts, never under a passing name. The person confirms first.",
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'The test\'s title (also its file name when file is not given).' },
        file: { type: 'string', description: 'Where to write it, relative to the workspace folder, ending in .spec.ts. Default: tests/<title>.spec.ts. An existing file is never replaced.' },
        lastSteps: { type: 'integer', minimum: 1, description: 'Only the last N steps of the session (all of them when not given).' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Export the browser session as a Playwright test' },
  },
  {
    name: RESTORE_STEP_TOOL,
    description: 'Playwright Bridge: puts this window\'s browser back to how it was right after an earlier step, to undo your own last ' +
      'steps or try again from there: cookies, local and session storage and IndexedDB as they were then, and one fresh tab at that ' +
      'step\'s address and size (other tabs close). Not restored: the page\'s in-memory state (it loads again), the tab\'s back/forward ' +
      'history, and anything the server stored. Give `step` (a step number as the panel\'s Activity lists them) or `stepsBack` (1 = ' +
      'before your last step). Take a new snapshot afterwards: earlier element refs are gone. The person confirms first.',
    inputSchema: {
      type: 'object',
      properties: {
        step: { type: 'integer', minimum: 1, description: 'Go back to how the browser was right after this step.' },
        stepsBack: { type: 'integer', minimum: 1, description: 'Undo this many of the last steps (1: back to before the last step).' },
      },
      additionalProperties: false,
    },
    annotations: { title: 'Put the browser back to an earlier step' },
  },
];
