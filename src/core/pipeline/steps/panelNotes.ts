/**
 * After the call: what the person or the panel changed in this call's own context meanwhile (the person drove the
 * browser, a step restored, the page resized), told once, before the model's next result. Only that context's
 * notes are read (core/supervision/contextNotes.ts): another client never hears of the window.
 */
import type { CallStep } from '../callContext';
import { contextOfCall } from '../../supervision/contextNotes';

export const panelNotesStep: CallStep = {
  name: 'panelNotes',
  run(call, env) {
    if (!call.forModel) return;
    const notice = env.notes.of(contextOfCall(call)).panel.take();
    if (notice) call.result.noteBefore(notice);
  },
};
