/**
 * One export, start to end, without `vscode`: the steps chosen, the test written to its file (never over
 * another file), run with Playwright Test, and what the run says about each step.
 */
import * as fs from 'fs';
import * as path from 'path';
import { RunOptions, runSpec, SpecRun } from './specRunner';
import { SpecOptions, writeSpec, WrittenSpec } from './specWriter';
import type { JournalStep } from './stepJournal';
import { PERSON_ACTIONS } from '../supervision/activityLog';

/** Where a step was, when it did not say: never one of a secret's sites. */
const UNKNOWN_ORIGIN = '(unknown)';

/** How each exported step fared in the run (the panel marks its activity rows with it). */
export type StepVerdict = 'passed' | 'failed' | 'notReached';

export interface ExportResult {
  file: string;
  spec: WrittenSpec;
  run: SpecRun;
  /** By journal step index, for the steps that put lines in the test. */
  verdicts: { step: number; verdict: StepVerdict }[];
  /** The step whose line failed first, when the failure is on a step's line. */
  failedStep?: number;
}

/** The steps between two journal indexes (inclusive); all of them when none is given. */
export function stepsBetween(steps: readonly JournalStep[], from?: number, to?: number): JournalStep[] {
  return steps.filter(s => (from === undefined || s.index >= from) && (to === undefined || s.index <= to));
}

/**
 * The origins the test goes to: its baseURL, the pages the exported steps were on with every frame in them
 * (as the child saw them), and every web address written in the test. A secret is given to a run only when all
 * are its sites (and never when there are none): a frame of another site on the secret's page could be where
 * a recorded step types it. The person's recorded step with no origins said (an older child) counts as unknown.
 */
export function visitedOrigins(steps: readonly JournalStep[], spec: WrittenSpec): string[] {
  const exported = new Set(spec.stepLines.map(s => s.step));
  const origins = new Set<string>(spec.baseURL ? [spec.baseURL] : []);
  const written = [...spec.text.matchAll(/['"](https?:\/\/[^'"\s]+)/gi)].map(m => m[1]);
  for (const url of written) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // Not an address.
    }
  }
  for (const step of steps) {
    if (!exported.has(step.index)) continue;
    for (const origin of step.origins ?? (step.tool === PERSON_ACTIONS ? [UNKNOWN_ORIGIN] : [])) origins.add(origin);
    for (const url of [step.answer.pageUrl, typeof step.args.url === 'string' ? step.args.url : undefined]) {
      try {
        if (url) origins.add(new URL(url).origin);
      } catch {
        // Not an address.
      }
    }
  }
  return [...origins];
}

/** Writes the test; replaces a file that is there only when the person chose to (a save dialog asked). */
export function writeSpecFile(steps: readonly JournalStep[], file: string, options: SpecOptions & { replace?: boolean }): WrittenSpec {
  const spec = writeSpec(steps, options);
  if (!spec.stepLines.length)
    throw new Error("Nothing to export: none of these steps did something a test can repeat (reads, failed calls and the bridge's own tools leave nothing).");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // 'wx': a file that exists (the person's own) is never replaced.
  fs.writeFileSync(file, spec.text, { flag: options.replace ? 'w' : 'wx' });
  return spec;
}

/** Runs the written test and says how each step fared. */
export async function verifySpec(file: string, spec: WrittenSpec, run: Omit<RunOptions, 'specFile'>): Promise<ExportResult> {
  const result = await runSpec({ ...run, specFile: file });
  const line = result.firstFailure?.line;
  const failing = line === undefined ? undefined : spec.stepLines.find(s => line >= s.from && line <= s.to);
  // A failing line after every step's lines is one of the final checks: every step ran.
  const inFinalChecks = line !== undefined && !failing && spec.stepLines.every(s => line > s.to);
  let reached = true;
  const verdicts = spec.stepLines.map(s => {
    if (result.failed === 0 || inFinalChecks) return { step: s.step, verdict: 'passed' as const };
    if (!failing) return { step: s.step, verdict: 'notReached' as const };
    if (s === failing) {
      reached = false;
      return { step: s.step, verdict: 'failed' as const };
    }
    return { step: s.step, verdict: reached ? ('passed' as const) : ('notReached' as const) };
  });
  return { file, spec, run: result, verdicts, ...(failing ? { failedStep: failing.step } : {}) };
}
