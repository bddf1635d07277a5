/**
 * The child's call path as one ordered list of named steps (see childCall.ts): before upstream, the call to it,
 * and what follows its answer. A step that ends the call (`ended`) stops the list; the answer's text is read
 * once, when a step first asks for it.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CALL_MARKS_META, type CallMarks } from '../../protocol/callMarks';
import { resultText } from '../../core/results/resultText';
import type { ChildCall, ChildCallEnv, ChildCallStep } from './childCall';
import { checkSecretSites } from './checkSecretSites';
import { forwardToUpstream } from './forwardToUpstream';
import { endInnerSession, markAnswer, observeAndCheckpoint, pausedInDebugger, recordRoutes, traceOfCall, writtenFiles } from './afterAnswer';

export const CHILD_CALL_STEPS: readonly ChildCallStep[] = [
  checkSecretSites,
  forwardToUpstream,
  pausedInDebugger,
  traceOfCall,
  recordRoutes,
  observeAndCheckpoint,
  writtenFiles,
  endInnerSession,
  markAnswer,
];

export async function runChildCall(call: ChildCall, env: ChildCallEnv): Promise<CallToolResult> {
  let text: string | undefined;
  const readText = () => (text ??= resultText(call.result!));
  for (const step of CHILD_CALL_STEPS) {
    await step.run(call, env, readText);
    if (call.ended) return withMarks(call.ended, { ...call.marks, lostBefore: call.lostBefore });
  }
  return withMarks(call.result!, { ...call.marks, lostBefore: call.lostBefore });
}

/**
 * The child's findings on an answer, for the host's pipeline (its `send` step reads them). Marks that came
 * with upstream's answer are not ours and are dropped: only the child writes them.
 */
export function withMarks(result: CallToolResult, marks: CallMarks): CallToolResult {
  const present = Object.fromEntries(Object.entries(marks).filter(([, value]) => value !== undefined));
  const { [CALL_MARKS_META]: _notOurs, ...meta } = result._meta ?? {};
  if (Object.keys(present).length) meta[CALL_MARKS_META] = present;
  return { ...result, _meta: Object.keys(meta).length ? meta : undefined };
}
