/** bridge_restore_step: time travel's restore, the window's browser put back to an earlier step (the extension host answers it). */
import { z } from 'zod';
import { defineOwnTool } from '../defineOwnTool';
import { short } from '../callWords';

export const RESTORE_STEP = defineOwnTool({
  name: 'bridge_restore_step',
  title: 'Put the browser back to an earlier step',
  description:
    "Playwright Bridge: puts this window's browser back to how it was right after an earlier step, to undo your own last " +
    'steps or try again from there: cookies, local and session storage and IndexedDB as they were then, and one fresh tab at that ' +
    "step's address and size (other tabs close). Not restored: the page's in-memory state (it loads again), the tab's back/forward " +
    "history, and anything the server stored. Give `step` (a step number as the panel's Activity lists them) or `stepsBack` (1 = " +
    'before your last step). Take a new snapshot afterwards: earlier element refs are gone. The person confirms first.',
  input: z.object({
    step: z.number().int().min(1).optional().describe('Go back to how the browser was right after this step.'),
    stepsBack: z.number().int().min(1).optional().describe('Undo this many of the last steps (1: back to before the last step).'),
  }),
  traits: { handler: 'host', actsOnPage: true, observation: false, exportAs: 'own' },
  says: a =>
    a.step !== undefined ? `Putting the browser back to step ${short(a.step)}` : `Undoing the last ${short(a.stepsBack ?? 1)} step(s) in the browser`,
});
