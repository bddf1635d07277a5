/**
 * timeTravel: a 50-step scripted session over the storage-backed apps (test/fixtures/timeTravelApps.ts),
 * played through two real bridges side by side, one keeping checkpoints and one with time travel off,
 * each call alternating between them, both with the live view on (as with the panel open) and an agent's
 * pause between steps. `npm run bench` writes it as `timeTravel`; `node out/test/bench/timeTravel.js`
 * measures it alone (BENCH_TIME_TRAVEL_ROUNDS, default 3; the figures are medians over rounds).
 *
 * - steps: steps in the session; bytesPerStep: what the timeline keeps (pictures included) over its steps.
 * - perCallRatioWithCheckpoints: median over the session's calls of (call with checkpoints) / (same call without).
 * - scrubP95Ms: the panel's own script (dist/webview/panel-test.js in media/panel.html) in Chromium, its
 *   activity rows clicked one by one: from the host receiving the request to the panel saying the step is drawn.
 * - forkP95Ms: "Continue from here" to 20 steps of the session, each until the browser is there.
 * - fidelity: over every step of the four storage scenarios that changed the page, forks whose cookies,
 *   storages, address and snapshot equal those recorded at the step (test/support/timeTravelScenarios.ts).
 * - traceActionsInOrder: the session saved as a trace and read back with `npx playwright trace actions`
 *   lists the session's steps, in order.
 * - hostilePerCallRatio: on the hostile page that keeps ~48 MB in IndexedDB and writes it on each click
 *   (/hoard), a short session (its "Write" clicked, the page read) through a bridge with time travel and one
 *   without, side by side as above: median over the calls of (with) / (without); target <= 1.10.
 * - hostileChildPeakMB: over that session, the child's peak resident memory (VmHWM) with time travel
 *   minus without; target <= 100.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { chromium } from 'playwright-core';
import { TimeTravelApps } from '../fixtures/timeTravelApps';
import { forkAndCompare, readTraceActions, TIME_TRAVEL_SCENARIOS, timelineOf, traceCli } from '../support/timeTravelScenarios';
import { makeRealBridge, RealBridge, refOf, REPO_ROOT, TEST_BROWSER, textOf } from '../support/realBridge';
import { median } from '../support/median';
import { peakRssMB } from '../support/processMemory';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { Timeline } from '../../src/core/timeTravel/timeline';
import { restoreToStep } from '../../src/core/timeTravel/stepRestore';
import { sessionTrace } from '../../src/core/timeTravel/traceFile';
import type { HostToPanel, PanelToHost } from '../../src/protocol/panelMessages';

export interface TimeTravelFigures {
  steps: number;
  scrubP95Ms: number;
  bytesPerStep: number;
  forkP95Ms: number;
  fidelity: number;
  perCallRatioWithCheckpoints: number;
  forksCompared: number;
  /** Steps whose own picture was drawn before the next step began (the rest show an earlier one, saying so). */
  stepsWithPicture: number;
  traceActionsInOrder: boolean;
  hostilePerCallRatio: number;
  hostileChildPeakMB: number;
  rounds: number;
  perRound: { perCallRatio: number; scrubP95Ms: number; bytesPerStep: number; forkP95Ms: number; hostilePerCallRatio: number; hostileChildPeakMB: number }[];
}

const SESSION_STEPS = 50;
/** An agent's pause between steps: the panel draws the page after each one. */
const THINK_MS = 300;
const LIVE_VIEW = { enabled: true, maxWidth: 1280, maxHeight: 720, quality: 70 };

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

const withTimeline = (bridge: RealBridge) => timelineOf(bridge);

/** The session's steps, as an agent plays them: read the page, act on refs from it. Calls `step` for each. */
async function playSession(apps: TimeTravelApps, step: (tool: string, args: Record<string, unknown>) => Promise<string>): Promise<void> {
  let count = 0;
  const call = async (tool: string, args: Record<string, unknown>) => {
    count++;
    return step(tool, args);
  };
  while (count < SESSION_STEPS) {
    for (const scenario of TIME_TRAVEL_SCENARIOS) {
      if (count >= SESSION_STEPS) break;
      await scenario.play(call, apps);
    }
    if (count >= SESSION_STEPS) break;
    await call('browser_navigate', { url: `${apps.url}/form` });
    const form = await call('browser_snapshot', {});
    await call('browser_type', { element: 'Name', target: refOf(form, /textbox "Name"/), text: 'Grace' });
    await call('browser_click', { element: 'Send', target: refOf(form, /button "Send"/) });
  }
}

/** The panel's webview script in Chromium, fed by the host's timeline: clicks each activity row and times request to drawn. */
async function measureScrub(store: LiveViewStore, timeline: Timeline): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: TEST_BROWSER });
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
    const html = fs
      .readFileSync(path.join(REPO_ROOT, 'media', 'panel.html'), 'utf8')
      .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
      .replace(/<script[^>]*><\/script>/, '')
      .replace(/\{\{\w+\}\}/g, '');
    const times: number[] = [];
    let pending: { index: number; at: number; done: () => void } | undefined;
    const deliver = (message: HostToPanel) => page.evaluate(m => window.dispatchEvent(new MessageEvent('message', { data: m })), message);
    await page.exposeBinding('bridgePost', async (_source, message: PanelToHost) => {
      if (message.type === 'showStep' && message.callId !== null) {
        const at = performance.now();
        const found = timeline.viewOfCall(message.callId, true);
        if ('view' in found) {
          pending = { index: found.view.index, at, done: pending?.done ?? (() => undefined) };
          await deliver({ type: 'stepView', view: found.view });
        }
      } else if (message.type === 'stepDrawn' && pending?.index === message.index) {
        times.push(performance.now() - pending.at);
        pending.done();
      }
    });
    await page.setContent(html);
    await page.addScriptTag({
      content: 'window.acquireVsCodeApi = () => ({ postMessage: m => window.bridgePost(m), getState: () => undefined, setState: () => undefined });',
    });
    await page.addScriptTag({ content: fs.readFileSync(path.join(REPO_ROOT, 'dist', 'webview', 'panel-test.js'), 'utf8') });
    await deliver(store.snapshot());
    await page.click('#tab-activity');
    for (const step of timeline.steps) {
      const drawn = new Promise<void>(resolve => {
        pending = { index: -1, at: 0, done: resolve };
      });
      await page.click(`#activity-list li.call[data-call-id="${step.callId}"]`);
      await Promise.race([drawn, new Promise(resolve => setTimeout(resolve, 5000))]);
    }
    return times;
  } finally {
    await browser.close();
  }
}

/**
 * Two bridges side by side, one keeping checkpoints (with its timeline) and one with time travel off, both with
 * the live view on. `call` runs one call on both and, when `measured`, keeps the ratio of their times; which goes
 * first alternates, so neither always runs on a machine the other just warmed.
 */
function sideBySide() {
  const withCheckpoints = makeRealBridge();
  const without = makeRealBridge({ timeTravel: false });
  const parts = withTimeline(withCheckpoints);
  for (const bridge of [withCheckpoints, without]) bridge.supervisor.setLiveView(LIVE_VIEW);
  const ratios: number[] = [];
  const call = async (tool: string, args: Record<string, unknown>, measured = true): Promise<string> => {
    const order = ratios.length % 2 ? [without, withCheckpoints] : [withCheckpoints, without];
    const took = new Map<RealBridge, number>();
    let text = '';
    for (const bridge of order) {
      const started = performance.now();
      const result = await bridge.supervisor.callTool(tool, args);
      took.set(bridge, performance.now() - started);
      if (result.isError) throw new Error(`${tool} failed: ${textOf(result).slice(0, 300)}`);
      if (bridge === withCheckpoints) text = textOf(result);
    }
    if (measured) ratios.push(took.get(withCheckpoints)! / took.get(without)!);
    return text;
  };
  const dispose = async () => {
    parts.timeline.dispose();
    parts.store.dispose();
    await withCheckpoints.dispose();
    await without.dispose().catch(() => undefined);
  };
  return { withCheckpoints, without, ...parts, ratios, call, dispose };
}

async function measureRound(
  apps: TimeTravelApps,
  work: string,
  saveTrace: boolean,
): Promise<{
  perCallRatio: number;
  scrubP95Ms: number;
  bytesPerStep: number;
  forkP95Ms: number;
  steps: number;
  stepsWithPicture: number;
  traceInOrder?: boolean;
}> {
  const both = sideBySide();
  const { withCheckpoints, without, ratios } = both;
  try {
    await playSession(apps, async (tool, args) => {
      await new Promise(resolve => setTimeout(resolve, THINK_MS));
      return both.call(tool, args);
    });
    await new Promise(resolve => setTimeout(resolve, THINK_MS));
    // The rest measures one bridge, as a person has it: the comparison bridge goes.
    await without.dispose();
    const { timeline, store } = both;
    await timeline.settled();
    const steps = timeline.steps.length;
    const stepsWithPicture = timeline.steps.filter(step => step.frame).length;
    const bytesPerStep = timeline.keptBytes / steps;
    const scrubs = await measureScrub(store, timeline);
    let traceInOrder: boolean | undefined;
    if (saveTrace) {
      const file = path.join(work, 'session.zip');
      fs.writeFileSync(file, sessionTrace(timeline.steps, { browserName: 'chromium', viewport: { width: 1280, height: 720 }, title: 'timeTravel bench' }));
      const actions = readTraceActions(file, work);
      traceInOrder = actions.length === steps && actions.every((action, i) => action.title === `${timeline.steps[i].index}. ${timeline.steps[i].title}`);
      traceCli(['trace', 'close'], work);
    }
    const forks: number[] = [];
    for (let i = 0; i < 20; i++) {
      const index = timeline.steps[Math.floor((i * 7919) % steps)].index;
      const started = performance.now();
      const outcome = await restoreToStep(timeline, withCheckpoints.supervisor, index, 'person');
      if (outcome.ok) forks.push(performance.now() - started);
    }
    if (process.env.BENCH_VERBOSE) console.log(`forks (ms): ${forks.map(Math.round).join(' ')}; scrubs (ms): ${scrubs.map(Math.round).join(' ')}`);
    return { perCallRatio: median(ratios), scrubP95Ms: p95(scrubs), bytesPerStep, forkP95Ms: p95(forks), steps, stepsWithPicture, traceInOrder };
  } finally {
    await both.dispose();
  }
}

/** Calls on the hostile page after it filled: its "Write" clicked and the page read, this many times each. */
const HOSTILE_CLICKS = 8;

/**
 * The hostile page (~48 MB in IndexedDB, a write on each click) through a bridge with time travel and one
 * without, each call alternating between them: the per-call ratio, and the children's peak memory.
 */
async function measureHostileRound(apps: TimeTravelApps): Promise<{ perCallRatio: number; childPeakMB: number }> {
  const sides = sideBySide();
  const { withCheckpoints, without, ratios } = sides;
  const both = sides.call;
  try {
    await both('browser_navigate', { url: `${apps.url}/hoard` }, false);
    await both('browser_wait_for', { text: 'Stored 48 MB' }, false);
    let page = await both('browser_snapshot', {}, false);
    for (let i = 0; i < HOSTILE_CLICKS; i++) {
      await new Promise(resolve => setTimeout(resolve, THINK_MS));
      await both('browser_click', { element: 'Write', target: refOf(page, /button "Write"/) }, true);
      await new Promise(resolve => setTimeout(resolve, THINK_MS));
      page = await both('browser_snapshot', {}, true);
    }
    await sides.timeline.settled();
    const childPeakMB = peakRssMB(withCheckpoints.supervisor.status.pid!) - peakRssMB(without.supervisor.status.pid!);
    if (process.env.BENCH_VERBOSE) console.log(`hostile ratios: ${ratios.map(r => r.toFixed(2)).join(' ')}; child peak +${childPeakMB.toFixed(0)} MB`);
    return { perCallRatio: median(ratios), childPeakMB };
  } finally {
    await sides.dispose();
  }
}

/** Every step of the four storage scenarios that changed the page, forked to and compared; each scenario from a cold browser. */
async function measureFidelity(apps: TimeTravelApps): Promise<{ equal: number; compared: number; differences: string[] }> {
  let equal = 0;
  let compared = 0;
  const differences: string[] = [];
  for (const scenario of TIME_TRAVEL_SCENARIOS) {
    const bridge = makeRealBridge();
    const parts = withTimeline(bridge);
    try {
      await scenario.play(async (tool, args) => {
        const result = await bridge.supervisor.callTool(tool, args);
        if (result.isError) throw new Error(`${scenario.name}: ${tool} failed: ${textOf(result).slice(0, 300)}`);
        return textOf(result);
      }, apps);
      await parts.timeline.settled();
      const changing = parts.timeline.steps.filter(step => step.page && step.page !== parts.timeline.step(step.index - 1)?.page).map(step => step.index);
      for (const index of [...changing].reverse()) {
        const outcome = await forkAndCompare(parts.timeline, bridge.supervisor, index);
        compared++;
        if (outcome.differences.length) differences.push(`${scenario.name}, step ${index}: ${outcome.differences.join('; ')}`);
        else equal++;
      }
    } finally {
      parts.timeline.dispose();
      parts.store.dispose();
      await bridge.dispose();
    }
  }
  return { equal, compared, differences };
}

export async function measureTimeTravel(rounds = Number(process.env.BENCH_TIME_TRAVEL_ROUNDS ?? 3)): Promise<TimeTravelFigures> {
  const apps = new TimeTravelApps();
  await apps.start();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-timetravel-'));
  try {
    const perRound: (Awaited<ReturnType<typeof measureRound>> & { hostile: Awaited<ReturnType<typeof measureHostileRound>> })[] = [];
    for (let round = 0; round < rounds; round++) perRound.push({ ...(await measureRound(apps, work, round === 0)), hostile: await measureHostileRound(apps) });
    const fidelity = await measureFidelity(apps);
    if (fidelity.differences.length) console.log(`timeTravel fidelity differences:\n${fidelity.differences.join('\n')}`);
    const m = (pick: (r: (typeof perRound)[number]) => number) => median(perRound.map(pick));
    return {
      steps: perRound[0].steps,
      scrubP95Ms: round1(m(r => r.scrubP95Ms)),
      bytesPerStep: Math.round(m(r => r.bytesPerStep)),
      forkP95Ms: Math.round(m(r => r.forkP95Ms)),
      fidelity: fidelity.compared ? Math.round((fidelity.equal / fidelity.compared) * 1000) / 1000 : 0,
      perCallRatioWithCheckpoints: Math.round(m(r => r.perCallRatio) * 1000) / 1000,
      forksCompared: fidelity.compared,
      stepsWithPicture: perRound[0].stepsWithPicture,
      traceActionsInOrder: perRound[0].traceInOrder === true,
      hostilePerCallRatio: Math.round(m(r => r.hostile.perCallRatio) * 1000) / 1000,
      hostileChildPeakMB: Math.round(m(r => r.hostile.childPeakMB)),
      rounds,
      perRound: perRound.map(r => ({
        perCallRatio: Math.round(r.perCallRatio * 1000) / 1000,
        scrubP95Ms: round1(r.scrubP95Ms),
        bytesPerStep: Math.round(r.bytesPerStep),
        forkP95Ms: Math.round(r.forkP95Ms),
        hostilePerCallRatio: Math.round(r.hostile.perCallRatio * 1000) / 1000,
        hostileChildPeakMB: Math.round(r.hostile.childPeakMB),
      })),
    };
  } finally {
    await apps.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  measureTimeTravel().then(
    figures => {
      console.log(JSON.stringify({ timeTravel: figures }, null, 2));
      if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, `${JSON.stringify({ timeTravel: figures }, null, 2)}\n`);
    },
    error => {
      console.error(error);
      process.exit(1);
    },
  );
}
