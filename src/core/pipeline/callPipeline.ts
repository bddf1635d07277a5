/**
 * A tool call from any door, as one ordered list of named steps: the answer to "why was this call
 * refused?" or "where does this sentence come from?" is one of the files this list names. Steps before
 * the call may refuse it (it then goes no further); the steps after it read the child's answer and its
 * marks. Everything decided goes into one CallResult, finished once.
 */
import type { CallContext, CallEnvironment, CallStep } from './callContext';
import { argumentCheckStep } from './steps/argumentCheck';
import { browserLostStep } from './steps/browserLost';
import { capabilitiesStep } from './steps/capabilities';
import { childMarksStep } from './steps/childMarks';
import { connectStep } from './steps/connect';
import { filePathsStep } from './steps/filePaths';
import { personControlStep } from './steps/personControl';
import { sendStep } from './steps/send';
import { panelNotesStep } from './steps/panelNotes';
import { toolPolicyStep } from './steps/toolPolicy';
import { hostAnswerStep } from './steps/hostAnswer';
import { toolRecord } from '../tools/toolRegistry';
import { runCodeForClientsStep, runCodeSourceStep } from './tools/runCode';

/** Before the call, in order: the first refusal ends the call (nothing later runs, nothing is sent). */
export const BEFORE_CALL: readonly CallStep[] = [
  // Decided from the call alone, before anything starts: a refused call reaches neither the child nor the browser.
  runCodeSourceStep,
  capabilitiesStep,
  toolPolicyStep,
  personControlStep,
  // From here on the child runs (started if needed).
  connectStep,
  argumentCheckStep,
  runCodeForClientsStep,
  filePathsStep,
];

/**
 * A tool the host answers itself (its record's handler is `host`): the same checks, with no child to start
 * for them (a handler that needs the browser asks the supervisor), then `hostAnswer` in place of `send`.
 */
export const BEFORE_HOST_ANSWER: readonly CallStep[] = [capabilitiesStep, toolPolicyStep, personControlStep, argumentCheckStep];

/** After an answer came back, in order: the child's marks in words, then the notes before the result. */
export const AFTER_CALL: readonly CallStep[] = [childMarksStep, browserLostStep, panelNotesStep];

/** Runs the steps; the result is in `call.result`. Throws only a cancellation or a failure to start the child. */
export async function runCallPipeline(call: CallContext, env: CallEnvironment): Promise<void> {
  // Awaited only when a step has something to wait for: the child starts in the turn the call was made.
  const runSteps = (steps: readonly CallStep[]): boolean | Promise<boolean> => {
    for (let i = 0; i < steps.length; i++) {
      const pending = steps[i].run(call, env);
      if (pending) return pending.then(() => !call.result.refused && runSteps(steps.slice(i + 1)));
      if (call.result.refused) return false;
    }
    return true;
  };
  // One after-call loop for every answer, the host's or the child's; a call with no answer has nothing to add to.
  const afterAnswer = async () => {
    if (!call.result.answered) return;
    for (const step of AFTER_CALL) await step.run(call, env);
  };
  if (toolRecord(call.name)?.handler === 'host') {
    if (!(await runSteps(BEFORE_HOST_ANSWER))) return;
    await hostAnswerStep.run(call, env);
    return afterAnswer();
  }
  // The steps from the tool policy on are run again for a resend: the arguments as they were before them.
  const recheckFrom = BEFORE_CALL.indexOf(toolPolicyStep);
  const decided = runSteps(BEFORE_CALL.slice(0, recheckFrom));
  if (!(typeof decided === 'boolean' ? decided : await decided)) return;
  const argsBeforeChecks = call.args;
  const checked = runSteps(BEFORE_CALL.slice(recheckFrom));
  if (!(typeof checked === 'boolean' ? checked : await checked)) return;
  await sendStep.run(call, env);
  if (call.resend) {
    // The child had gone before the call left: the replacement gets it, checked again as a new call to that
    // child (the policy and the person's control as they are now, its own output folder and isolation).
    call.resend = false;
    call.resent = true;
    call.args = argsBeforeChecks;
    if (!(await runSteps(BEFORE_CALL.slice(recheckFrom)))) return;
    await sendStep.run(call, env);
  }
  return afterAnswer();
}
