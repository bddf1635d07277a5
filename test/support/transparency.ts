/**
 * The transparency scenario: the same scripted calls against bare @playwright/mcp (its own stdio
 * server) and through the bridge, step by step, results compared after normalizing only what
 * the "Differences from upstream" table in src/README.md names, plus what is nondeterministic in bare itself
 * (learned by running bare against bare). Used by test/real/transparency.test.ts and npm run bench.
 */
import { ShownCodeFiles } from '../../src/core/tools/codeFromFile';
import { toolRecord } from '../../src/core/tools/toolRegistry';
import * as fs from 'fs';
import * as path from 'path';
import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';
import { stripAnsi } from '../../src/core/results/ansi';
import { BridgeSettings, readSettings } from '../../src/core/settings/settings';
import { ORIGIN_RULES_NOTE } from '../../src/protocol/callMarks';
import { connectMcpClient, makeRealBridge, refOf } from './realBridge';
import { startBareUpstream } from './bareUpstream';

/** Rows of the "Differences from upstream" table in src/README.md that a normalization here stands for (test/unit/readmeSettings.test.ts checks each has its row). */
export const TABLE_ROW_NAMES = [
  'output folder and absolute paths',
  'relative names',
  'read-only hints',
  'descriptions of filename',
  "the bridge's own tools",
  'refused unknown arguments',
  'terminal colours stripped',
  'browser_get_config',
  'downscaled images',
  'notes added to results',
] as const;
export type TableRow = (typeof TABLE_ROW_NAMES)[number];

/** Not a difference at all: what changes between two runs of bare upstream itself. */
export type Nondeterminism = 'timestamps in file names' | 'temp folder names';

export interface TransparencyStep {
  group: string;
  name: string;
  /** A tool to call, or `tools/list` to compare the published tool lists. */
  tool: string;
  args?: (ctx: StepContext) => Record<string, unknown>;
  /** Through the bridge: the supervisor as the language-model tools call it (default) or the MCP door. */
  door?: 'tool' | 'mcp';
  /** Puts what the step reads in place, on each side, given the folder that side resolves relative names against. */
  prepare?: (relativeRoot: string) => void;
  /** A difference the table names, which no text normalization can remove: the bridge's answer must match this. */
  bridgeAnswers?: { row: TableRow; text: RegExp };
}

/** What a step's arguments may depend on: the page server, and this side's own last snapshot (for refs). */
export interface StepContext {
  url: string;
  snapshot: string;
}

type Caller = (name: string, args: Record<string, unknown>, door: 'tool' | 'mcp') => Promise<CallToolResult>;

interface Side {
  label: string;
  call: Caller;
  listTools(): Promise<Tool[]>;
  /** Where automatically named files go, and the folder relative names resolve against. */
  outputDir: string;
  relativeRoot: string;
  close(): Promise<void>;
}

const CAPS = ALL_CAPABILITIES.join(',');

/** Bare @playwright/mcp with the options that match the bridge's settings below (`packageFolder`: see startBareUpstream). */
export async function openBare(label = 'bare', extraArgs: string[] = [], packageFolder?: string): Promise<Side> {
  const bare = await startBareUpstream(
    [
      '--caps',
      CAPS,
      '--viewport-size',
      '1280x720',
      '--console-level',
      'info',
      '--image-responses',
      'allow',
      '--snapshot-mode',
      'full',
      '--timeout-action',
      '5000',
      '--timeout-navigation',
      '60000',
      ...extraArgs,
    ],
    'transparency',
    packageFolder,
  );
  return {
    label,
    call: (name, args) => bare.call(name, args),
    listTools: async () => (await bare.client.listTools()).tools,
    outputDir: bare.outputDir,
    relativeRoot: bare.workspace,
    close: bare.close,
  };
}

/** The bridge with the settings bare gets as options: both doors, one browser. */
export async function openBridge(settings: Partial<BridgeSettings> = {}): Promise<Side> {
  const bridge = makeRealBridge({ capabilities: [...ALL_CAPABILITIES], ...settings });
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
  const address = await endpoint.start();
  const client = await connectMcpClient(address, 'transparency');
  // As chat's tool does: a code file is shown in the confirmation (prepareInvocation), then exactly that text runs.
  const shownCode = new ShownCodeFiles();
  const outputDir = bridge.config.mcp.outputDir;
  const codeShown = (filename: string) => {
    shownCode.show(filename, [outputDir]);
    return shownCode.take(filename, [outputDir]);
  };
  return {
    label: 'bridge',
    call: async (name, args, door) =>
      door === 'mcp'
        ? ((await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 })) as CallToolResult)
        : bridge.supervisor.callTool(name, args, { door: 'tool', codeShown }),
    listTools: async () => (await client.listTools()).tools,
    outputDir: bridge.config.mcp.outputDir,
    relativeRoot: bridge.config.mcp.outputDir,
    close: async () => {
      await client.close().catch(() => undefined);
      await endpoint.dispose();
      await bridge.dispose();
    },
  };
}

const textbox = /textbox "Your name"/;
const greet = /button "Greet"/;

/** One scripted session per capability group; each starts from a fresh browser (browser_close ends the one before). */
export function transparencySteps(): TransparencyStep[] {
  const steps: TransparencyStep[] = [];
  const group = (name: string, list: Omit<TransparencyStep, 'group'>[]) => {
    steps.push(...list.map(step => ({ ...step, group: name })));
    steps.push({ group: name, name: 'close', tool: 'browser_close' });
  };
  group('core', [
    { name: 'tools/list', tool: 'tools/list' },
    { name: 'navigate home', tool: 'browser_navigate', args: c => ({ url: `${c.url}/calm` }) },
    { name: 'snapshot', tool: 'browser_snapshot' },
    { name: 'type name', tool: 'browser_type', args: c => ({ target: refOf(c.snapshot, textbox), element: 'Your name', text: 'Ada' }) },
    { name: 'click greet (MCP door)', tool: 'browser_click', door: 'mcp', args: c => ({ target: refOf(c.snapshot, greet), element: 'Greet' }) },
    { name: 'console', tool: 'browser_console_messages' },
    { name: 'network', tool: 'browser_network_requests' },
    { name: 'one request', tool: 'browser_network_request', args: () => ({ index: 1, part: 'response-body' }) },
    { name: 'find text', tool: 'browser_find', args: () => ({ text: 'Ada' }) },
    { name: 'find text, one result (0.0.86)', tool: 'browser_find', args: () => ({ text: 'Ada', maxResults: 1 }) },
    { name: 'network since the session began (0.0.86)', tool: 'browser_network_requests', args: () => ({ all: true }) },
    { name: 'run code', tool: 'browser_run_code_unsafe', args: () => ({ code: 'async (page) => await page.title()' }) },
    {
      name: 'run code from a relative file',
      tool: 'browser_run_code_unsafe',
      args: () => ({ filename: 'code.js' }),
      prepare: root => fs.writeFileSync(path.join(root, 'code.js'), 'async (page) => await page.url()'),
    },
    { name: 'emulate dark scheme', tool: 'browser_emulate_media', args: () => ({ colorScheme: 'dark' }) },
    { name: 'evaluate navigator.webdriver', tool: 'browser_evaluate', args: () => ({ function: '() => navigator.webdriver' }) },
    { name: 'press key', tool: 'browser_press_key', args: () => ({ key: 'Tab' }) },
    { name: 'hover greet', tool: 'browser_hover', args: c => ({ target: refOf(c.snapshot, greet), element: 'Greet' }) },
    { name: 'screenshot png', tool: 'browser_take_screenshot' },
    { name: 'screenshot jpeg (MCP door)', tool: 'browser_take_screenshot', door: 'mcp', args: () => ({ type: 'jpeg' }) },
    { name: 'screenshot webp', tool: 'browser_take_screenshot', args: () => ({ type: 'webp' }) },
    { name: 'screenshot to a relative name', tool: 'browser_take_screenshot', args: () => ({ filename: 'shot.png' }) },
    { name: 'snapshot to a relative name', tool: 'browser_snapshot', args: () => ({ filename: 'snap.md' }) },
    { name: 'open a tall page', tool: 'browser_navigate', args: c => ({ url: `${c.url}/tall` }) },
    { name: 'full-page screenshot of it', tool: 'browser_take_screenshot', args: () => ({ fullPage: true }) },
    { name: 'open the form', tool: 'browser_navigate', args: c => ({ url: `${c.url}/form` }) },
    { name: 'snapshot of the form', tool: 'browser_snapshot' },
    {
      name: 'fill form',
      tool: 'browser_fill_form',
      args: c => ({ fields: [{ name: 'Name', type: 'textbox', target: refOf(c.snapshot, /textbox "Name"/), value: 'Grace' }] }),
    },
    { name: 'sign', tool: 'browser_click', args: c => ({ target: refOf(c.snapshot, /button "Sign"/), element: 'Sign' }) },
    { name: 'wait for text', tool: 'browser_wait_for', args: () => ({ text: 'Thanks, Grace!' }) },
    { name: 'back', tool: 'browser_navigate_back' },
    { name: 'tabs list', tool: 'browser_tabs', args: () => ({ action: 'list' }) },
    { name: 'new tab', tool: 'browser_tabs', args: () => ({ action: 'new' }) },
    { name: 'select first tab', tool: 'browser_tabs', args: () => ({ action: 'select', index: 0 }) },
    { name: 'close second tab', tool: 'browser_tabs', args: () => ({ action: 'close', index: 1 }) },
    // A named context (0.0.86): its own cookies and storage; the tab list names it.
    { name: 'new tab in a named context', tool: 'browser_tabs', args: c => ({ action: 'new', url: `${c.url}/second`, isolatedContext: 'alice' }) },
    { name: 'tabs list with it', tool: 'browser_tabs', args: () => ({ action: 'list' }) },
    { name: 'wait for either text, with a timeout (0.0.86)', tool: 'browser_wait_for', args: () => ({ text: 'You made it.', textGone: 'Nowhere', time: 5 }) },
    { name: 'close the named tab', tool: 'browser_tabs', args: () => ({ action: 'close', index: 1 }) },
    { name: 'resize', tool: 'browser_resize', args: () => ({ width: 800, height: 600 }) },
    { name: 'open the widgets', tool: 'browser_navigate', args: c => ({ url: `${c.url}/widgets` }) },
    { name: 'snapshot of the widgets', tool: 'browser_snapshot' },
    {
      name: 'select an option',
      tool: 'browser_select_option',
      args: c => ({ target: refOf(c.snapshot, /combobox "Colour"/), element: 'Colour', values: ['green'] }),
    },
    { name: 'click what opens a dialog', tool: 'browser_click', args: c => ({ target: refOf(c.snapshot, /button "Ask"/), element: 'Ask' }) },
    { name: 'accept the dialog', tool: 'browser_handle_dialog', args: () => ({ accept: true }) },
    {
      name: 'click the file input',
      tool: 'browser_click',
      args: c => ({ target: refOf(c.snapshot, /button "Attachment"|"Attachment"/), element: 'Attachment' }),
    },
    {
      name: 'upload a relative name',
      tool: 'browser_file_upload',
      args: () => ({ paths: ['upload.txt'] }),
      prepare: root => fs.writeFileSync(path.join(root, 'upload.txt'), 'uploaded'),
    },
    { name: 'drop a relative name', tool: 'browser_drop', args: c => ({ target: refOf(c.snapshot, /Drop here/), paths: ['upload.txt'] }) },
    {
      name: 'drag the card onto the zone',
      tool: 'browser_drag',
      args: c => ({ startTarget: refOf(c.snapshot, /Card/), startElement: 'Card', endTarget: refOf(c.snapshot, /dropped|Drop here/), endElement: 'zone' }),
    },
    {
      name: 'unknown argument',
      tool: 'browser_snapshot',
      args: () => ({ depth_limit: 2 }),
      bridgeAnswers: { row: 'refused unknown arguments', text: /^browser_snapshot does not take the argument "depth_limit"\. It takes: .*Nothing ran\.$/ },
    },
  ]);
  group('vision', [
    { name: 'navigate counter', tool: 'browser_navigate', args: c => ({ url: `${c.url}/counter` }) },
    { name: 'mouse move', tool: 'browser_mouse_move_xy', args: () => ({ x: 40, y: 80 }) },
    { name: 'mouse click', tool: 'browser_mouse_click_xy', args: () => ({ x: 40, y: 80 }) },
    { name: 'mouse down', tool: 'browser_mouse_down' },
    { name: 'mouse up', tool: 'browser_mouse_up' },
    { name: 'mouse drag', tool: 'browser_mouse_drag_xy', args: () => ({ startX: 10, startY: 10, endX: 60, endY: 30 }) },
    { name: 'mouse wheel', tool: 'browser_mouse_wheel', args: () => ({ deltaX: 0, deltaY: 100 }) },
  ]);
  group('pdf', [
    { name: 'navigate second', tool: 'browser_navigate', args: c => ({ url: `${c.url}/second` }) },
    { name: 'pdf', tool: 'browser_pdf_save' },
    { name: 'pdf to a relative name', tool: 'browser_pdf_save', args: () => ({ filename: 'page.pdf' }) },
  ]);
  // Video needs Playwright's own ffmpeg build, which this machine does not have (upstream fails the same way): not scripted.
  group('devtools', [
    { name: 'navigate home', tool: 'browser_navigate', args: c => ({ url: `${c.url}/calm` }) },
    { name: 'snapshot', tool: 'browser_snapshot' },
    { name: 'locator', tool: 'browser_generate_locator', args: c => ({ target: refOf(c.snapshot, greet), element: 'Greet' }) },
    { name: 'highlight', tool: 'browser_highlight', args: c => ({ target: refOf(c.snapshot, greet), element: 'Greet' }) },
    { name: 'hide highlight', tool: 'browser_hide_highlight', args: c => ({ target: refOf(c.snapshot, greet), element: 'Greet' }) },
    { name: 'start tracing', tool: 'browser_start_tracing' },
    { name: 'navigate second', tool: 'browser_navigate', args: c => ({ url: `${c.url}/second` }) },
    { name: 'stop tracing', tool: 'browser_stop_tracing' },
  ]);
  group('storage', [
    { name: 'navigate account', tool: 'browser_navigate', args: c => ({ url: `${c.url}/session-login?sid=abc` }) },
    { name: 'cookie list', tool: 'browser_cookie_list' },
    { name: 'cookie set', tool: 'browser_cookie_set', args: () => ({ name: 'extra', value: '1', domain: '127.0.0.1', path: '/' }) },
    { name: 'local storage set', tool: 'browser_localstorage_set', args: () => ({ key: 'k', value: 'v' }) },
    { name: 'local storage list', tool: 'browser_localstorage_list' },
    { name: 'cookie get', tool: 'browser_cookie_get', args: () => ({ name: 'sid' }) },
    { name: 'cookie delete', tool: 'browser_cookie_delete', args: () => ({ name: 'extra' }) },
    { name: 'cookie delete on a domain and path (0.0.86)', tool: 'browser_cookie_delete', args: () => ({ name: 'sid', domain: '127.0.0.1', path: '/' }) },
    { name: 'local storage get', tool: 'browser_localstorage_get', args: () => ({ key: 'k' }) },
    { name: 'local storage delete', tool: 'browser_localstorage_delete', args: () => ({ key: 'k' }) },
    { name: 'session storage set', tool: 'browser_sessionstorage_set', args: () => ({ key: 's', value: 'w' }) },
    { name: 'session storage get', tool: 'browser_sessionstorage_get', args: () => ({ key: 's' }) },
    { name: 'session storage list', tool: 'browser_sessionstorage_list' },
    { name: 'session storage delete', tool: 'browser_sessionstorage_delete', args: () => ({ key: 's' }) },
    { name: 'session storage clear', tool: 'browser_sessionstorage_clear' },
    { name: 'local storage clear', tool: 'browser_localstorage_clear' },
    { name: 'storage state to a relative name', tool: 'browser_storage_state', args: () => ({ filename: 'rt.json' }) },
    { name: 'set storage state from it', tool: 'browser_set_storage_state', args: () => ({ filename: 'rt.json' }) },
    { name: 'cookie clear', tool: 'browser_cookie_clear' },
  ]);
  group('network', [
    { name: 'go offline', tool: 'browser_network_state_set', args: () => ({ state: 'offline' }) },
    { name: 'go online', tool: 'browser_network_state_set', args: () => ({ state: 'online' }) },
    { name: 'route', tool: 'browser_route', args: () => ({ pattern: '**/api/data', body: '{"items":[1]}', contentType: 'application/json' }) },
    { name: 'route list', tool: 'browser_route_list' },
    { name: 'navigate second', tool: 'browser_navigate', args: c => ({ url: `${c.url}/second` }) },
    { name: 'fetch the routed address', tool: 'browser_evaluate', args: () => ({ function: 'async () => (await fetch("/api/data")).text()' }) },
    { name: 'unroute', tool: 'browser_unroute', args: () => ({ pattern: '**/api/data' }) },
  ]);
  group('testing', [
    { name: 'navigate second', tool: 'browser_navigate', args: c => ({ url: `${c.url}/second` }) },
    { name: 'verify text', tool: 'browser_verify_text_visible', args: () => ({ text: 'You made it.' }) },
    { name: 'verify element', tool: 'browser_verify_element_visible', args: () => ({ role: 'heading', accessibleName: 'Second page' }) },
    { name: 'open home', tool: 'browser_navigate', args: c => ({ url: `${c.url}/calm` }) },
    { name: 'snapshot', tool: 'browser_snapshot' },
    {
      name: 'verify value',
      tool: 'browser_verify_value',
      args: c => ({ type: 'textbox', element: 'Your name', target: refOf(c.snapshot, textbox), value: '' }),
    },
    { name: 'verify text fails', tool: 'browser_verify_text_visible', args: () => ({ text: 'Not on this page' }) },
    { name: 'verify missing element', tool: 'browser_verify_element_visible', args: () => ({ role: 'button', accessibleName: 'Nowhere' }) },
  ]);
  group('config', [{ name: 'get config', tool: 'browser_get_config' }]);
  return steps;
}

/**
 * Origin rules, as a person writes them in settings (read by the settings reader, as in VS Code):
 * upstream takes a host name as an origin. A browser of their own on each side.
 */
export const ORIGIN_RULES = { blockedOrigins: ['localhost:*'] };

export function originRuleSteps(): TransparencyStep[] {
  const localhost = (url: string) => url.replace('127.0.0.1', 'localhost');
  return [
    { group: 'origin rules', name: 'navigate to a blocked host', tool: 'browser_navigate', args: c => ({ url: `${localhost(c.url)}/second` }) },
    { group: 'origin rules', name: 'navigate to an allowed host', tool: 'browser_navigate', args: c => ({ url: `${c.url}/second` }) },
    {
      group: 'origin rules',
      name: 'fetch from the blocked host',
      tool: 'browser_evaluate',
      args: c => ({ function: `async () => { try { await fetch('${localhost(c.url)}/api/data'); return 'fetched'; } catch (e) { return String(e); } }` }),
    },
    { group: 'origin rules', name: 'close', tool: 'browser_close' },
  ];
}

/** The bridge's settings for ORIGIN_RULES, through the same reader VS Code's values go through. */
function originRuleSettings(): Partial<BridgeSettings> {
  const { settings } = readSettings(key => (key === 'network.blockedOrigins' ? ORIGIN_RULES.blockedOrigins : undefined));
  return { blockedOrigins: settings.blockedOrigins, allowedOrigins: settings.allowedOrigins };
}

/** One part of a result as compared: text, or an image by its type and size (never its bytes). */
type Part = string;

function imageDimensions(data: Buffer, mimeType: string): string {
  if (mimeType === 'image/png' && data.length > 24) return `${data.readUInt32BE(16)}x${data.readUInt32BE(20)}`;
  if (mimeType === 'image/jpeg') {
    for (let i = 2; i + 9 < data.length;) {
      const marker = data[i + 1];
      if (marker >= 0xc0 && marker <= 0xc3) return `${data.readUInt16BE(i + 7)}x${data.readUInt16BE(i + 5)}`;
      i += 2 + data.readUInt16BE(i + 2);
    }
  }
  if (mimeType === 'image/webp' && data.toString('ascii', 12, 16) === 'VP8X') {
    return `${1 + data.readUIntLE(24, 3)}x${1 + data.readUIntLE(27, 3)}`;
  }
  if (mimeType === 'image/webp' && data.toString('ascii', 12, 16) === 'VP8 ') {
    return `${data.readUInt16LE(26) & 0x3fff}x${data.readUInt16LE(28) & 0x3fff}`;
  }
  return 'unknown size';
}

function partsOf(result: CallToolResult): Part[] {
  return (result.content ?? [])
    .map(part => {
      if (part.type === 'text') return part.text;
      if (part.type === 'image') return `[image ${part.mimeType} ${imageDimensions(Buffer.from(part.data, 'base64'), part.mimeType)}]`;
      return `[${part.type}]`;
    })
    .concat(result.isError ? ['[isError]'] : []);
}

/** A tool list as compared: name, title, read-only hint, and the schema of each tool. */
function toolsText(tools: Tool[]): string {
  return tools
    .map(tool => JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations }))
    .sort()
    .join('\n');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Normalizer {
  /** The table row it stands for, or the nondeterminism bare shows against bare. */
  why: TableRow | Nondeterminism;
  /** `named`: the relative filename the step passed, if any; `tool`: the step's tool. */
  apply(text: string, side: Side, named: string | undefined, tool?: string): string;
}

/** What differs between two runs of bare itself (seen running bare against bare): normalized in every comparison. */
const NONDETERMINISTIC: Normalizer[] = [
  {
    why: 'timestamps in file names',
    apply: text => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z/g, '<time>').replace(/\btrace-\d{13}\b/g, 'trace-<time>'),
  },
  {
    // Each bare run writes into a fresh temp folder (browser_get_config names it); the bridge's folder is a table row.
    why: 'temp folder names',
    // Its workspace root (where it resolves relative names, and prints them when it hands a file to the page) is a temp folder too.
    apply: (text, side) => (side.label === 'bridge' ? text : text.split(side.outputDir).join('<output>').split(side.relativeRoot).join('<workspace>')),
  },
];

/** An image part as compared, and the note the bridge adds after fitting it to the model's limits. */
const FITTED_IMAGE = new RegExp(
  [
    '\\[image (\\S+) (\\d+x\\d+)\\]\\nImage (?:scaled from (\\d+x\\d+) to \\d+x\\d+)?(?: and )?(re-encoded as JPEG)? ',
    "to fit model limits \\([^)]*\\)\\. Coordinates in it are [\\d.]+x the page's\\.",
  ].join(''),
  'g',
);

/** The differences src/README.md's table names, each undone here so the rest can be compared. */
const TABLE_ROWS: Normalizer[] = [
  {
    // The bridge links files by absolute path in its own folder; bare relative to its workspace root.
    why: 'output folder and absolute paths',
    apply: (text, side) => {
      const relative = path.relative(side.relativeRoot, side.outputDir);
      const out = text.replace(new RegExp(escape(side.outputDir), 'g'), '<output>');
      return relative ? out.replace(new RegExp(`(^|[\\s('"\\[])${escape(relative)}/`, 'gm'), '$1<output>/') : out;
    },
  },
  {
    // A relative filename lands in the bridge's output folder; bare puts it in the workspace root (its `./name`).
    why: 'relative names',
    // A file read back (set_storage_state): the bridge hands upstream the absolute path, which it prints as `./name`.
    // A file handed to the page (upload, drop): each prints the absolute path it resolved, bare's in its workspace root.
    apply: (text, side, named) => {
      if (!named) return text;
      if (side.label !== 'bridge') return text.split(`<workspace>/${named}`).join(`./${named}`);
      return text.split(`<output>/${named}`).join(`./${named}`).split(`from ./${named}`).join(`from ${named}`).split(`('./${named}')`).join(`('${named}')`);
    },
  },
  {
    // The configuration the bridge runs upstream with: its key order, and two keys bare has no option for
    // (absolute file paths, no idle close). Everything else in it must match bare's.
    why: 'browser_get_config',
    apply: (text, side, _named, tool) => {
      const match = tool === 'browser_get_config' ? /^### Result\n(\{[\s\S]*\})\n?/.exec(text) : null;
      if (!match) return text;
      const config = JSON.parse(match[1]) as { filePaths?: string; timeouts?: { idle?: number }; browser?: { isolated?: boolean } };
      if (side.label === 'bridge') {
        delete config.filePaths;
        delete config.timeouts?.idle;
        // Chromium's error page does not load a failed address again by itself (child/launchOptions.ts): the table's row.
        const launch = (config.browser as { launchOptions?: { args?: string[] } } | undefined)?.launchOptions;
        if (launch?.args) launch.args = launch.args.filter(arg => arg !== '--disable-auto-reload');
      } else {
        // The bridge never sets `isolated` (upstream would open a second context beside the child's own), and names
        // no channel for a browser given by its path (bare says "chrome-for-testing" there, yet runs the path): the table's row.
        const browser = config.browser as { isolated?: boolean; launchOptions?: { channel?: string; executablePath?: string } } | undefined;
        if (browser?.isolated === true) delete browser.isolated;
        if (browser?.launchOptions?.executablePath) delete browser.launchOptions.channel;
      }
      const sorted = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(sorted)
          : value && typeof value === 'object'
            ? Object.fromEntries(
                Object.entries(value)
                  .sort(([x], [y]) => x.localeCompare(y))
                  .map(([k, v]) => [k, sorted(v)]),
              )
            : value;
      return text.replace(match[1], JSON.stringify(sorted(config), null, 2));
    },
  },
  {
    // A request the origin rules blocked: the bridge adds a line saying the person blocked it on purpose.
    why: 'notes added to results',
    apply: (text, side) =>
      side.label === 'bridge'
        ? text.replace(new RegExp(`\\n\\nThe address is ${escape(ORIGIN_RULES_NOTE)}, set by the person\\. Do not try to reach it another way\\.`), '')
        : text,
  },
  {
    // An image over the model's limits: the bridge scales (or re-encodes) it and says how; undone to what bare sent.
    why: 'downscaled images',
    apply: (text, side) =>
      side.label !== 'bridge'
        ? text
        : text.replace(
            FITTED_IMAGE,
            (_all, mime: string, size: string, from: string | undefined, reencoded: string | undefined) =>
              `[image ${reencoded ? 'image/png' : mime} ${from ?? size}]`,
          ),
  },
  {
    // The bridge strips terminal colour codes from results; upstream keeps Playwright's in its error texts.
    why: 'terminal colours stripped',
    apply: text => stripAnsi(text),
  },
];

/** Files a result links (snapshots, logs, screenshots, traces): whether each is there, as a line to compare. */
function linkedFiles(text: string, side: Side): string {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)|entries: (\S+?)(?:#L[\d-L]+)?$/gm)].map(m => m[1] ?? m[2]);
  if (!links.length) return '';
  const state = links.map(link => {
    const file = path.resolve(side.relativeRoot, link);
    return `${path.basename(link)}: ${fs.existsSync(file) ? 'present' : 'missing'}`;
  });
  return `[linked files: ${state.join(', ')}]`;
}

export interface StepOutcome {
  group: string;
  step: string;
  verdict: 'identical' | 'normalized' | 'differing';
  /** Which normalizations it needed (table rows, or bare's own nondeterminism). */
  used: string[];
  bare?: string;
  bridge?: string;
}

export interface TransparencyReport {
  steps: number;
  identical: number;
  normalized: number;
  differing: number;
  /** How many steps each normalization was needed for. */
  rows: Record<string, number>;
  outcomes: StepOutcome[];
}

function compareTexts(
  a: string,
  b: string,
  sideA: Side,
  sideB: Side,
  rowsAllowed: boolean,
  named: string | undefined,
  tool: string,
): { verdict: StepOutcome['verdict']; used: string[]; a: string; b: string } {
  if (a === b) return { verdict: 'identical', used: [], a, b };
  const used: string[] = [];
  for (const n of NONDETERMINISTIC) {
    const [na, nb] = [n.apply(a, sideA, named, tool), n.apply(b, sideB, named, tool)];
    if (na !== a || nb !== b) used.push(n.why);
    [a, b] = [na, nb];
  }
  if (a === b) return { verdict: 'identical', used, a, b };
  if (!rowsAllowed) return { verdict: 'differing', used, a, b };
  for (const n of TABLE_ROWS) {
    const [na, nb] = [n.apply(a, sideA, named, tool), n.apply(b, sideB, named, tool)];
    if (na !== a || nb !== b) used.push(n.why);
    [a, b] = [na, nb];
  }
  return { verdict: a === b ? 'normalized' : 'differing', used, a, b };
}

/** Tool lists: the bridge adds its own tools and publishes writers without readOnlyHint, with its own words for filename. */
function normalizedTools(tools: Tool[], bridge: boolean, used: Set<string>): Tool[] {
  if (!bridge) return tools;
  return tools.flatMap(tool => {
    // The bridge's own tools the child publishes (its session tools, its DevTools tools): their registry records say so.
    if (toolRecord(tool.name)?.handler === 'child') {
      used.add("the bridge's own tools");
      return [];
    }
    const props = (tool.inputSchema as { properties?: Record<string, { description?: string }> }).properties;
    const description = props?.filename?.description;
    let next = tool;
    if (description?.includes('Playwright Bridge output folder')) {
      used.add('descriptions of filename');
      // Writers and readers each say where a relative name points; run code's reader also says both-given is refused.
      const ours =
        /Relative file names are resolved against the Playwright Bridge output folder(; the person is asked before any file is written|, where the other tools write their files)\./;
      const upstream = description
        .replace(ours, 'Relative file names are resolved against the workspace root.')
        .replace('Give code or filename, not both: a call with both is refused.', 'If both code and filename are provided, code will be ignored.');
      next = { ...next, inputSchema: { ...next.inputSchema, properties: { ...props, filename: { ...props!.filename, description: upstream } } } };
    }
    if (next.annotations?.readOnlyHint === false && props && 'filename' in props) used.add('read-only hints');
    return [next];
  });
}

/**
 * Runs every step on `a` (bare) and `b` (the bridge, or a second bare), one after the other, and
 * compares. With a second bare, no table row may be used: only bare's own nondeterminism.
 */
export async function runTransparency(
  fixtureUrl: string,
  a: Side,
  b: Side,
  log: (line: string) => void = () => undefined,
  steps: TransparencyStep[] = transparencySteps(),
): Promise<TransparencyReport> {
  const rowsAllowed = b.label === 'bridge';
  const outcomes: StepOutcome[] = [];
  const ctx = { a: { url: fixtureUrl, snapshot: '' }, b: { url: fixtureUrl, snapshot: '' } };
  for (const step of steps) {
    let textA: string;
    let textB: string;
    let used: string[];
    let verdict: StepOutcome['verdict'];
    if (step.tool === 'tools/list') {
      const usedSet = new Set<string>();
      const [ta, tb] = [await a.listTools(), await b.listTools()];
      textA = toolsText(ta);
      textB = toolsText(normalizedTools(tb, rowsAllowed, usedSet));
      used = [...usedSet];
      // Hints: the nine writers are read-only in bare; the bridge publishes them as writers.
      if (usedSet.has('read-only hints')) {
        const writes = (t: Tool) => 'filename' in ((t.inputSchema as { properties?: object }).properties ?? {});
        const hinted = new Set(tb.filter(t => t.annotations?.readOnlyHint === false && writes(t)).map(t => t.name));
        const asWriter = (t: Tool) => ({ ...t, annotations: { ...t.annotations, readOnlyHint: false } });
        textA = toolsText(ta.map(t => (hinted.has(t.name) && t.annotations?.readOnlyHint ? asWriter(t) : t)));
      }
      verdict = textA === textB ? (used.length ? 'normalized' : 'identical') : 'differing';
    } else {
      step.prepare?.(a.relativeRoot);
      step.prepare?.(b.relativeRoot);
      const argsA = step.args?.(ctx.a) ?? {};
      const argsB = step.args?.(ctx.b) ?? {};
      const [ra, rb] = [await a.call(step.tool, argsA, 'tool'), await b.call(step.tool, argsB, step.door ?? 'tool')];
      const [pa, pb] = [partsOf(ra), partsOf(rb)];
      for (const [parts, side] of [
        [pa, a],
        [pb, b],
      ] as const) {
        const files = linkedFiles(parts.join('\n'), side);
        if (files) parts.push(files);
      }
      for (const [side, parts] of [
        [ctx.a, pa],
        [ctx.b, pb],
      ] as const) {
        const text = parts.join('\n');
        if (/\[ref=/.test(text)) side.snapshot = text;
      }
      if (step.bridgeAnswers && rowsAllowed) {
        textA = pa.join('\n');
        textB = pb.join('\n');
        const ok = rb.isError === true && pb.length === 2 && step.bridgeAnswers.text.test(pb[0]);
        verdict = ok ? 'normalized' : 'differing';
        used = [step.bridgeAnswers.row];
      } else {
        const given = typeof argsA.filename === 'string' ? argsA.filename : Array.isArray(argsA.paths) ? argsA.paths[0] : undefined;
        const named = typeof given === 'string' && !path.isAbsolute(given) ? given : undefined;
        const compared = compareTexts(pa.join('\n'), pb.join('\n'), a, b, rowsAllowed, named, step.tool);
        [verdict, used, textA, textB] = [compared.verdict, compared.used, compared.a, compared.b];
      }
    }
    const outcome: StepOutcome = { group: step.group, step: step.name, verdict, used };
    if (verdict === 'differing') Object.assign(outcome, { bare: textA, bridge: textB });
    log(`${step.group} / ${step.name}: ${verdict}${used.length ? ` (${used.join(', ')})` : ''}`);
    outcomes.push(outcome);
  }
  const rows: Record<string, number> = {};
  for (const o of outcomes) if (o.verdict !== 'differing') for (const why of o.used) rows[why] = (rows[why] ?? 0) + 1;
  const count = (v: StepOutcome['verdict']) => outcomes.filter(o => o.verdict === v).length;
  return { steps: outcomes.length, identical: count('identical'), normalized: count('normalized'), differing: count('differing'), rows, outcomes };
}

/** Where two texts first part, with a few lines of each around it, for a failure message. */
export function describeDifference(o: StepOutcome): string {
  const a = (o.bare ?? '').split('\n');
  const b = (o.bridge ?? '').split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const around = (lines: string[]) =>
    lines
      .slice(Math.max(0, i - 2), i + 4)
      .map(l => `    ${l.slice(0, 300)}`)
      .join('\n');
  return `${o.group} / ${o.step}: first difference at line ${i + 1}\n  bare:\n${around(a)}\n  bridge:\n${around(b)}`;
}

/** Both reports as one. */
function merged(reports: TransparencyReport[]): TransparencyReport {
  const outcomes = reports.flatMap(r => r.outcomes);
  const rows: Record<string, number> = {};
  for (const r of reports) for (const [why, n] of Object.entries(r.rows)) rows[why] = (rows[why] ?? 0) + n;
  const count = (v: StepOutcome['verdict']) => outcomes.filter(o => o.verdict === v).length;
  return { steps: outcomes.length, identical: count('identical'), normalized: count('normalized'), differing: count('differing'), rows, outcomes };
}

async function pair(fixtureUrl: string, openA: () => Promise<Side>, openB: () => Promise<Side>, steps: TransparencyStep[], log?: (line: string) => void) {
  const a = await openA();
  try {
    const b = await openB();
    try {
      return await runTransparency(fixtureUrl, a, b, log, steps);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
  }
}

const ORIGIN_ARGS = ['--blocked-origins', ORIGIN_RULES.blockedOrigins.join(';')];

/** Bare against the bridge: the sessions of every group, then the origin rules on browsers of their own. */
export async function bareAgainstBridge(fixtureUrl: string, log?: (line: string) => void): Promise<TransparencyReport> {
  return merged([
    await pair(
      fixtureUrl,
      () => openBare(),
      () => openBridge(),
      transparencySteps(),
      log,
    ),
    await pair(
      fixtureUrl,
      () => openBare('bare', ORIGIN_ARGS),
      () => openBridge(originRuleSettings()),
      originRuleSteps(),
      log,
    ),
  ]);
}

/** Bare against bare: what a comparison must tolerate because upstream itself varies. */
export async function bareAgainstBare(fixtureUrl: string, log?: (line: string) => void): Promise<TransparencyReport> {
  return merged([
    await pair(
      fixtureUrl,
      () => openBare(),
      () => openBare('bare again'),
      transparencySteps(),
      log,
    ),
    await pair(
      fixtureUrl,
      () => openBare('bare', ORIGIN_ARGS),
      () => openBare('bare again', ORIGIN_ARGS),
      originRuleSteps(),
      log,
    ),
  ]);
}

/** The code a step's answer says upstream ran (its "Ran Playwright code" block), with this side's folders and times made neutral. */
function neutral(text: string, side: Side): string {
  return text
    .split(side.outputDir)
    .join('<output>')
    .split(side.relativeRoot)
    .join('<root>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(-\d{3})?Z/g, '<time>');
}

/**
 * The code upstream generates at each step of the scripted sessions (transparencySteps), run on bare @playwright/mcp
 * from `packageFolder` (a release the upstream check installed): by `group / step`, absent where a step ran none.
 * An error's words stand in for code: a parameter a release does not take is a change too.
 */
export async function generatedCode(fixtureUrl: string, packageFolder: string): Promise<Map<string, { tool: string; code: string }>> {
  const side = await openBare('bare', [], packageFolder);
  const code = new Map<string, { tool: string; code: string }>();
  const ctx = { url: fixtureUrl, snapshot: '' };
  try {
    for (const step of transparencySteps()) {
      if (step.tool === 'tools/list') continue;
      step.prepare?.(side.relativeRoot);
      let args: Record<string, unknown>;
      try {
        args = step.args?.(ctx) ?? {};
      } catch (error) {
        // A ref the release's snapshot did not give: said as the step's outcome.
        code.set(`${step.group} / ${step.name}`, { tool: step.tool, code: `(not run: ${(error as Error).message.split('\n')[0]})` });
        continue;
      }
      const text = partsOf(await side.call(step.tool, args, 'tool')).join('\n');
      if (/\[ref=/.test(text)) ctx.snapshot = text;
      const ran =
        /### Ran Playwright code\n```\w*\n([\s\S]*?)\n```/.exec(text)?.[1] ??
        (/^### Error/m.test(text) ? `(error) ${text.split('\n').slice(0, 2).join(' ')}` : undefined);
      if (ran !== undefined) code.set(`${step.group} / ${step.name}`, { tool: step.tool, code: neutral(ran, side) });
    }
  } finally {
    await side.close();
  }
  return code;
}
