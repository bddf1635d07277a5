/**
 * The tool registry: one record per tool the bridge publishes, upstream's and its own, with every trait
 * the bridge acts on. The policy (readonly), the file rules, the live stream, the export, the child's
 * checkpoints, the manifest generator and the tests read a tool's traits here and nowhere else: a new
 * upstream tool, or a new trait, is one edit of this file.
 *
 * Upstream's tools are the pinned @playwright/mcp's (`npm run generate:tools` writes them into package.json
 * with their capability groups and fails when a tool there has no record here, or a different group);
 * `test/unit/toolRegistry.test.ts` checks the records against that manifest and their schemas.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CapabilityId } from '../settings/capabilities';
import { CallArgs, elementOf, quote, short } from './callWords';
import type { OwnTool } from './defineOwnTool';
import { OWN_TOOLS, type OwnToolName } from './ownTools';
import { checkTabsArgs, writeTabs } from './browserTabs';
import { writeWaitFor } from './browserWaitFor';
import type { StepWriting } from './stepWriting';

/** Who answers a call: upstream's @playwright/mcp in the child, the child itself, or the extension host. */
export type ToolHandler = 'upstream' | 'child' | 'host';

/**
 * What Export as test makes of a step of the tool:
 * - `code`: its answer's code goes in (actions and checks, whose answers carry no text of the page's before it);
 * - `written`: the export writes it from its arguments, reading the answer only for where the page is;
 * - `reads`: left out, it only reads (`readsWhere`: the same, but its answer says where the page is);
 * - `own`: left out, the bridge's own tool;
 * - `comment`: a comment in the test saying what was measured or set there (a trace, an audit, emulation), no code;
 * - `none`: left out, not a step a test repeats (its answer may hold text the page chose).
 */
export type ExportAs = 'code' | 'written' | 'reads' | 'readsWhere' | 'own' | 'comment' | 'none';

export interface ToolRecord {
  name: string;
  handler: ToolHandler;
  /** The optional capability group that brings it (`playwrightBridge.capabilities.<id>`); absent: always there. */
  capability?: CapabilityId;
  /** It may change the page or the browser (upstream's own word: not `readOnlyHint`): a checkpoint follows it. */
  actsOnPage: boolean;
  /** It only looks (snapshot, screenshot, console, network, the tab list, waiting): readonly mode offers it. */
  observation: boolean;
  /** What it does with the file its `filename` names: writes it (the person is asked) or reads it. */
  filename?: 'writes' | 'reads';
  /** It hands the local files its `paths` name to the page. */
  readsPaths: boolean;
  /** It captures the page (a screenshot, a PDF): the live stream stays stopped for all of its run. */
  capture: boolean;
  /**
   * It changes the page's size: no still of the live view is taken across it (Chromium puts back the size a page had
   * when a capture began once the capture ends, so a still begun before the change would undo it).
   */
  resizesPage?: true;
  exportAs: ExportAs;
  /** What a call does, in one line for the person ("Clicking “Send” (e12)"); absent: its title and key argument. */
  says?: (args: CallArgs) => string;
  /**
   * It runs code the model wrote: the argument that holds it, and where it runs (the confirmation shows both);
   * `fileArgument`: it can run a file instead, named by that argument; `inBridgeProcess`: the code runs beside the
   * bridge's own state (the secrets' values), not inside a page.
   */
  runsCode?: { argument: string; where: string; fileArgument?: string; inBridgeProcess?: true };
  /** Where it types text: the argument values upstream types (a secret's name among them is typed as its value). */
  typesText?: (args: CallArgs) => { text: unknown; target: unknown }[];
  /** It presses a key or chord (the argument that names it): a clipboard chord is refused while secrets are set. */
  pressesKey?: string;
  /** It opens another address in the tab (a navigation): its answer says the address, no check is added in a test. */
  navigates?: true;
  /** It answers what the page opened (a dialog, a file chooser): an exported test writes it with the step that opened it. */
  answersModal?: 'dialog' | 'fileChooser';
  /** It reads the page's structure: its answer is a snapshot, the export's baseline for its final checks. */
  readsSnapshot?: true;
  /** Its export is `written`: how it writes its step into an exported test (browserWaitFor.ts, browserTabs.ts). */
  writesStep?: (step: StepWriting) => void;
  /** What of its arguments the bridge refuses beyond upstream's schema, in words (nothing runs); undefined: they may go on. */
  checksArgs?: (args: CallArgs) => string | undefined;
  /** The bridge's own tools: their definition as published (upstream's come from the child). */
  definition?: Tool;
  /**
   * The child answers it on the caller's own context and current tab, in upstream's place on the child's call
   * path (the DevTools tools), not before the session as the session tools.
   */
  onPage?: boolean;
}

type Traits = Omit<ToolRecord, 'name' | 'handler' | 'definition' | 'onPage'>;
type More = Partial<
  Pick<
    Traits,
    | 'capability'
    | 'observation'
    | 'filename'
    | 'readsPaths'
    | 'capture'
    | 'resizesPage'
    | 'says'
    | 'runsCode'
    | 'typesText'
    | 'pressesKey'
    | 'navigates'
    | 'answersModal'
    | 'readsSnapshot'
    | 'writesStep'
    | 'checksArgs'
  >
>;

const acts = (exportAs: ExportAs, more: More = {}): Traits => ({ actsOnPage: true, observation: false, readsPaths: false, capture: false, exportAs, ...more });
const reads = (exportAs: ExportAs, more: More = {}): Traits => ({
  actsOnPage: false,
  observation: false,
  readsPaths: false,
  capture: false,
  exportAs,
  ...more,
});

/** Upstream's tools, as the pinned @playwright/mcp publishes them with every capability group on. */
const UPSTREAM = {
  browser_navigate: acts('code', { navigates: true, says: a => `Opening ${short(a.url)}` }),
  browser_navigate_back: acts('code', { navigates: true, says: () => 'Going back to the previous page' }),
  browser_click: acts('code', { says: a => `${a.doubleClick ? 'Double-clicking' : 'Clicking'} ${elementOf(a)}` }),
  browser_type: acts('code', {
    typesText: a => [{ text: a.text, target: a.target }],
    says: a => `Typing ${quote(a.text)} into ${elementOf(a)}${a.submit ? ' and submitting' : ''}`,
  }),
  browser_press_key: acts('code', { pressesKey: 'key', says: a => `Pressing ${short(a.key)}` }),
  browser_hover: acts('code', { says: a => `Hovering over ${elementOf(a)}` }),
  browser_drag: acts('code'),
  browser_select_option: acts('code', {
    says: a => `Selecting ${Array.isArray(a.values) ? a.values.map(quote).join(', ') : quote(a.values)} in ${elementOf(a)}`,
  }),
  browser_fill_form: acts('code', {
    typesText: a =>
      (Array.isArray(a.fields) ? a.fields : []).map(field => {
        const { value, target } = (field ?? {}) as { value?: unknown; target?: unknown };
        return { text: value, target };
      }),
    says: a => {
      const count = Array.isArray(a.fields) ? a.fields.length : undefined;
      return `Filling ${count ?? 'the'} form field${count === 1 ? '' : 's'}`;
    },
  }),
  browser_resize: acts('code', { resizesPage: true }),
  browser_tabs: acts('written', {
    observation: true,
    writesStep: writeTabs,
    checksArgs: checkTabsArgs,
    says: a => `Tabs: ${short(a.action)}${a.index !== undefined ? ` #${a.index}` : ''}${a.url ? ` ${short(a.url)}` : ''}`,
  }),
  browser_handle_dialog: acts('written', { answersModal: 'dialog' }),
  browser_file_upload: acts('written', { readsPaths: true, answersModal: 'fileChooser' }),
  browser_drop: acts('none', { readsPaths: true }),
  browser_close: acts('none', { says: () => 'Closing the browser' }),
  browser_evaluate: acts('none', { filename: 'writes', runsCode: { argument: 'function', where: 'inside the page' } }),
  browser_run_code_unsafe: acts('none', {
    filename: 'reads',
    runsCode: {
      argument: 'code',
      where: 'in the browser bridge process with full Playwright access (it can read and write files and run programs)',
      fileArgument: 'filename',
      inBridgeProcess: true,
    },
  }),
  browser_emulate_media: acts('none'),
  browser_snapshot: reads('readsWhere', { observation: true, filename: 'writes', readsSnapshot: true, says: () => 'Reading the page structure' }),
  browser_take_screenshot: reads('reads', {
    observation: true,
    filename: 'writes',
    capture: true,
    says: a => `Taking a screenshot${elementOf(a) !== 'the page' ? ` of ${elementOf(a)}` : a.fullPage ? ' of the full page' : ''}`,
  }),
  browser_console_messages: reads('reads', { observation: true, filename: 'writes', says: () => 'Reading console messages' }),
  browser_network_requests: reads('reads', { observation: true, filename: 'writes', says: () => 'Reading network requests' }),
  browser_network_request: reads('reads', { observation: true, filename: 'writes' }),
  browser_wait_for: reads('written', {
    observation: true,
    writesStep: writeWaitFor,
    says: a => (a.text ? `Waiting for ${quote(a.text)}` : a.textGone ? `Waiting for ${quote(a.textGone)} to disappear` : `Waiting ${short(a.time)} s`),
  }),
  browser_find: reads('none', { filename: 'writes' }),
  browser_mouse_click_xy: acts('code', { capability: 'vision' }),
  browser_mouse_down: acts('code', { capability: 'vision' }),
  browser_mouse_up: acts('code', { capability: 'vision' }),
  browser_mouse_move_xy: acts('code', { capability: 'vision' }),
  browser_mouse_drag_xy: acts('code', { capability: 'vision' }),
  browser_mouse_wheel: acts('code', { capability: 'vision' }),
  browser_pdf_save: reads('reads', { capability: 'pdf', filename: 'writes', capture: true }),
  browser_highlight: reads('none', { capability: 'devtools' }),
  browser_hide_highlight: reads('none', { capability: 'devtools' }),
  browser_annotate: reads('none', { capability: 'devtools' }),
  browser_resume: acts('none', { capability: 'devtools' }),
  browser_start_tracing: reads('reads', { capability: 'devtools' }),
  browser_stop_tracing: reads('reads', { capability: 'devtools' }),
  browser_start_recording: reads('reads', { capability: 'devtools' }),
  browser_stop_recording: reads('reads', { capability: 'devtools' }),
  browser_start_video: reads('reads', { capability: 'devtools', filename: 'writes' }),
  browser_stop_video: reads('reads', { capability: 'devtools' }),
  browser_video_chapter: reads('reads', { capability: 'devtools' }),
  browser_video_show_actions: reads('none', { capability: 'devtools' }),
  browser_video_hide_actions: reads('none', { capability: 'devtools' }),
  browser_cookie_list: reads('reads', { capability: 'storage' }),
  browser_cookie_get: reads('reads', { capability: 'storage' }),
  browser_cookie_set: acts('none', { capability: 'storage' }),
  browser_cookie_delete: acts('none', { capability: 'storage' }),
  browser_cookie_clear: acts('none', { capability: 'storage' }),
  browser_localstorage_list: reads('reads', { capability: 'storage' }),
  browser_localstorage_get: reads('reads', { capability: 'storage' }),
  browser_localstorage_set: acts('none', { capability: 'storage' }),
  browser_localstorage_delete: acts('none', { capability: 'storage' }),
  browser_localstorage_clear: acts('none', { capability: 'storage' }),
  browser_sessionstorage_list: reads('reads', { capability: 'storage' }),
  browser_sessionstorage_get: reads('reads', { capability: 'storage' }),
  browser_sessionstorage_set: acts('none', { capability: 'storage' }),
  browser_sessionstorage_delete: acts('none', { capability: 'storage' }),
  browser_sessionstorage_clear: acts('none', { capability: 'storage' }),
  browser_storage_state: reads('reads', { capability: 'storage', filename: 'writes' }),
  browser_set_storage_state: acts('none', { capability: 'storage', filename: 'reads' }),
  browser_route: acts('none', { capability: 'network' }),
  browser_unroute: acts('none', { capability: 'network' }),
  browser_route_list: reads('none', { capability: 'network' }),
  browser_network_state_set: acts('none', { capability: 'network' }),
  browser_generate_locator: reads('reads', { capability: 'testing' }),
  browser_verify_element_visible: reads('code', { capability: 'testing' }),
  browser_verify_list_visible: reads('code', { capability: 'testing' }),
  browser_verify_text_visible: reads('code', { capability: 'testing' }),
  browser_verify_value: reads('code', { capability: 'testing' }),
  browser_get_config: reads('reads', { capability: 'config' }),
} as const satisfies Record<string, Traits>;

/** The name of a tool the bridge publishes: upstream's and its own. A misspelt name does not compile. */
export type ToolName = keyof typeof UPSTREAM | OwnToolName;

export const TOOL_RECORDS: readonly ToolRecord[] = [
  ...Object.entries(UPSTREAM).map(([name, traits]): ToolRecord => ({ name, handler: 'upstream', ...traits })),
  ...OWN_TOOLS.map((tool: OwnTool): ToolRecord => ({
    name: tool.name,
    ...tool.traits,
    readsPaths: false,
    capture: false,
    definition: tool.definition,
    ...(tool.says ? { says: tool.says } : {}),
  })),
];

const BY_NAME = new Map(TOOL_RECORDS.map(record => [record.name, record]));

/** The record of a tool, or undefined for a tool the bridge does not know (a page's own WebMCP tool, say). */
export function toolRecord(name: string): ToolRecord | undefined {
  return BY_NAME.get(name);
}

/** Whether a name (a call's, which any client writes) is one of the bridge's tools. */
export function isToolName(name: string): name is ToolName {
  return BY_NAME.has(name);
}

/** The definitions of the tools one handler of the bridge's own answers. */
export function ownToolDefinitions(handler: Exclude<ToolHandler, 'upstream'>): Tool[] {
  return TOOL_RECORDS.filter(record => record.handler === handler).map(record => record.definition!);
}

/** True for a tool the extension host answers itself (not the child). */
export function isHostTool(name: string): boolean {
  return toolRecord(name)?.handler === 'host';
}

/** True for a tool the child answers itself before any session (its session tools). */
export function isChildTool(name: string): boolean {
  const record = toolRecord(name);
  return record?.handler === 'child' && !record.onPage;
}

/** True for a tool the child answers on the caller's page in upstream's place (the DevTools tools). */
export function isChildPageTool(name: string): boolean {
  return toolRecord(name)?.onPage === true;
}
