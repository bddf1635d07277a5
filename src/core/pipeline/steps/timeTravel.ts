/** After the call: the person put the browser back to an earlier step meanwhile, told once, before the model's next result. */
import type { CallStep } from '../callContext';

export const restoredStep: CallStep = {
  name: 'restored',
  run(call, env) {
    if (!call.forModel) return;
    const notice = env.restored.take();
    if (notice) call.result.noteBefore(notice);
  },
};
