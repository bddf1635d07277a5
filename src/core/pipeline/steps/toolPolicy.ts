/** Readonly mode and the allow/deny lists: a refused call reaches neither the child nor the browser. */
import { toolRefusal } from '../../tools/toolPolicy';
import type { CallStep } from '../callContext';

export const toolPolicyStep: CallStep = {
  name: 'toolPolicy',
  run(call, env) {
    if (!call.forModel) return;
    const refusal = toolRefusal(call.name, call.args, env.toolPolicy());
    if (refusal) call.result.refuse(refusal);
  },
};
