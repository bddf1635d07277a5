/** After the call: what the person changed from the panel meanwhile (a step restored, the page resized), told once, before the model's next result. */
import type { CallStep } from '../callContext';

export const panelNotesStep: CallStep = {
  name: 'panelNotes',
  run(call, env) {
    if (!call.forModel) return;
    const notice = env.panelNotes.take();
    if (notice) call.result.noteBefore(notice);
  },
};
