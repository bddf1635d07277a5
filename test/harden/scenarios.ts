/**
 * The hardening scenarios: bad input, killed processes, a long session, hostile requests at the
 * endpoint, and a project folder chosen as output. Each drives the real child and Chromium against
 * the fixture site and returns the figures `npm run harden` writes; the plain-Node suite runs the
 * same scenarios in a shorter form and checks the targets.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { listDescendants } from '../../src/core/childProcess/processTree';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, processesMentioning, refOf, textOf, waitFor } from '../support/realBridge';

// ---- malformed ---------------------------------------------------------------------------------

export interface MalformedFigures {
  total: number;
  clearErrors: number;
  serverRestarts: number;
  /** Calls per kind of bad input. */
  byKind: Record<MalformedKind, number>;
  /** The calls that did not get a clear error, for the person reading the figures. */
  unclear: string[];
}

type MalformedKind = 'missing' | 'wrongType' | 'oversized' | 'extra';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** A value of another type than the property takes. */
function wrongValue(schema: JsonSchema): unknown {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (schema.enum) return 98765;
  if (!types.includes('object')) return { bogus: true };
  return 12345;
}

/** The malformed calls for one tool: only the kinds that really are malformed for its schema. */
function malformedCalls(tool: Tool): { kind: MalformedKind; args: Record<string, unknown> }[] {
  const schema = tool.inputSchema as JsonSchema;
  const properties = Object.entries(schema.properties ?? {});
  const calls: { kind: MalformedKind; args: Record<string, unknown> }[] = [];
  // Upstream's schemas list some defaulted properties as required (browser_take_screenshot's scale):
  // leaving those out is not malformed, upstream fills them in.
  if (schema.required?.some(name => schema.properties?.[name]?.default === undefined)) calls.push({ kind: 'missing', args: {} });
  if (properties.length) calls.push({ kind: 'wrongType', args: Object.fromEntries(properties.map(([name, property]) => [name, wrongValue(property)])) });
  const text = properties.find(([, property]) => property.type === 'string' && !property.enum);
  if (text) calls.push({ kind: 'oversized', args: { [text[0]]: 'x'.repeat(2 * 1024 * 1024) } });
  calls.push({ kind: 'extra', args: { unexpectedArgument: 'surprise' } });
  return calls;
}

/** A clear error: flagged as one, short enough to read, and naming the tool or an argument. */
function isClearError(tool: Tool, result: CallToolResult): boolean {
  const text = textOf(result);
  const names = [tool.name, ...Object.keys((tool.inputSchema as JsonSchema).properties ?? {}), 'unexpectedArgument'];
  return result.isError === true && text.length > 0 && text.length < 4000 && names.some(name => text.includes(name));
}

/** Every tool of every capability group, called with missing, wrong-typed, oversized and extra arguments. */
export async function malformed(): Promise<MalformedFigures> {
  const bridge = makeRealBridge({ capabilities: [...ALL_CAPABILITIES] });
  try {
    const tools = await bridge.supervisor.listTools();
    const figures: MalformedFigures = { total: 0, clearErrors: 0, serverRestarts: 0, byKind: { missing: 0, wrongType: 0, oversized: 0, extra: 0 }, unclear: [] };
    for (const tool of tools) {
      for (const call of malformedCalls(tool)) {
        figures.total++;
        figures.byKind[call.kind]++;
        let result: CallToolResult;
        try {
          result = await bridge.supervisor.callTool(tool.name, call.args);
        } catch (error) {
          result = { content: [{ type: 'text', text: `(threw) ${(error as Error).message}` }] };
        }
        if (isClearError(tool, result)) figures.clearErrors++;
        else figures.unclear.push(`${tool.name} ${call.kind}: ${textOf(result).slice(0, 200)}`);
      }
    }
    figures.serverRestarts = bridge.supervisor.status.generation - 1;
    return figures;
  } finally {
    await bridge.dispose();
  }
}

// ---- kill loop ---------------------------------------------------------------------------------

export interface KillLoopFigures {
  rounds: number;
  /** Rounds whose calls after the kill all worked. */
  okAfterKill: number;
  /** Rounds whose press never reached the page. */
  lost: number;
  /** Rounds whose press reached the page more than once. */
  duplicated: number;
  /** Rounds whose first result after the kill told the model its state was lost. */
  toldModel: number;
  /** Processes of ours left after the end. */
  orphans: number;
}

/** The browser's main process below the child (the one without a --type=renderer/gpu/... flag). */
function browserMainPid(childPid: number): number | undefined {
  return listDescendants(childPid).find(pid => {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return /chrom/i.test(args[0]) && !args.some(arg => arg.startsWith('--type='));
    } catch {
      return false;
    }
  });
}

/** Rounds of: open the counter page, press once; then SIGKILL the server (even rounds) or the browser (odd ones). */
export async function killLoop(fixture: FixtureServer, rounds: number): Promise<KillLoopFigures> {
  const bridge = makeRealBridge();
  const figures: KillLoopFigures = { rounds, okAfterKill: 0, lost: 0, duplicated: 0, toldModel: 0, orphans: 0 };
  try {
    for (let round = 0; round < rounds; round++) {
      const before = fixture.count('/press');
      const navigate = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/counter` });
      const snapshot = await bridge.supervisor.callTool('browser_snapshot', {});
      let ok = !navigate.isError && !snapshot.isError;
      if (ok) {
        const press = await bridge.supervisor.callTool('browser_click', { element: 'Press', target: refOf(textOf(snapshot), /button "Press"/) });
        ok = !press.isError;
      }
      await waitFor(() => fixture.count('/press') > before, 3000, 'the press').catch(() => undefined);
      const presses = fixture.count('/press') - before;
      if (presses === 0) figures.lost++;
      if (presses > 1) figures.duplicated++;
      if (round > 0) {
        if (ok) figures.okAfterKill++;
        if (/earlier pages, tabs, form input and login state are gone/.test(textOf(navigate))) figures.toldModel++;
      }
      // Kill between calls, as a crash or the person's `kill` would.
      const childPid = bridge.supervisor.status.pid;
      if (round === rounds - 1 || !childPid) continue;
      const victim = round % 2 === 0 ? childPid : browserMainPid(childPid);
      if (victim) process.kill(victim, 'SIGKILL');
      await new Promise(resolve => setTimeout(resolve, 200));
    }
    // The last round has no kill after it; every other round is followed by one.
    figures.rounds = rounds;
  } finally {
    const scratch = bridge.scratch;
    await bridge.dispose();
    await new Promise(resolve => setTimeout(resolve, 500));
    figures.orphans = processesMentioning(scratch).length;
  }
  return figures;
}

// ---- soak --------------------------------------------------------------------------------------

export interface SoakFigures {
  calls: number;
  failures: number;
  /**
   * RSS growth from call 100 to the last, in percent: this process (the extension host's part) and
   * the child. RSS swings by tens of MB with the frames streaming through, so each end is the median
   * of three samples a hundred calls apart (calls 100-300 against the last three).
   */
  hostRssGrowthPct: number;
  childRssGrowthPct: number;
  orphans: number;
  /** Every 100 calls, after a garbage collection: MB of this process's RSS and heap, and of the child's RSS. */
  samples: { calls: number; hostRssMB: number; hostHeapMB: number; childRssMB: number }[];
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Navigate, snapshot, click, screenshot, over and over, alternating the tool door and the MCP door, with the panel's store attached. */
export async function soak(fixture: FixtureServer, calls: number): Promise<SoakFigures> {
  const bridge = makeRealBridge();
  const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
  bridge.supervisor.setLiveView({ enabled: true, maxWidth: 640, maxHeight: 360 });
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-harden', () => undefined);
  const figures: SoakFigures = { calls: 0, failures: 0, hostRssGrowthPct: 0, childRssGrowthPct: 0, orphans: 0, samples: [] };
  let client: Client | undefined;
  try {
    const address = await endpoint.start();
    client = await connectClient(address, 'soak');
    const viaMcp = async (name: string, args: Record<string, unknown>) => (await client!.callTool({ name, arguments: args })) as CallToolResult;
    const viaTool = (name: string, args: Record<string, unknown>) => bridge.supervisor.callTool(name, args);
    let lastSnapshot = '';
    const steps: [string, () => Record<string, unknown>][] = [
      ['browser_navigate', () => ({ url: `${fixture.url}/` })],
      ['browser_snapshot', () => ({})],
      ['browser_click', () => ({ element: 'Greet', target: refOf(lastSnapshot, /button "Greet"/) })],
      ['browser_take_screenshot', () => ({ type: 'jpeg' })],
    ];
    for (let i = 0; i < calls; i++) {
      const [name, args] = steps[i % steps.length];
      const door = Math.floor(i / steps.length) % 2 === 0 ? viaTool : viaMcp;
      let result: CallToolResult;
      try {
        result = await door(name, args());
      } catch (error) {
        result = { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
      }
      figures.calls++;
      if (result.isError) figures.failures++;
      if (name === 'browser_snapshot') lastSnapshot = textOf(result);
      if (figures.calls % 100 === 0 || figures.calls === calls) {
        settle();
        const memory = process.memoryUsage();
        const child = rssOf(bridge.supervisor.status.pid!);
        figures.samples.push({ calls: figures.calls, hostRssMB: mb(memory.rss), hostHeapMB: mb(memory.heapUsed), childRssMB: mb(child) });
      }
    }
    const first = figures.samples.slice(0, 3);
    const last = figures.samples.slice(-3);
    const growth = (pick: (sample: SoakFigures['samples'][number]) => number) => round1((median(last.map(pick)) / median(first.map(pick)) - 1) * 100);
    figures.hostRssGrowthPct = growth(sample => sample.hostRssMB);
    figures.childRssGrowthPct = growth(sample => sample.childRssMB);
  } finally {
    await client?.close().catch(() => undefined);
    await endpoint.dispose();
    store.dispose();
    const scratch = bridge.scratch;
    await bridge.dispose();
    await new Promise(resolve => setTimeout(resolve, 500));
    figures.orphans = processesMentioning(scratch).length;
  }
  return figures;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function mb(bytes: number): number {
  return round1(bytes / 1048576);
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

// ---- endpoint ----------------------------------------------------------------------------------

export interface EndpointFigures {
  probes: number;
  asExpected: number;
  maxLiveSessions: number;
  /** Requests that reached the fixture site from any refused probe: must be 0. */
  fixtureRequests: number;
  /** The probes whose answer was not the expected one. */
  unexpected: string[];
}

const connectClient = connectMcpClient;

function post(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, res => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** No token, a wrong one, a foreign Host, an Origin, an oversized body, then many initializes that never end their session. */
export async function endpointProbes(fixture: FixtureServer, initializes: number): Promise<EndpointFigures> {
  const bridge = makeRealBridge();
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-harden', () => undefined);
  const figures: EndpointFigures = { probes: 0, asExpected: 0, maxLiveSessions: 0, fixtureRequests: 0, unexpected: [] };
  try {
    const address = await endpoint.start();
    const bearer = `Bearer ${address.token}`;
    // Each refused probe carries a call that would open the fixture's /probe page if it got through.
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'browser_navigate', arguments: { url: `${fixture.url}/probe` } } });
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const probes: [string, Record<string, string>, string, number][] = [
      ['no token', {}, call, 401],
      ['wrong token', { authorization: `Bearer ${'A'.repeat(43)}` }, call, 401],
      ['foreign Host', { authorization: bearer, host: `evil.example:${address.port}` }, call, 403],
      ['an Origin', { authorization: bearer, origin: 'https://evil.example' }, call, 403],
      ['oversized body', { authorization: bearer }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }), 413],
    ];
    for (const [what, headers, body, expected] of probes) {
      const status = await post(address.port, headers, body);
      figures.probes++;
      if (status === expected) figures.asExpected++;
      else figures.unexpected.push(`${what}: ${status}, expected ${expected}`);
    }
    for (let i = 0; i < initializes; i++) {
      const status = await post(address.port, { authorization: bearer }, initialize);
      figures.probes++;
      if (status === 200) figures.asExpected++;
      else figures.unexpected.push(`initialize ${i}: ${status}`);
      figures.maxLiveSessions = Math.max(figures.maxLiveSessions, endpoint.sessionCount);
    }
    figures.fixtureRequests = fixture.count('/probe');
  } finally {
    await endpoint.dispose();
    await bridge.dispose();
  }
  return figures;
}

// ---- output folder -----------------------------------------------------------------------------

export interface VictimFigures {
  /** The project's own files before and after (present with the same content). */
  filesBefore: number;
  filesAfter: number;
  calls: number;
  /** Bytes the bridge's own files take at the end, and its budget. */
  bridgeBytes: number;
  budgetBytes: number;
}

/** A project folder, already over the budget with old files, chosen as the output folder; many calls that write files. */
export async function outputDirVictim(fixture: FixtureServer, calls: number): Promise<VictimFigures> {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-project-'));
  // The project: sources and git objects, 3 MB in all, older than anything the bridge will write.
  const files: Record<string, Buffer> = { 'src/main.ts': Buffer.from('export const main = 1;\n'), 'README.md': Buffer.from('# project\n') };
  for (let i = 0; i < 3; i++) files[`.git/objects/pack/pack-${i}.pack`] = Buffer.alloc(1024 * 1024, i + 1);
  const old = Date.now() / 1000 - 30 * 24 * 3600;
  for (const [name, content] of Object.entries(files)) {
    const full = path.join(project, name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    fs.utimesSync(full, old, old);
  }
  const intact = () => Object.entries(files).filter(([name, content]) => {
    try {
      return fs.readFileSync(path.join(project, name)).equals(content);
    } catch {
      return false;
    }
  }).length;
  const victimBridge = makeRealBridge({ outputDir: project, outputMaxSizeMB: 1 });
  const figures: VictimFigures = { filesBefore: intact(), filesAfter: 0, calls: 0, bridgeBytes: 0, budgetBytes: victimBridge.config.outputBudgetBytes };
  try {
    for (let i = 0; i < calls; i++) {
      // Navigations write snapshot files; screenshots write images: the bridge's budget is exceeded many times over.
      if (i % 2 === 0) await victimBridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/live?${i}` });
      else await victimBridge.supervisor.callTool('browser_take_screenshot', { type: 'png', filename: `shot-${i}.png` });
      figures.calls++;
    }
    figures.filesAfter = intact();
    figures.bridgeBytes = folderBytes(victimBridge.config.mcp.outputDir);
  } finally {
    await victimBridge.dispose();
    fs.rmSync(project, { recursive: true, force: true });
  }
  return figures;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
  }
  return total;
}
