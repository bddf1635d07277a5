/**
 * The call goes to the child, at most once. Only a call that provably never left us (the child had
 * already gone) is sent again, to the replacement, and only once more (the pipeline does that: `resend`). The child's marks on its answer
 * are read here for the steps after the call.
 */
import { CALL_MARKS_META, CallMarksSchema } from '../../../protocol/callMarks';
import { NotSentError } from '../../childProcess/childProcess';
import type { CallStep } from '../callContext';
import { CancelledError } from './cancelled';
import { contextOfCall } from '../../supervision/contextNotes';

export const sendStep: CallStep = {
  name: 'send',
  async run(call, env) {
    {
      const connection = call.connection!;
      // Taken now so that two calls never both tell it; given back below when this call never got an answer.
      call.lostNotice = call.forModel ? env.notes.of(contextOfCall(call)).lost.take() : undefined;
      try {
        const answer = await connection.callTool(call.name, call.args, {
          session: call.options.session,
          signal: call.options.signal,
          timeoutMs: env.callTimeoutMs(),
          onProgress: call.options.onProgress,
        });
        call.result.received(answer);
        const marks = answer._meta?.[CALL_MARKS_META];
        if (marks !== undefined) {
          const parsed = CallMarksSchema.safeParse(marks);
          if (parsed.success) call.marks = parsed.data;
          // Never a silent empty answer: a child of another build, say, is named as the cause.
          else
            call.result.refuse(
              `The browser server answered ${call.name} in a form this bridge cannot read (${parsed.error.issues[0]?.path.join('.')}: ` +
                `${parsed.error.issues[0]?.message}). Restart the browser ("Playwright Bridge: Restart Browser"); if it persists, reinstall the extension.`,
            );
        }
        return;
      } catch (error) {
        if (call.lostNotice) env.notes.of(contextOfCall(call)).lost.keep(call.lostNotice);
        call.lostNotice = undefined;
        // Never left us: the pipeline checks it again from the tool policy on and sends it once more, to the replacement.
        if (error instanceof NotSentError && !call.resent) {
          call.resend = true;
          return;
        }
        if (call.options.signal?.aborted) throw new CancelledError();
        if (connection.exited || error instanceof NotSentError) {
          call.result.refuse(
            `The browser process stopped while running ${call.name} (${env.lastExit()}). ` +
              'The call may or may not have taken effect. The next call starts a fresh browser; earlier pages and state are gone.',
          );
          return;
        }
        if (isTimeout(error)) {
          call.result.refuse(
            `${call.name} did not finish within ${Math.round(env.callTimeoutMs() / 1000)} s and was abandoned. ` +
              'The page may still be busy; take a snapshot to see where it is, or raise playwrightBridge.timeouts.callSeconds.',
          );
          return;
        }
        throw error;
      }
    }
  },
};

function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: number }).code === -32001;
}
