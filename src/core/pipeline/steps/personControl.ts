/** While the person has the browser, an agent's call waits for them to hand it back (or gives up). */
import type { CallContext, CallEnvironment, CallStep } from '../callContext';
import { CancelledError } from './cancelled';
import { toolPolicyStep } from './toolPolicy';

export const personControlStep: CallStep = {
  name: 'personControl',
  run(call, env) {
    // Nothing to wait for: no promise either, so a call reaches the child's start in the same turn it was made.
    if (!call.forModel || !env.person.active) return;
    return waitForHandBack(call, env);
  },
};

async function waitForHandBack(call: CallContext, env: CallEnvironment): Promise<void> {
  call.options.onProgress?.({ progress: 0, message: 'Waiting: the person has the browser. The call goes on when they press Hand back in the browser panel.' });
  const waited = await env.person.wait(env.handBackTimeoutMs(), call.options.signal);
  if (waited.outcome === 'cancelled') throw new CancelledError();
  if (waited.outcome === 'timeout') {
    call.result.refuse(
      `${call.name} did not run: the person has had control of the browser for ${waited.heldSeconds} s ` +
        `and has not handed it back (the limit is ${waited.limitSeconds} s). Ask them to press Hand back in the browser panel, then try again.`,
    );
    return;
  }
  // The person may have changed the tool policy meanwhile (readonly on, say): it is checked again as it is now.
  await toolPolicyStep.run(call, env);
}
