/**
 * "Continue from here": the browser put back to a step of the timeline, and the words that say what that
 * did and did not bring back, the same for the panel's button (told to the model at its next call) and
 * chat's bridge_restore_step (its answer).
 */
import type { CheckpointFacts } from '../../protocol/childMessages';
import type { Door } from '../../protocol/panelMessages';
import type { Supervisor } from '../supervision/supervisor';
import type { Timeline } from './timeline';
export { RESTORE_OFF } from './timeline';

/** What is never brought back, in the words README uses too. */
/** Why no step can be restored in this window: one sentence for the panel's view and the refused restore. */

export const NOT_RESTORED = "in-page memory, the tab's back/forward history and the server's own state were not restored";

export interface RestoreOutcome {
  ok: boolean;
  text: string;
  /** The state the browser was put in: chat's restore is a call of the pipeline, whose step carries it. */
  checkpoint?: CheckpointFacts;
}

/** Which step `stepsBack` means: 1 is the state before the last step (after the one before it). */
export function stepFromEnd(timeline: Timeline, stepsBack: number): number {
  const last = timeline.steps.at(-1)?.index ?? 0;
  return last - stepsBack;
}

export async function restoreToStep(timeline: Timeline, supervisor: Supervisor, index: number, door: Door): Promise<RestoreOutcome> {
  await timeline.settled(index);
  const target = timeline.restoreTarget(index);
  if ('problem' in target) return { ok: false, text: target.problem };
  const step = timeline.step(index)!;
  const after = timeline.step(index + 1);
  const where = step.page?.value.title || target.url;
  // A step's context is what comes back: the session's own, or the named one its tab was in (the others stay as they are).
  const inContext = target.context === undefined ? '' : `, in the isolated context ${JSON.stringify(target.context)}`;
  const others = target.context === undefined ? '' : ' Only that context was put back: tabs of other contexts are as they were.';
  const text =
    `The browser was restored to step ${index} (${where}${inContext}${after ? `, before ${after.title}` : ''}). ` +
    `State after it is gone; ${NOT_RESTORED}.${others} Element refs from earlier snapshots no longer apply: take a new snapshot.`;
  let checkpoint: CheckpointFacts;
  try {
    checkpoint = await supervisor.restoreCheckpoint(target, {
      door,
      title: `Restored to step ${index} (${where})`,
      args: { step: index },
      // The panel's restore is told to the model at its next call; chat's own reads it in its answer.
      ...(door === 'tool' || door === 'mcp' ? {} : { notice: text }),
    });
  } catch (error) {
    return { ok: false, text: `The browser could not be restored to step ${index}: ${(error as Error).message.split('\n')[0]}` };
  }
  return { ok: true, text, checkpoint };
}
