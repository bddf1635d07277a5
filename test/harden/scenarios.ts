/**
 * The hardening scenarios: bad input, killed processes, a long session, hostile requests at the
 * endpoint, and a project folder chosen as output. Each drives the real child and Chromium against
 * the fixture site and returns the figures `npm run harden` writes; the plain-Node suite runs the
 * same scenarios in a shorter form and checks the targets.
 */
import { median } from '../support/median';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import * as v8 from 'v8';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { listDescendants } from '../../src/core/childProcess/processTree';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { FixtureServer } from '../fixtures/fixtureServer';
import { connectMcpClient, makeRealBridge, processesMentioning, refOf, textOf, waitFor } from '../support/realBridge';
import { startBareUpstream } from '../support/bareUpstream';

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
    const figures: MalformedFigures = {
      total: 0,
      clearErrors: 0,
      serverRestarts: 0,
      byKind: { missing: 0, wrongType: 0, oversized: 0, extra: 0 },
      unclear: [],
    };
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
      // Past this, a press is counted lost (its click answered long before: the page sends it at once).
      await waitFor(() => fixture.count('/press') > before, 10000, 'the press').catch(() => undefined);
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
      if (!victim) continue;
      process.kill(victim, 'SIGKILL');
      // The next call comes once the bridge has noticed, as the status bar shows it a person (on a busy machine a
      // fixed pause could end before the child reads its browser's pipe closed, and a call then races the death).
      await waitFor(
        () => bridge.supervisor.health.state !== 'ready',
        15000,
        () => `the bridge to notice the SIGKILL of ${victim === childPid ? 'the child' : 'the browser'}`,
      );
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

/** One sample of the soak, every `sampleEvery` calls after the warm-up: MB. */
export interface SoakSample {
  calls: number;
  /** This process (the extension host's part: supervisor, MCP endpoint, panel store), after a full collection. */
  hostHeapMB: number;
  hostRssMB: number;
  /** The child (the browser server; its browser is not counted): heap after a full collection, RSS as read from outside. */
  childHeapMB: number;
  childRssMB: number;
}

export interface SoakFigures {
  calls: number;
  failures: number;
  /** Least-squares slopes over the samples, MB per 1,000 calls. */
  hostHeapSlopeMBPer1k: number;
  hostRssSlopeMBPer1k: number;
  childHeapSlopeMBPer1k: number;
  childRssSlopeMBPer1k: number;
  /** Bare @playwright/mcp's own server on the same workload, in the same run: RSS as read from outside. */
  bareRssSlopeMBPer1k: number;
  samples: SoakSample[];
  bareSamples: { calls: number; rssMB: number }[];
  orphans: number;
  /** The first failures, for the person reading the figures: side, tool and the error's first line. */
  failureTexts: string[];
}

export interface SoakOptions {
  /** Measured calls, after the warm-up. */
  calls: number;
  /** Workload calls first, unmeasured (after a page that fills the panel's console and request lists): every ring buffer is full after them. */
  warmup: number;
  /** Seconds of that filling page, at most 30 (2,000 console lines and 2,000 requests take 25 at 80 a second); 0 leaves it out. */
  fillSeconds?: number;
  sampleEvery: number;
  /** When set: heap snapshots of both processes at these measured call counts, written there. */
  snapshots?: { dir: string; at: number[] };
  /** Print each sample as it is taken. */
  progress?: boolean;
  /** False while hunting a leak in the bridge alone: bare upstream's run is left out (its slope reads 0). */
  bare?: boolean;
}

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * RSS swings by tens of MB with frames and results in flight: one sample is the median of three
 * readings 100 ms apart.
 */
async function steadyRss(read: () => number): Promise<number> {
  const readings: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i) await new Promise(resolve => setTimeout(resolve, 100));
    readings.push(read());
  }
  return median(readings);
}

/** Least-squares slope of y over x, scaled to per 1,000 of x. */
export function slopePer1k(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxy = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0);
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  return sxx === 0 ? 0 : round2((sxy / sxx) * 1000);
}

/** The soak's workload on a small page: navigate, snapshot, PNG screenshot, snapshot, click. */
function soakWorkload(fixture: FixtureServer): { tool: string; args(lastSnapshot: string): Record<string, unknown> }[] {
  return [
    { tool: 'browser_navigate', args: () => ({ url: `${fixture.url}/` }) },
    { tool: 'browser_snapshot', args: () => ({}) },
    { tool: 'browser_take_screenshot', args: () => ({ type: 'png' }) },
    { tool: 'browser_snapshot', args: () => ({}) },
    { tool: 'browser_click', args: snapshot => ({ element: 'Greet', target: refOf(snapshot, /button "Greet"/) }) },
  ];
}

/** Runs `total` calls of the workload through `call`; `onCall(n)` after each (n counts every call, warm-up included). */
async function playWorkload(
  fixture: FixtureServer,
  total: number,
  call: (tool: string, args: Record<string, unknown>, cycle: number) => Promise<CallToolResult>,
  onCall: (done: number, failed: string | undefined) => Promise<void>,
  fillSeconds: number,
): Promise<void> {
  if (fillSeconds > 0) {
    for (const [tool, args] of [
      ['browser_navigate', { url: `${fixture.url}/fill?seconds=${fillSeconds}` }],
      ['browser_wait_for', { time: fillSeconds, text: 'Filled' }],
    ] as const) {
      const result = await call(tool, args, 0);
      if (result.isError) throw new Error(`the soak's warm-up page failed: ${textOf(result)}`);
    }
  }
  const workload = soakWorkload(fixture);
  let lastSnapshot = '';
  for (let i = 0; i < total; i++) {
    const step = workload[i % workload.length];
    let result: CallToolResult;
    try {
      result = await call(step.tool, step.args(lastSnapshot), Math.floor(i / workload.length));
    } catch (error) {
      result = { isError: true, content: [{ type: 'text', text: (error as Error).message }] };
    }
    if (step.tool === 'browser_snapshot' && !result.isError) lastSnapshot = textOf(result);
    await onCall(
      i + 1,
      result.isError
        ? `${step.tool}: ${
            textOf(result)
              .split('\n')
              .find(line => line.trim() && !line.startsWith('#')) ?? ''
          }`
        : undefined,
    );
  }
}

/**
 * A long session that can see a leak: the workload through both doors of the bridge (alternating by
 * cycle, with the panel's store attached and frames streaming), then on bare upstream in the same
 * run. After the warm-up, both processes are sampled every `sampleEvery` calls; the figures are the
 * least-squares slopes per 1,000 calls.
 */
export async function soak(fixture: FixtureServer, options: SoakOptions): Promise<SoakFigures> {
  const figures: SoakFigures = {
    calls: 0,
    failures: 0,
    hostHeapSlopeMBPer1k: 0,
    hostRssSlopeMBPer1k: 0,
    childHeapSlopeMBPer1k: 0,
    childRssSlopeMBPer1k: 0,
    bareRssSlopeMBPer1k: 0,
    samples: [],
    bareSamples: [],
    orphans: 0,
    failureTexts: [],
  };
  const total = options.warmup + options.calls;
  const measured = (done: number) => done - options.warmup;
  const sampling = (done: number) => measured(done) >= 0 && measured(done) % options.sampleEvery === 0;
  const bridge = makeRealBridge();
  const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
  bridge.supervisor.setLiveView({ enabled: true, maxWidth: 640, maxHeight: 360 });
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-harden', () => undefined);
  let client: Client | undefined;
  try {
    const address = await endpoint.start();
    client = await connectClient(address, 'soak');
    await playWorkload(
      fixture,
      total,
      async (tool, args, cycle) =>
        cycle % 2 === 0
          ? bridge.supervisor.callTool(tool, args)
          : ((await client!.callTool({ name: tool, arguments: args }, undefined, { timeout: 120000 })) as CallToolResult),
      async (done, failed) => {
        if (measured(done) > 0) {
          figures.calls++;
          if (failed) {
            figures.failures++;
            if (figures.failureTexts.length < 5) figures.failureTexts.push(`bridge ${failed}`.slice(0, 300));
          }
        }
        if (!sampling(done)) return;
        const childPid = bridge.supervisor.status.pid!;
        const childRss = await steadyRss(() => rssOf(childPid));
        const snapshotHere = options.snapshots?.at.includes(measured(done));
        const childSnapshot = snapshotHere ? path.join(options.snapshots!.dir, `child-${measured(done)}.heapsnapshot`) : undefined;
        const child = await bridge.supervisor.ask('memory', childSnapshot ? { heapSnapshotPath: childSnapshot } : {});
        settle();
        if (snapshotHere) v8.writeHeapSnapshot(path.join(options.snapshots!.dir, `host-${measured(done)}.heapsnapshot`));
        const hostHeap = process.memoryUsage().heapUsed;
        const hostRss = await steadyRss(() => process.memoryUsage.rss());
        figures.samples.push({
          calls: measured(done),
          hostHeapMB: mb(hostHeap),
          hostRssMB: mb(hostRss),
          childHeapMB: mb(child.heapUsedBytes),
          childRssMB: mb(childRss),
        });
        // A long run shows its progress, and what it saw so far if it is stopped.
        if (options.progress) console.log(`[soak] ${JSON.stringify(figures.samples.at(-1))}`);
      },
      options.fillSeconds ?? 0,
    );
    const slope = (pick: (sample: SoakSample) => number) => slopePer1k(figures.samples.map(sample => ({ x: sample.calls, y: pick(sample) })));
    figures.hostHeapSlopeMBPer1k = slope(sample => sample.hostHeapMB);
    figures.hostRssSlopeMBPer1k = slope(sample => sample.hostRssMB);
    figures.childHeapSlopeMBPer1k = slope(sample => sample.childHeapMB);
    figures.childRssSlopeMBPer1k = slope(sample => sample.childRssMB);
  } finally {
    await client?.close().catch(() => undefined);
    await endpoint.dispose();
    store.dispose();
    const scratch = bridge.scratch;
    await bridge.dispose();
    await new Promise(resolve => setTimeout(resolve, 500));
    figures.orphans = processesMentioning(scratch).length;
  }
  if (options.bare === false) return figures;
  const bare = await startBareUpstream([], 'soak');
  try {
    await playWorkload(
      fixture,
      total,
      (tool, args) => bare.call(tool, args),
      async (done, failed) => {
        if (measured(done) > 0 && failed) {
          figures.failures++;
          if (figures.failureTexts.length < 5) figures.failureTexts.push(`bare ${failed}`.slice(0, 300));
        }
        if (!sampling(done)) return;
        figures.bareSamples.push({ calls: measured(done), rssMB: mb(await steadyRss(() => rssOf(bare.pid!))) });
        if (options.progress) console.log(`[soak] bare ${JSON.stringify(figures.bareSamples.at(-1))}`);
      },
      options.fillSeconds ?? 0,
    );
    figures.bareRssSlopeMBPer1k = slopePer1k(figures.bareSamples.map(sample => ({ x: sample.calls, y: sample.rssMB })));
  } finally {
    await bare.close();
  }
  return figures;
}

function mb(bytes: number): number {
  return round1(bytes / 1048576);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
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
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      res => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
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
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'browser_navigate', arguments: { url: `${fixture.url}/probe` } },
    });
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    });
    const probes: [string, Record<string, string>, string, number][] = [
      ['no token', {}, call, 401],
      ['wrong token', { authorization: `Bearer ${'A'.repeat(43)}` }, call, 401],
      ['foreign Host', { authorization: bearer, host: `evil.example:${address.port}` }, call, 403],
      ['an Origin', { authorization: bearer, origin: 'https://evil.example' }, call, 403],
      [
        'oversized body',
        { authorization: bearer },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
        413,
      ],
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
  const intact = () =>
    Object.entries(files).filter(([name, content]) => {
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
