/**
 * The note that the browser was lost, the one place it is worded: put before the first model result
 * after a loss (the host saw the child stop or restarted it; or the child marked that the browser went
 * away before this call), so the model knows to start over.
 */
import type { CallStep } from '../callContext';
import { contextOfCall } from '../../supervision/contextNotes';

export function browserLostNotice(reason: string): string {
  return (
    `Note: ${reason} This call ran in a fresh browser: earlier pages, tabs, form input and login state are gone. ` +
    'Navigate again before acting on earlier element references.'
  );
}

export const browserLostStep: CallStep = {
  name: 'browserLost',
  run(call, env) {
    const fromChild = call.marks?.lostBefore === undefined ? undefined : browserLostNotice(call.marks.lostBefore);
    // The panel's own calls (Start Browser) leave the note for the model's next call, which would otherwise act on stale references.
    if (!call.forModel) {
      if (fromChild) env.notes.of(contextOfCall(call)).lost.keep(fromChild);
      return;
    }
    const note = call.lostNotice ?? fromChild;
    if (note) call.result.noteBefore(note);
  },
};
