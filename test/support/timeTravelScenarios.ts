/**
 * Scripted sessions over the storage-backed apps (test/fixtures/timeTravelApps.ts), played as an agent
 * would (navigate, read, act on refs from the snapshot), and the check that time travel brings a step
 * back as it was: after "Continue from here" to step k, the cookies, local, session and IndexedDB storage,
 * the address and the page's snapshot equal what was recorded at step k. Used by the time travel tests
 * and the bench's timeTravel figures.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import type { TimeTravelApps } from '../fixtures/timeTravelApps';
import { refOf, REPO_ROOT, type RealBridge } from './realBridge';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { Timeline } from '../../src/core/timeTravel/timeline';
import { readSnapshotFile } from '../../src/core/testExport/specFiles';
import type { ScenarioCall } from './exportScenarios';
import type { Supervisor } from '../../src/core/supervision/supervisor';
import { restoreToStep } from '../../src/core/timeTravel/stepRestore';
import { readAnswer } from '../../src/core/testExport/answerSections';
import type { CheckpointStorage } from '../../src/protocol/childMessages';

/** The panel's store and the timeline over a real bridge, wired as the extension wires them. */
export function timelineOf(bridge: RealBridge, maxBytes = 64 * 1024 * 1024): { store: LiveViewStore; timeline: Timeline; dispose(): void } {
  const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
  const timeline = new Timeline(
    {
      onToolCall: bridge.supervisor.onToolCall,
      onObservation: bridge.supervisor.onObservation,
      onMessage: store.onMessage,
      onFrame: store.onFrame,
      clientsIsolated: () => false,
      watchingWindow: () => true,
      readSnapshot: file => readSnapshotFile(file, bridge.config.mcp.outputDir),
      checkpointNow: () => bridge.supervisor.ask('checkpoint', {}).catch(() => undefined),
    },
    () => maxBytes,
  );
  return {
    store,
    timeline,
    dispose: () => {
      timeline.dispose();
      store.dispose();
    },
  };
}

export interface TimeTravelScenario {
  name: string;
  play(call: ScenarioCall, apps: TimeTravelApps): Promise<void>;
}

async function open(call: ScenarioCall, url: string): Promise<string> {
  await call('browser_navigate', { url });
  return call('browser_snapshot', {});
}

export const TIME_TRAVEL_SCENARIOS: TimeTravelScenario[] = [
  {
    name: 'a cart in localStorage',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/cart`);
      await call('browser_click', { element: 'Add apple', target: refOf(page, /button "Add apple"/) });
      await call('browser_click', { element: 'Add pear', target: refOf(page, /button "Add pear"/) });
      await call('browser_click', { element: 'Empty cart', target: refOf(page, /button "Empty cart"/) });
    },
  },
  {
    name: 'a login cookie',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/account`);
      await call('browser_type', { element: 'Name', target: refOf(page, /textbox "Name"/), text: 'ada' });
      await call('browser_click', { element: 'Sign in', target: refOf(page, /button "Sign in"/) });
      const signedIn = await call('browser_snapshot', {});
      await call('browser_click', { element: 'Sign out', target: refOf(signedIn, /button "Sign out"/) });
    },
  },
  {
    name: 'a todo list in IndexedDB',
    async play(call, apps) {
      const page = await open(call, `${apps.url}/todos`);
      for (const text of ['milk', 'bread']) {
        await call('browser_type', { element: 'New todo', target: refOf(page, /textbox "New todo"/), text });
        await call('browser_click', { element: 'Add todo', target: refOf(page, /button "Add todo"/) });
        await call('browser_wait_for', { text });
      }
    },
  },
  {
    name: 'a wizard in sessionStorage',
    async play(call, apps) {
      let page = await open(call, `${apps.url}/wizard`);
      // Played again in the same tab (the bench's long session): the wizard starts over first.
      if (/button "Start over"/.test(page)) {
        await call('browser_click', { element: 'Start over', target: refOf(page, /button "Start over"/) });
        page = await call('browser_snapshot', {});
      }
      await call('browser_click', { element: 'Pro', target: refOf(page, /button "Pro"/) });
      const second = await call('browser_snapshot', {});
      await call('browser_click', { element: 'Yearly', target: refOf(second, /button "Yearly"/) });
    },
  },
];

/** What a fork is compared on: storage (sorted, so order does not count), address, and the snapshot without refs or focus. */
export interface RecordedState {
  url: string;
  storage: string;
  snapshot?: string;
}

export function normalizeStorage(json: string): string {
  const saved = JSON.parse(json) as CheckpointStorage;
  const cookies = [...(saved.state.cookies as { name: string }[])].sort((a, b) => a.name.localeCompare(b.name));
  const origins = [...saved.state.origins].sort((a, b) => a.origin.localeCompare(b.origin));
  return JSON.stringify({ cookies, origins, session: saved.session ?? null });
}

/** Refs are numbered per snapshot, and which element has focus is the page's memory: neither is state that comes back. */
export function normalizeSnapshot(snapshot: string): string {
  return snapshot
    .replace(/ \[ref=[^\]]+\]/g, '')
    .replace(/ \[active\]/g, '')
    .replace(/ \[cursor=pointer\]/g, '')
    .trim();
}

/**
 * Forks to step `index` and compares what the browser then holds with what was recorded there. Returns
 * the differences (none: the step came back as it was).
 */
export async function forkAndCompare(timeline: Timeline, supervisor: Supervisor, index: number): Promise<{ differences: string[]; forkMs: number }> {
  const step = timeline.step(index);
  if (!step?.page || !step.storage) return { differences: [`step ${index} has no checkpoint`], forkMs: 0 };
  const recorded: RecordedState = { url: step.page.value.url, storage: normalizeStorage(step.storage.value), snapshot: step.snapshot?.value };
  const started = performance.now();
  const outcome = await restoreToStep(timeline, supervisor, index, 'person');
  const forkMs = performance.now() - started;
  if (!outcome.ok) return { differences: [outcome.text], forkMs };
  const now = await supervisor.ask('checkpoint', {});
  const snapshotText = await supervisor.callTool('browser_snapshot', {}, { door: 'panel' });
  const differences: string[] = [];
  if (now.url !== recorded.url) differences.push(`url: ${now.url} != ${recorded.url}`);
  const storage = now.storage ? normalizeStorage(now.storage) : '(unchanged?)';
  if (storage !== recorded.storage) differences.push(`storage:\n  now      ${storage}\n  recorded ${recorded.storage}`);
  if (recorded.snapshot !== undefined) {
    const text = snapshotText.content.map(part => (part.type === 'text' ? part.text : '')).join('\n');
    const snapshot = readAnswer(text).snapshot ?? '';
    if (normalizeSnapshot(snapshot) !== normalizeSnapshot(recorded.snapshot)) {
      differences.push(`snapshot:\n--- now\n${normalizeSnapshot(snapshot)}\n--- recorded\n${normalizeSnapshot(recorded.snapshot)}`);
    }
  }
  return { differences, forkMs };
}

/** Playwright's own command line (the one the VSIX ships), run in `cwd` (where `trace open` keeps what it extracted). */
export function traceCli(args: string[], cwd: string): string {
  return execFileSync(process.execPath, [path.join(REPO_ROOT, 'node_modules', 'playwright', 'cli.js'), ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
}

/** `npx playwright trace open` then `trace actions`: the numbered rows of the action list, their titles read back. */
export function readTraceActions(file: string, cwd: string): { title: string; line: string }[] {
  traceCli(['trace', 'open', file], cwd);
  const listed = traceCli(['trace', 'actions'], cwd);
  return listed
    .split('\n')
    .filter(line => /^\s*\d+\.\s/.test(line))
    .map(line => ({
      line,
      // "  3. 0:01.204  3. Clicking “Add pear” (e7)          121ms": the title is between the time and the duration.
      title: line
        .replace(/^\s*\d+\.\s+\S+\s+/, '')
        .replace(/\s+✗\s*$/, '')
        .replace(/\s+\S+\s*$/, '')
        .trim(),
    }));
}
