/**
 * The `egress` section of `npm run harden`: what the extension host keeps, and what leaves it. So far one
 * figure: the host heap's growth after refused calls with megabytes of arguments, through the MCP door and
 * the language-model path, with every consumer that keeps calls attached as the extension attaches them (the
 * step journal, time travel's timeline, the panel's store). Each is bounded in bytes
 * (src/core/egress/byteBounds.ts); before the bounds, 60 such calls left +249 to +346 MB in the host heap.
 * More fields of the section are added to the object `egressFigures` returns.
 */
import * as path from 'path';
import * as v8 from 'v8';
import Mocha from 'mocha';
import * as vm from 'vm';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import type { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import type { Timeline } from '../../src/core/timeTravel/timeline';
import { timelineOf } from '../support/timeTravelScenarios';
import { median } from '../support/median';
import { connectMcpClient, makeRealBridge, RealBridge, REPO_ROOT, textOf } from '../support/realBridge';

const MB = 1024 * 1024;

export interface EgressFigures {
  /** Host heap growth (MB, after gc) over one round of refused calls: the median of the rounds. Target: at most 20. */
  hostHeapAfterRefusedMB: number;
  /** Each round's growth, MB. */
  roundsMB: number[];
  /** Calls per round (half through each door) and the size of each one's arguments, bytes. */
  calls: number;
  argumentBytes: number;
  /** Calls that were not refused (each must be: the arguments are over the bridge's 1 MB). */
  notRefused: number;
  /** What the consumers count as kept at the end, bytes (their own measures). */
  kept: { journal: number; timeline: number; store: number };
}

/** A real bridge with its MCP door and every consumer of its calls, wired as the extension wires them (isolation `shared`: every call is a window step). */
export interface KeepingBridge {
  bridge: RealBridge;
  client: Client;
  journal: StepJournal;
  timeline: Timeline;
  store: LiveViewStore;
  dispose(): Promise<void>;
}

export async function keepingBridge(): Promise<KeepingBridge> {
  const bridge = makeRealBridge({ isolation: 'shared' });
  const { store, timeline, dispose: disposeTimeline } = timelineOf(bridge);
  const journal = new StepJournal(bridge.supervisor, () => false);
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-harden', () => undefined);
  const address = await endpoint.start();
  const client = await connectMcpClient(address, 'egress');
  return {
    bridge,
    client,
    journal,
    timeline,
    store,
    async dispose() {
      await client.close().catch(() => undefined);
      await endpoint.dispose();
      journal.dispose();
      disposeTimeline();
      await bridge.dispose();
    },
  };
}

/**
 * `calls` calls with `argumentBytes` of arguments each (a text to type), every other one through the MCP door
 * and the others through the language-model path (the supervisor's `tool` door, as chat's tools call it).
 * Each is built when sent, so that no two share their text. Returns how many were not refused.
 */
export async function sendRefusedCalls(rig: KeepingBridge, calls: number, argumentBytes = 3 * MB): Promise<number> {
  let notRefused = 0;
  for (let i = 0; i < calls; i++) {
    const args = { element: 'Search box', target: 'e12', text: `${i} `.padEnd(argumentBytes, 'x') };
    const result =
      i % 2 === 0
        ? ((await rig.client.callTool({ name: 'browser_type', arguments: args }, undefined, { timeout: 60000 })) as CallToolResult)
        : await rig.bridge.supervisor.callTool('browser_type', args);
    if (!result.isError || !/bytes per call/.test(textOf(result))) notRefused++;
  }
  return notRefused;
}

/** V8's gc: the flag given (`npm run harden` runs node with --expose-gc), or turned on here (mocha runs without it). */
function collector(): () => void {
  const given = (globalThis as { gc?: () => void }).gc;
  if (given) return given;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

async function settledHeap(gc: () => void): Promise<number> {
  // Twice, with a turn of the event loop between: sockets and timers let go of what they held.
  for (let i = 0; i < 2; i++) {
    await new Promise(resolve => setTimeout(resolve, 100));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

export async function egressFigures(options: { calls?: number; rounds?: number; argumentBytes?: number } = {}): Promise<EgressFigures> {
  const calls = options.calls ?? 60;
  const rounds = options.rounds ?? 3;
  const argumentBytes = options.argumentBytes ?? 3 * MB;
  const gc = collector();
  const rig = await keepingBridge();
  try {
    // The child started, and each path's code run once, before anything is measured.
    await rig.bridge.supervisor.callTool('browser_navigate', { url: 'about:blank' });
    let notRefused = await sendRefusedCalls(rig, 2, argumentBytes);
    const roundsMB: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const before = await settledHeap(gc);
      notRefused += await sendRefusedCalls(rig, calls, argumentBytes);
      const after = await settledHeap(gc);
      roundsMB.push(Math.round(((after - before) / MB) * 10) / 10);
    }
    return {
      hostHeapAfterRefusedMB: median(roundsMB),
      roundsMB,
      calls,
      argumentBytes,
      notRefused,
      kept: { journal: rig.journal.keptBytes, timeline: rig.timeline.keptBytes, store: rig.store.keptBytes },
    };
  } finally {
    await rig.dispose();
  }
}

/**
 * The attacks on what leaves the bridge, each written once as a test (a hostile page, a second MCP client, a
 * refused URL, a hostile request pasted into real shells, secrets of every printable ASCII character spread by their
 * own site into everything a browser writes): test/real/egressAttacks.test.ts, test/real/curlPaste.test.ts and
 * test/real/secretSpellings.test.ts. `attacks` counts them, `held` those that held; `held === attacks` is the target.
 */
export async function egressAttacks(): Promise<{ attacks: number; held: number; broken: string[] }> {
  const mocha = new Mocha({ timeout: 180_000, reporter: 'dot' });
  for (const file of ['egressAttacks.test.js', 'curlPaste.test.js', 'secretSpellings.test.js'])
    mocha.addFile(path.join(REPO_ROOT, 'out', 'test', 'real', file));
  const broken: string[] = [];
  return new Promise(resolve => {
    const runner = mocha.run(() =>
      resolve({ attacks: (runner.stats?.passes ?? 0) + broken.length + (runner.stats?.pending ?? 0), held: runner.stats?.passes ?? 0, broken }),
    );
    runner.on('fail', test => broken.push(test.fullTitle()));
  });
}
