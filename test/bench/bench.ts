/**
 * npm run bench: a scripted browsing session through the bridge (supervisor + our child) and
 * through the MCP door (the loopback endpoint, over Streamable HTTP) and through a bare
 * @playwright/mcp stdio child, step by step in one run, on pages served here.
 * Prints the median per-call ratio, cold starts and memory of each process tree, and writes them
 * as JSON to $BENCH_OUT when set. BENCH_ROUNDS sets how many sessions (default 3); BENCH_SESSIONS_ONLY=1
 * measures only the perClient sessions and a bare Playwright context beside them; BENCH_CALLS_ONLY=1 only the
 * per-call rounds (perCallRatio, httpDoorRatio) and the call path; BENCH_TRANSPARENCY_ONLY=1 only
 * the transparency count (bare @playwright/mcp against the bridge, test/support/transparency.ts) and `upstream`;
 * `node out/test/bench/testExport.js` only the sessions exported as Playwright tests (testExport);
 * `node out/test/bench/timeTravel.js` only time travel's checkpoints, scrub, forks and trace (timeTravel);
 * `node out/test/bench/panel.js` only the panel's figures in a real VS Code (panel);
 * `node out/test/bench/devtools.js` only the DevTools tools' agreement, audit and trace overhead (devtools);
 * BENCH_LIVE_ONLY=1 only the live view's rounds (liveView); BENCH_CDP_ONLY=1 only the managed CDP endpoint (cdp).
 * Each figure and each round is measured on its own (benchFigures.ts): one that throws is written as
 * `{ failed: "<reason>" }` under its key and listed under `failed`, the run goes on to the next, the JSON is
 * written all the same, and the exit code is 1.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { FrameGate } from '../../src/core/liveView/frameGate';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import type { FrameMessage } from '../../src/protocol/panelMessages';
import { listDescendants } from '../../src/core/childProcess/processTree';
import { FixtureServer } from '../fixtures/fixtureServer';
import { BridgeSettings, DEFAULT_SETTINGS } from '../../src/core/settings/settings';
import { parseConnection } from '../../src/core/settings/browserConnection';
import { PlaywrightServer, SERVER_LAUNCH_HEADERS } from '../support/remoteBrowsers';
import { bareAgainstBridge } from '../support/transparency';
import { REPORT_JSON, type UpstreamReport } from '../upstream/upstreamCheck';
import { connectMcpClient, makeRealBridge, RealBridge, REPO_ROOT, TEST_BROWSER, textOf, waitFor } from '../support/realBridge';
import { startBareUpstream } from '../support/bareUpstream';
import { measureCallPath } from './callPath';
import { DoorCostFigures, measureDoorCost } from './doorCost';
import { measureTestExport, type TestExportFigures } from './testExport';
import { measureTimeTravel } from './timeTravel';
import { measurePanel } from './panel';
import { measureDevtools } from './devtools';
import { measureCdp, type CdpFigures } from './cdp';
import { median } from '../support/median';
import { session } from './scriptedSession';
import { BenchRun, Figure, isFailed, medianOf } from './benchFigures';

type Caller = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

type DoorName = 'bridge' | 'http' | 'bare';

interface Door {
  name: DoorName;
  call: Caller;
  pid(): number | undefined;
  close(): Promise<void>;
}

async function openBridge(): Promise<{ door: Door; readyMs: number }> {
  const bridge = makeRealBridge();
  const started = performance.now();
  await bridge.supervisor.listTools();
  const readyMs = performance.now() - started;
  return {
    readyMs,
    door: {
      name: 'bridge',
      call: (name, args) => bridge.supervisor.callTool(name, args),
      pid: () => bridge.supervisor.status.pid,
      close: () => bridge.dispose(),
    },
  };
}

/** The MCP door: a bridge behind the loopback endpoint, reached by an SDK client over Streamable HTTP. */
async function openHttp(): Promise<{ door: Door; readyMs: number }> {
  const bridge = makeRealBridge();
  const endpoint = new McpEndpoint(bridge.supervisor, 'bench', () => undefined);
  const started = performance.now();
  const address = await endpoint.start();
  const client = await connectMcpClient(address, 'bench-http');
  await client.listTools();
  const readyMs = performance.now() - started;
  return {
    readyMs,
    door: {
      name: 'http',
      call: async (name, args) => (await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 })) as CallToolResult,
      pid: () => bridge.supervisor.status.pid,
      close: async () => {
        await client.close();
        await endpoint.dispose();
        await bridge.dispose();
      },
    },
  };
}

async function openBare(): Promise<{ door: Door; readyMs: number }> {
  const started = performance.now();
  const bare = await startBareUpstream([], 'bench');
  await bare.client.listTools();
  const readyMs = performance.now() - started;
  return { readyMs, door: { name: 'bare', call: bare.call, pid: () => bare.pid, close: bare.close } };
}

/** Sum over a process tree of a field of /proc/<pid>/status or smaps_rollup, in MB. */
function treeMemoryMB(rootPid: number, field: 'VmRSS' | 'Pss'): number {
  let kb = 0;
  for (const pid of [rootPid, ...listDescendants(rootPid)]) {
    try {
      const file = field === 'VmRSS' ? `/proc/${pid}/status` : `/proc/${pid}/smaps_rollup`;
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(file, 'utf8'));
      if (match) kb += Number(match[1]);
    } catch {
      // Exited while measured.
    }
  }
  return kb / 1024;
}

/** Characters a result puts before the model: its text, plus base64 images as sent. */
function resultChars(result: CallToolResult): number {
  return result.content.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : part.type === 'image' ? part.data.length : 0), 0);
}

/**
 * What each step of the scripted session costs the model in characters, with upstream's defaults
 * and with the lean settings (no snapshot after actions, no images, errors-only console).
 * Characters do not depend on the machine's speed: one pass each is enough.
 */
async function leanOutputs(fixture: FixtureServer) {
  const perStep = async (overrides: Partial<BridgeSettings>) => {
    const bridge = makeRealBridge(overrides);
    try {
      const state = new Map<string, string>();
      const steps = session(fixture.url).slice(0, 10);
      let chars = 0;
      for (const step of steps) {
        const result = await bridge.supervisor.callTool(step.name, step.args(state));
        if (result.isError) throw new Error(`lean outputs: ${step.name} failed: ${textOf(result).slice(0, 300)}`);
        step.after?.(result, state);
        chars += resultChars(result);
        if (process.env.BENCH_VERBOSE)
          console.log(`  lean ${JSON.stringify(overrides)} ${step.name}: ${resultChars(result)} chars (${result.content.map(p => p.type).join(', ')})`);
      }
      return Math.round(chars / steps.length);
    } finally {
      await bridge.dispose();
    }
  };
  const defaultCharsPerStep = await perStep({});
  const leanCharsPerStep = await perStep({ snapshotMode: 'none', imageResponses: 'omit', consoleLevel: 'error' });
  return { defaultCharsPerStep, leanCharsPerStep, settings: { snapshotMode: 'none', imageResponses: 'omit', consoleLevel: 'error' } };
}

/**
 * Isolation `perClient`: what a client's own context costs (the extra time of a new client's first
 * call over a warm one's, and memory per open context), and eight clients running the scripted
 * session at once through the MCP door, counting failed calls.
 */
async function sessionsRound(fixture: FixtureServer, overrides: Partial<BridgeSettings> = {}) {
  const bridge = makeRealBridge({ isolation: 'perClient', ...overrides });
  const endpoint = new McpEndpoint(bridge.supervisor, 'bench', () => undefined);
  const clients: Client[] = [];
  try {
    const address = await endpoint.start();
    const connect = async (name: string) => {
      const client = await connectMcpClient(address, name);
      clients.push(client);
      return async (tool: string, args: Record<string, unknown>) =>
        (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120000 })) as CallToolResult;
    };
    const timed = async (call: Caller, tool: string, args: Record<string, unknown>) => {
      const started = performance.now();
      const result = await call(tool, args);
      if (result.isError) throw new Error(`sessions: ${tool} failed: ${textOf(result).slice(0, 300)}`);
      return performance.now() - started;
    };
    // The first client launches the clients' browser server: that is cold start, not a context's cost.
    const first = await connect('bench-0');
    await first('bridge_session_list', {});
    const pssNone = treeMemoryMB(bridge.supervisor.status.pid!, 'Pss');
    await timed(first, 'browser_navigate', { url: `${fixture.url}/` });
    const pssOne = treeMemoryMB(bridge.supervisor.status.pid!, 'Pss');
    const extras: number[] = [];
    const callers: Caller[] = [first];
    for (let k = 1; k < 8; k++) {
      const call = await connect(`bench-${k}`);
      const opening = await timed(call, 'browser_navigate', { url: `${fixture.url}/` });
      const warm = await timed(call, 'browser_navigate', { url: `${fixture.url}/` });
      extras.push(opening - warm);
      callers.push(call);
    }
    const pssEight = treeMemoryMB(bridge.supervisor.status.pid!, 'Pss');

    // Eight clients, the whole scripted session each, all at once.
    let failures = 0;
    let calls = 0;
    const started = performance.now();
    await Promise.all(
      callers.map(async call => {
        const state = new Map<string, string>();
        for (const step of session(fixture.url)) {
          calls++;
          try {
            const result = await call(step.name, step.args(state));
            if (result.isError) throw new Error(textOf(result).slice(0, 200));
            step.after?.(result, state);
          } catch (error) {
            failures++;
            if (process.env.BENCH_VERBOSE) console.log(`  sessions: ${step.name} failed: ${(error as Error).message}`);
          }
        }
      }),
    );
    return {
      openMs: Math.round(median(extras)),
      extraMBPerSession: Math.round(((pssEight - pssOne) / 7) * 10) / 10,
      // The other shape, for comparison: what a whole browser server with one page costs.
      browserServerMB: Math.round(pssOne - pssNone),
      concurrentClients: callers.length,
      calls,
      failures,
      concurrentSeconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    await endpoint.dispose();
    await bridge.dispose();
  }
}

/**
 * What Playwright itself costs for one more context with one page (no bridge, no MCP), measured as
 * extraMBPerSession is: a plain Node process with playwright-core launches the same browser as the
 * bridge does, one context is opened to warm it up, then seven more; the PSS of its process tree
 * (Node and browser) grows by rawContextMB per context.
 */
async function rawContextRound(fixture: FixtureServer, viewport = DEFAULT_SETTINGS.viewport): Promise<{ rawContextMB: number }> {
  const host = spawn(process.execPath, [path.join(__dirname, 'rawContextHost.js'), TEST_BROWSER, String(viewport.width), String(viewport.height)], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_PATH: path.join(REPO_ROOT, 'node_modules') },
  });
  const lines: string[] = [];
  let buffer = '';
  host.stdout!.on('data', chunk => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  const answer = async (): Promise<string> => {
    await waitFor(() => lines.length > 0 || host.exitCode !== null, 60000, 'the raw Playwright host to answer');
    const line = lines.shift();
    if (line === undefined) throw new Error(`the raw Playwright host exited (${host.exitCode})`);
    return line;
  };
  const open = async () => {
    host.stdin!.write(`open ${fixture.url}/\n`);
    const line = await answer();
    if (line !== 'ok') throw new Error(`raw context: ${line}`);
  };
  try {
    if ((await answer()) !== 'ready') throw new Error('the raw Playwright host did not start');
    await open();
    const pssOne = treeMemoryMB(host.pid!, 'Pss');
    for (let k = 1; k < 8; k++) await open();
    const pssEight = treeMemoryMB(host.pid!, 'Pss');
    return { rawContextMB: Math.round(((pssEight - pssOne) / 7) * 10) / 10 };
  } finally {
    host.stdin!.end();
    await waitFor(() => host.exitCode !== null, 10000, 'the raw Playwright host to exit').catch(() => host.kill('SIGKILL'));
  }
}

/** sessionsRound, then in the same run the same count of bare contexts, and what the bridge adds over those. */
async function sessionsWithRawContexts(fixture: FixtureServer) {
  const sessions = await sessionsRound(fixture);
  const { rawContextMB } = await rawContextRound(fixture);
  const bridgePerRawContext = rawContextMB > 0 ? Math.round((sessions.extraMBPerSession / rawContextMB) * 100) / 100 : undefined;
  return { ...sessions, rawContextMB, bridgePerRawContext };
}

function sessionsLine(sessions: Awaited<ReturnType<typeof sessionsWithRawContexts>>): string {
  return (
    `sessions (perClient): a new client's context +${sessions.openMs} ms on its first call, +${sessions.extraMBPerSession} MB PSS each ` +
    `(a bare Playwright context with one page: ${sessions.rawContextMB} MB, ratio x${sessions.bridgePerRawContext}, target <= 1.10; ` +
    `a browser server with its first: ${sessions.browserServerMB} MB); ` +
    `${sessions.concurrentClients} clients x ${session('').length} calls at once in ${sessions.concurrentSeconds} s, ${sessions.failures} failures`
  );
}

/**
 * A browser elsewhere: the scripted session through a loopback Playwright server against a local
 * launch, step by step alternating, and eight isolated clients at once on that one server.
 */
async function remoteRound(fixture: FixtureServer) {
  const server = new PlaywrightServer();
  await server.start();
  const parsed = parseConnection(server.endpoint, SERVER_LAUNCH_HEADERS, false);
  if ('problem' in parsed) throw new Error(parsed.problem);
  const connection = parsed.connection;
  try {
    const local = makeRealBridge();
    const remote = makeRealBridge({ connection });
    const ratios: number[] = [];
    try {
      const states = { local: new Map<string, string>(), remote: new Map<string, string>() };
      const steps = session(fixture.url);
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i];
        const times: Record<string, number> = {};
        for (const [name, bridge] of (i % 2
          ? [
              ['local', local],
              ['remote', remote],
            ]
          : [
              ['remote', remote],
              ['local', local],
            ]) as [keyof typeof states, RealBridge][]) {
          const started = performance.now();
          const result = await bridge.supervisor.callTool(step.name, step.args(states[name]));
          times[name] = performance.now() - started;
          if (result.isError) throw new Error(`remote bench: ${name} ${step.name} failed: ${textOf(result).slice(0, 300)}`);
          step.after?.(result, states[name]);
        }
        if (i > 0) ratios.push(times.remote / times.local);
      }
    } finally {
      await local.dispose();
      await remote.dispose();
    }
    const sessions = await sessionsRound(fixture, { connection });
    return { perCallRatio: Math.round(median(ratios) * 1000) / 1000, sessions: sessions.concurrentClients, calls: sessions.calls, failures: sessions.failures };
  } finally {
    server.kill();
  }
}

function doorCostLine(cost: DoorCostFigures): string {
  return (
    `MCP door alone (instant backend), ms:  a fetch to an empty server ${cost.plainFetchMs}, through the door ${cost.doorFetchMs} ` +
    `(the door's own ${(cost.doorFetchMs - cost.plainFetchMs).toFixed(3)}), with the MCP SDK's client ${cost.doorSdkClientMs}`
  );
}

async function round(fixture: FixtureServer, index: number) {
  // Rotate which door starts first so none always gets the warmer machine.
  const openers = [openBridge, openHttp, openBare];
  const opened: { door: Door; readyMs: number }[] = [];
  // A round that fails (a door that does not open, a step that errs) still closes every door it opened: the bench
  // goes on to the next round, and a bare child or browser left running would weigh on every figure after it.
  try {
    for (let k = 0; k < openers.length; k++) opened.push(await openers[(k + index) % openers.length]());
    return await sessionThroughDoors(
      fixture,
      index,
      Object.fromEntries(opened.map(d => [d.door.name, d])) as Record<DoorName, { door: Door; readyMs: number }>,
    );
  } finally {
    for (const d of opened) await d.door.close().catch(() => undefined);
  }
}

/** The scripted session step by step through the three open doors, rotating which goes first. */
async function sessionThroughDoors(fixture: FixtureServer, index: number, byName: Record<DoorName, { door: Door; readyMs: number }>) {
  const names: DoorName[] = ['bridge', 'http', 'bare'];
  const states = new Map<DoorName, Map<string, string>>(names.map(n => [n, new Map()]));
  const ratios = { bridge: [] as number[], http: [] as number[] };
  const firstCall: Record<string, number> = {};
  const steps = session(fixture.url);
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const times = {} as Record<DoorName, number>;
    const order = names.map((_, k) => names[(k + i + index) % names.length]);
    for (const name of order) {
      const { door } = byName[name];
      const state = states.get(name)!;
      const started = performance.now();
      const result = await door.call(step.name, step.args(state));
      times[name] = performance.now() - started;
      if (result.isError) throw new Error(`${name}: ${step.name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      step.after?.(result, state);
    }
    if (process.env.BENCH_VERBOSE) console.log(`  ${step.name.padEnd(26)} ${names.map(n => `${n} ${times[n].toFixed(1).padStart(7)} ms`).join('   ')}`);
    if (i === 0) Object.assign(firstCall, times);
    // The first call launches the browser: that is cold start, not per-call overhead.
    else {
      ratios.bridge.push(times.bridge / times.bare);
      ratios.http.push(times.http / times.bare);
    }
  }
  const memory = {
    rss: { bridge: treeMemoryMB(byName.bridge.door.pid()!, 'VmRSS'), bare: treeMemoryMB(byName.bare.door.pid()!, 'VmRSS') },
    pss: { bridge: treeMemoryMB(byName.bridge.door.pid()!, 'Pss'), bare: treeMemoryMB(byName.bare.door.pid()!, 'Pss') },
  };
  return {
    ratio: median(ratios.bridge),
    httpRatio: median(ratios.http),
    calls: ratios.bridge.length,
    readyMs: { bridge: byName.bridge.readyMs, bare: byName.bare.readyMs },
    firstNavigateMs: firstCall,
    memory,
  };
}

/** Whether the testExport round's panel-driven session ('the person alone at the panel') replayed green and went red when broken. */
function personExportGreen(testExport: Figure<TestExportFigures>): boolean {
  if (isFailed(testExport)) return false;
  const person = testExport.perScenario.find(scenario => scenario.name === 'the person alone at the panel');
  return !!person && person.runs > 0 && person.passed === person.runs && person.redWhenBroken;
}

/**
 * The live view: frames of an animated page through the panel path (child screencast, store, one
 * frame in flight to a viewer that acknowledges on the next turn), and what streaming costs calls.
 */
/**
 * How long the extension host's event loop stalled at most (a 20 ms ticker's lateness) while a page floods the
 * console with multi-megabyte lines, the panel's store attached: the figure the live-view test only bounds.
 */
async function floodHostLag(bridge: RealBridge, fixture: FixtureServer): Promise<number> {
  let maxLagMs = 0;
  let last = Date.now();
  const ticker = setInterval(() => {
    const now = Date.now();
    maxLagMs = Math.max(maxLagMs, now - last - 20);
    last = now;
  }, 20);
  let over = false;
  const watching = bridge.supervisor.onObservation(event => {
    if (event.kind === 'console' && (event.entry.text === 'flood over' || /not shown: the page logged more than 100 a second/.test(event.entry.text)))
      over = true;
  });
  try {
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/flood` });
    for (const deadline = Date.now() + 15000; !over && Date.now() < deadline;) await new Promise(resolve => setTimeout(resolve, 50));
    return maxLagMs;
  } finally {
    clearInterval(ticker);
    watching.dispose();
  }
}

async function liveViewRound(fixture: FixtureServer) {
  const bridge = makeRealBridge();
  const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
  const latencies: number[] = [];
  let delivered = 0;
  const gate = new FrameGate<FrameMessage>(frame => {
    delivered++;
    latencies.push(Date.now() - frame.producedAt);
    setImmediate(() => gate.ack());
  });
  store.onFrame(frame => gate.offer(frame));
  const streamOn = { enabled: true, maxWidth: 1280, maxHeight: 720, quality: 70 };
  const streamOff = { ...streamOn, enabled: false };
  try {
    bridge.supervisor.setLiveView(streamOn);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/live` });
    await new Promise(resolve => setTimeout(resolve, 1000));
    delivered = 0;
    latencies.length = 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await new Promise(resolve => setTimeout(resolve, 5000));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const fps = delivered / seconds;
    const cpuPercent = ((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100;
    const frameLatencyMs = median(latencies);
    const inputLatencyMs = await inputLatency(bridge);

    // The same calls on the same animated page, in blocks with the stream on and off, alternating:
    // what a person's panel costs the agent, on one browser as in real use.
    const steps: [string, Record<string, unknown>][] = [
      ['browser_snapshot', {}],
      ['browser_take_screenshot', {}],
      ['browser_console_messages', { level: 'info' }],
      ['browser_network_requests', {}],
      ['browser_navigate', { url: `${fixture.url}/live` }],
    ];
    const times = { on: steps.map(() => [] as number[]), off: steps.map(() => [] as number[]) };
    // What the person sees while the calls run back to back (the stream stops for calls; see duringCall).
    let burstMs = 0;
    let burstFrames = 0;
    for (let block = 0; block < 12; block++) {
      const mode = block % 2 ? 'off' : 'on';
      bridge.supervisor.setLiveView(mode === 'on' ? streamOn : streamOff);
      await new Promise(resolve => setTimeout(resolve, 500));
      const framesBefore = delivered;
      const blockStart = performance.now();
      for (let k = 0; k < steps.length; k++) {
        const [name, args] = steps[k];
        const t = performance.now();
        await bridge.supervisor.callTool(name, args);
        times[mode][k].push(performance.now() - t);
      }
      if (mode === 'on') {
        burstMs += performance.now() - blockStart;
        burstFrames += delivered - framesBefore;
      }
    }
    // How much longer the same calls take with the stream on: the per-step medians, summed.
    const total = (mode: 'on' | 'off') => steps.reduce((sum, _, k) => sum + median(times[mode][k]), 0);
    if (process.env.BENCH_VERBOSE)
      steps.forEach(([name], k) =>
        console.log(
          `  live ${name.padEnd(26)} streaming ${median(times.on[k]).toFixed(1).padStart(7)} ms   not ${median(times.off[k]).toFixed(1).padStart(7)} ms`,
        ),
      );
    const floodHostLagMs = await floodHostLag(bridge, fixture);
    return {
      fps,
      frameLatencyMs,
      cpuPercent,
      toolCallRatio: total('on') / total('off'),
      fpsDuringCallBursts: burstFrames / (burstMs / 1000),
      dropped: gate.stats.dropped,
      inputLatencyMs,
      floodHostLagMs,
    };
  } finally {
    store.dispose();
    await bridge.dispose();
  }
}

/**
 * The person's input while the animated page streams: from the moment the host sends a click (as
 * the panel host does on the panel's message) to the page's own mousedown handler, in ms, read from
 * the page's console line with its Date.now() (one machine, one clock). The webview-to-host
 * postMessage hop before it is not in this figure.
 */
async function inputLatency(bridge: RealBridge): Promise<{ median: number; p95: number }> {
  const seen = new Map<number, number>();
  const arrived = new Map<number, () => void>();
  const subscription = bridge.supervisor.onObservation(event => {
    const match = event.kind === 'console' ? /^input-seen (\d+) (\d+)$/.exec(event.entry.text) : null;
    if (!match) return;
    seen.set(Number(match[1]), Number(match[2]));
    arrived.get(Number(match[1]))?.();
  });
  try {
    await bridge.supervisor.callTool('browser_evaluate', {
      function: "() => { let n = 0; addEventListener('mousedown', () => console.log('input-seen ' + (n++) + ' ' + Date.now())); }",
    });
    const sent: number[] = [];
    for (let i = 0; i < 40; i++) {
      const reached = new Promise<void>(resolve => arrived.set(i, resolve));
      sent.push(Date.now());
      bridge.supervisor.sendInput({ kind: 'mouse', action: 'down', x: 0.9, y: 0.9, button: 'left', clickCount: 1 });
      bridge.supervisor.sendInput({ kind: 'mouse', action: 'up', x: 0.9, y: 0.9, button: 'left', clickCount: 1 });
      await clickReached(reached, i, bridge);
      await new Promise(resolve => setTimeout(resolve, 50));
    }
    const latencies = sent.map((at, i) => seen.get(i)! - at).sort((a, b) => a - b);
    return { median: median(latencies), p95: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.95) - 1)] };
  } finally {
    subscription.dispose();
  }
}

/** Long enough for any machine that still works; a click not in the page by then was lost, not slow. */
const CLICK_BOUND_MS = 60000;

/**
 * Until the page reports the click: its latency is the figure, so a slow one is measured, not cut off (a 5 s
 * deadline under load ended the whole bench at "click 7"). Only a click lost fails, in words: the child's own
 * reason when it said it could not apply the input.
 */
async function clickReached(reached: Promise<void>, index: number, bridge: RealBridge): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const lost = new Promise<'lost'>(resolve => {
    timer = setTimeout(() => resolve('lost'), CLICK_BOUND_MS);
  });
  try {
    if ((await Promise.race([reached, lost])) !== 'lost') return;
  } finally {
    clearTimeout(timer);
  }
  const why = bridge.logs.filter(line => /Input not applied/.test(line)).at(-1);
  throw new Error(`click ${index} did not reach the page within ${CLICK_BOUND_MS / 1000} s${why ? `: ${why}` : ''}`);
}

async function withFixture<T>(work: (fixture: FixtureServer) => Promise<T>): Promise<T> {
  const fixture = new FixtureServer();
  await fixture.start();
  try {
    return await work(fixture);
  } finally {
    await fixture.stop();
  }
}

/** The transparency scenario's count: steps, identical, normalized (by a row of src/README.md's "Differences from upstream" table), differing. */
async function transparency(fixture: FixtureServer) {
  const report = await bareAgainstBridge(fixture.url);
  console.log(
    `transparency: ${report.steps} steps, ${report.identical} identical, ${report.normalized} normalized, ${report.differing} differing; ` +
      `normalizations used (steps): ${JSON.stringify(report.rows)}`,
  );
  for (const o of report.outcomes.filter(o => o.verdict === 'differing')) console.log(`  differing: ${o.group} / ${o.step}`);
  return { steps: report.steps, identical: report.identical, normalized: report.normalized, differing: report.differing };
}

/**
 * Where taking upstream's newest release stands: the last `npm run upstream:check` report kept in the repository
 * (the release it checked and the one it compared with, its changes without a decision), the pinned release, and this
 * run's transparency differences that src/README.md's table does not list.
 */
function upstreamFigure(transparent: Figure<{ differing: number }>) {
  const report = fs.existsSync(REPORT_JSON) ? (JSON.parse(fs.readFileSync(REPORT_JSON, 'utf8')) as UpstreamReport) : undefined;
  return {
    version: report?.version ?? null,
    // What the bridge runs now, and the release that report compared it with (the pin it was taken from).
    pinned: (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[
      '@playwright/mcp'
    ],
    comparedWith: report?.pinned ?? null,
    unclassifiedChanges: report?.unclassifiedChanges ?? null,
    transparencyUnlisted: isFailed(transparent) ? null : transparent.differing,
  };
}

/** The per-call rounds' figures: medians over the rounds that finished. */
function perCallFigures(run: BenchRun, rounds: Figure<Awaited<ReturnType<typeof round>>>[]) {
  const over = <T>(summarize: (finished: Awaited<ReturnType<typeof round>>[]) => T) => run.overRounds(rounds, summarize);
  return {
    perCallRatio: over(done => medianOf(done, r => r.ratio)),
    httpDoorRatio: over(done => medianOf(done, r => r.httpRatio)),
    coldStartMs: over(done => ({ bridge: medianOf(done, r => r.readyMs.bridge), bare: medianOf(done, r => r.readyMs.bare) })),
    firstNavigateMs: over(done => ({ bridge: medianOf(done, r => r.firstNavigateMs.bridge), bare: medianOf(done, r => r.firstNavigateMs.bare) })),
    rssMB: over(done => ({ bridge: medianOf(done, r => r.memory.rss.bridge), bare: medianOf(done, r => r.memory.rss.bare) })),
    pssMB: over(done => ({ bridge: medianOf(done, r => r.memory.pss.bridge), bare: medianOf(done, r => r.memory.pss.bare) })),
    perRound: rounds.map(r => (isFailed(r) ? r : { perCallRatio: Math.round(r.ratio * 1000) / 1000, httpDoorRatio: Math.round(r.httpRatio * 1000) / 1000 })),
  };
}

/** The live view's figures: medians over the rounds that finished. */
function liveViewFigures(run: BenchRun, rounds: Figure<Awaited<ReturnType<typeof liveViewRound>>>[]) {
  return run.overRounds(rounds, live => ({
    fps: Math.round(median(live.map(l => l.fps)) * 10) / 10,
    frameLatencyMs: Math.round(median(live.map(l => l.frameLatencyMs))),
    toolCallRatio: Math.round(median(live.map(l => l.toolCallRatio)) * 1000) / 1000,
    fpsDuringCallBursts: Math.round(median(live.map(l => l.fpsDuringCallBursts)) * 10) / 10,
    cpuPercent: Math.round(median(live.map(l => l.cpuPercent)) * 10) / 10,
    inputLatencyMs: { median: Math.round(median(live.map(l => l.inputLatencyMs.median))), p95: Math.round(median(live.map(l => l.inputLatencyMs.p95))) },
    floodHostLagMs: Math.round(median(live.map(l => l.floodHostLagMs))),
  }));
}

function cdpLine(c: CdpFigures): string {
  return (
    `managed CDP endpoint:                 calls with DevTools open x${c.perCallRatio} of bare with DevTools on its own port (target <= 1.05; rounds ${c.perRound.join(', ')}); ` +
    `DevTools' own cost to bare x${c.devtoolsCostRatio}, the bridge with it over bare alone x${c.overBareAloneRatio}; ` +
    `Open DevTools to the DOM shown ${c.devtoolsOpenMs} ms, old address refused after a restart: ${c.revokedAfterRestart}`
  );
}

async function main(): Promise<void> {
  const run = new BenchRun();
  if (process.env.BENCH_TRANSPARENCY_ONLY) {
    const counts = await run.figure('transparency', () => withFixture(transparency));
    const upstream = upstreamFigure(counts);
    console.log(JSON.stringify({ transparency: counts, upstream }));
    run.finish({ transparency: counts, upstream });
    return;
  }
  // BENCH_CDP_ONLY=1 measures only the managed CDP endpoint's figures (cdp).
  if (process.env.BENCH_CDP_ONLY) {
    const cdp = await run.figure('cdp', () => measureCdp());
    run.say('cdp', cdp, cdpLine);
    console.log(JSON.stringify({ cdp }));
    run.finish({ cdp });
    return;
  }
  // BENCH_SESSIONS_ONLY=1 measures only the sessions (perClient) figures, with rawContextMB beside them.
  if (process.env.BENCH_SESSIONS_ONLY) {
    const sessions = await run.figure('sessions', () => withFixture(sessionsWithRawContexts));
    run.say('sessions', sessions, sessionsLine);
    console.log(JSON.stringify({ sessions }));
    run.finish({ sessions }, { write: false });
    return;
  }
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  // BENCH_CALLS_ONLY=1 measures only the per-call rounds (perCallRatio, httpDoorRatio) and the call path.
  if (process.env.BENCH_CALLS_ONLY) {
    const perRound = await withFixture(async fixture => {
      const all: Figure<Awaited<ReturnType<typeof round>>>[] = [];
      for (let i = 0; i < rounds; i++) {
        const r = await run.figure(`calls round ${i + 1}/${rounds}`, () => round(fixture, i));
        all.push(r);
        if (!isFailed(r))
          console.log(`round ${i + 1}/${rounds}: per-call ratio ${r.ratio.toFixed(3)} (MCP door ${r.httpRatio.toFixed(3)}) over ${r.calls} calls`);
      }
      return all;
    });
    const { perCallRatio, httpDoorRatio, perRound: byRound } = perCallFigures(run, perRound);
    const figures = {
      rounds,
      perCallRatio,
      httpDoorRatio,
      perRound: byRound,
      httpDoorCost: await run.figure('httpDoorCost', measureDoorCost),
      callPath: await run.figure('callPath', measureCallPath),
    };
    run.say('httpDoorCost', figures.httpDoorCost, doorCostLine);
    console.log(JSON.stringify(figures));
    run.finish(figures);
    return;
  }
  const fixture = new FixtureServer();
  await fixture.start();
  const results: Figure<Awaited<ReturnType<typeof round>>>[] = [];
  const live: Figure<Awaited<ReturnType<typeof liveViewRound>>>[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const l = await run.figure(`liveView round ${i + 1}/${rounds}`, () => liveViewRound(fixture));
      live.push(l);
      if (!isFailed(l)) {
        console.log(
          `round ${i + 1}/${rounds}: live view ${l.fps.toFixed(1)} fps, frame latency ${l.frameLatencyMs.toFixed(0)} ms, host CPU ${l.cpuPercent.toFixed(1)}%, ` +
            `tool calls while streaming x${l.toolCallRatio.toFixed(3)}, input ${l.inputLatencyMs.median}/${l.inputLatencyMs.p95} ms (median/p95)`,
        );
      }
      // BENCH_LIVE_ONLY=1 measures only the live view (while working on it).
      if (process.env.BENCH_LIVE_ONLY) continue;
      const r = await run.figure(`calls round ${i + 1}/${rounds}`, () => round(fixture, i));
      results.push(r);
      if (!isFailed(r)) {
        console.log(
          `round ${i + 1}/${rounds}: per-call ratio ${r.ratio.toFixed(3)} (MCP door ${r.httpRatio.toFixed(3)}) over ${r.calls} calls; ready ${r.readyMs.bridge.toFixed(0)} / ${r.readyMs.bare.toFixed(0)} ms; ` +
            `first navigate ${r.firstNavigateMs.bridge.toFixed(0)} / ${r.firstNavigateMs.bare.toFixed(0)} ms; tree PSS ${r.memory.pss.bridge.toFixed(0)} / ${r.memory.pss.bare.toFixed(0)} MB (bridge / bare)`,
        );
      }
    }
  } finally {
    await fixture.stop();
  }
  if (process.env.BENCH_LIVE_ONLY) {
    const liveView = liveViewFigures(run, live);
    console.log(JSON.stringify({ liveView }));
    run.finish({ rounds, liveView });
    return;
  }
  const lean = await run.figure('leanOutputs', () => withFixture(leanOutputs));
  run.say('leanOutputs', lean, l => `characters per step: ${l.defaultCharsPerStep} with upstream's defaults, ${l.leanCharsPerStep} lean`);
  const sessions = await run.figure('sessions', () => withFixture(sessionsWithRawContexts));
  const remote = await run.figure('remote', () => withFixture(remoteRound));
  run.say(
    'remote',
    remote,
    r =>
      `remote (loopback Playwright server): per-call x${r.perCallRatio} of a local launch; ${r.sessions} isolated clients at once, ` +
      `${r.calls} calls, ${r.failures} failures`,
  );
  run.say('sessions', sessions, sessionsLine);
  const transparent = await run.figure('transparency', () => withFixture(transparency));
  const callPath = await run.figure('callPath', measureCallPath);
  const httpDoorCost = await run.figure('httpDoorCost', measureDoorCost);
  const testExport = await run.figure('testExport', measureTestExport);
  const timeTravel = await run.figure('timeTravel', measureTimeTravel);
  const panel = await run.figure('panel', measurePanel);
  const devtoolsFigures = await run.figure('devtools', measureDevtools);
  const cdp = await run.figure('cdp', () => measureCdp());
  const perCall = perCallFigures(run, results);
  const figures = {
    rounds,
    perCallRatio: perCall.perCallRatio,
    httpDoorRatio: perCall.httpDoorRatio,
    coldStartMs: perCall.coldStartMs,
    firstNavigateMs: perCall.firstNavigateMs,
    rssMB: perCall.rssMB,
    pssMB: perCall.pssMB,
    leanOutputs: lean,
    sessions,
    remote,
    transparency: transparent,
    upstream: upstreamFigure(transparent),
    httpDoorCost,
    testExport,
    timeTravel,
    // The person's own session at the panel (header actions, take control, typing, Enter, back, reload) exported: green every run, red on the broken app.
    panel: isFailed(panel) ? panel : { ...panel, exportReplaysPerson: personExportGreen(testExport) },
    // The ordinary tools' cost with the DevTools tools available and not in use is the session's own perCallRatio.
    devtools: isFailed(devtoolsFigures) ? devtoolsFigures : { ...devtoolsFigures, perCallRatio: perCall.perCallRatio },
    cdp,
    callPath,
    liveView: liveViewFigures(run, live),
  };
  console.log('');
  run.say('perCallRatio', figures.perCallRatio, ratio => `median per-call ratio (bridge / bare): ${ratio.toFixed(3)}   (target <= 1.02)`);
  run.say('httpDoorRatio', figures.httpDoorRatio, ratio => `MCP door per-call ratio (HTTP / bare): ${ratio.toFixed(3)}   (target <= 1.02)`);
  run.say('httpDoorCost', figures.httpDoorCost, doorCostLine);
  run.say('coldStartMs', figures.coldStartMs, ms => `cold start to ready, ms:              bridge ${ms.bridge.toFixed(0)}, bare ${ms.bare.toFixed(0)}`);
  run.say('firstNavigateMs', figures.firstNavigateMs, ms => `first navigate (browser launch), ms:  bridge ${ms.bridge.toFixed(0)}, bare ${ms.bare.toFixed(0)}`);
  run.say(
    'rssMB',
    figures.rssMB,
    mb => `process tree RSS, MB:                 bridge ${mb.bridge.toFixed(0)}, bare ${mb.bare.toFixed(0)} (RSS counts shared pages once per process)`,
  );
  run.say(
    'pssMB',
    figures.pssMB,
    mb =>
      `process tree PSS, MB:                 bridge ${mb.bridge.toFixed(0)}, bare ${mb.bare.toFixed(0)}; difference ${(mb.bridge - mb.bare).toFixed(0)} MB (target <= 60)`,
  );
  run.say(
    'liveView',
    figures.liveView,
    l =>
      `live view (1280x720 animated page):   ${l.fps} fps (target >= 20), frame latency ${l.frameLatencyMs} ms, extension-host CPU ${l.cpuPercent}% of one core\n` +
      `tool calls while streaming:           x${l.toolCallRatio.toFixed(3)} (target <= 1.10); the stream stops for back-to-back calls: ${l.fpsDuringCallBursts} fps during them\n` +
      `the person's input to the page, ms:   median ${l.inputLatencyMs.median} (target <= 50), p95 ${l.inputLatencyMs.p95} (target <= 100), while streaming`,
  );
  run.say(
    'testExport',
    testExport,
    t =>
      `sessions exported as tests:          ${t.greenAllRepeats} of ${t.scenarios} green in all ${t.repeats} runs ` +
      `(target >= 0.9 of them), ${t.greenFirstTry} green first try, red when the app broke: ${t.detectsBreakage} (target 1.0), ` +
      `model calls in replay ${t.modelCallsInReplay}, export ${t.exportMs} ms`,
  );
  run.say(
    'timeTravel',
    timeTravel,
    t =>
      `time travel (${t.steps}-step session):     scrub p95 ${t.scrubP95Ms} ms (target <= 150), ${t.bytesPerStep} bytes a step ` +
      `(target <= 61440), fork p95 ${t.forkP95Ms} ms (target <= 1500), fidelity ${t.fidelity} over ${t.forksCompared} forks (target 1.0), ` +
      `per call with checkpoints x${t.perCallRatioWithCheckpoints} (target <= 1.05), trace read back in order: ${t.traceActionsInOrder}; ` +
      `on a page with 48 MB in IndexedDB per call x${t.hostilePerCallRatio} (target <= 1.10), child peak ` +
      `${t.hostileChildPeakMB >= 0 ? '+' : ''}${t.hostileChildPeakMB} MB (target <= +100)`,
  );
  run.say(
    'panel',
    panel,
    p =>
      `panel in a real VS Code (${p.rounds} windows): filter keystroke p95 ${p.filterKeystrokeMsP95} ms over 2,000 rows (target <= 50), ` +
      `${p.rowsPerSecondSustained} requests listed a second in a 300/s burst with frames p95 ${p.frameMsP95} ms, max ${p.frameMsMax} (target < 50), ` +
      `a 1 MB request opened p95 ${p.detailOpenMsP95} ms after the pointer rested on it (target <= 150), ${p.detailOpenColdMsP95} ms clicked at once, picture stalls over 2 s ${p.pictureStallsOver2s} (target 0)`,
  );
  run.say(
    'devtools',
    devtoolsFigures,
    d =>
      `DevTools tools (${d.agreement.pages} pages, against DevTools' engine on a trace recorded the same way): LCP within 10 % on ${d.agreement.lcpWithin10pct} of ${d.agreement.lcpPages} ` +
      `(or a frame apart: ${d.agreement.lcpWithin10pctOrOneFrame}), CLS on ${d.agreement.clsWithin10pct}, ` +
      `INP on ${d.agreement.inpWithin10pct} of ${d.agreement.inpPages}, same insights on ${d.agreement.insightsSame} (target: all); ` +
      `beside chrome-devtools-mcp (screenshots on): LCP ${d.chromeDevtoolsMcp.lcpWithin10pct} of ${d.chromeDevtoolsMcp.lcpPages}, INP ${d.chromeDevtoolsMcp.inpWithin10pct} of ${d.chromeDevtoolsMcp.inpPages}, ` +
      `insights ${d.chromeDevtoolsMcp.insightsSame}; audit found ${d.audit.found} of ` +
      `${d.audit.planted} planted, ${d.audit.falsePositivesOnCleanPage} on the clean page (target 0); a trace's overhead x${d.traceOverheadRatio}`,
  );
  run.say('cdp', cdp, cdpLine);
  run.say(
    'callPath',
    callPath,
    c =>
      `one call's path:                      ${c.hostFiles} host files, ${c.childFiles} child files; ` +
      `refusal sites ${c.refusalSites}, result edit sites ${c.resultEditSites} (target 1 each)`,
  );
  run.finish(figures);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
