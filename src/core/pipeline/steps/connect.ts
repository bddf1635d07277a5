/** The child the call goes to, started if none runs; a call given up on meanwhile goes no further. */
import type { CallStep } from '../callContext';
import { CancelledError } from './cancelled';

export const connectStep: CallStep = {
  name: 'connect',
  async run(call, env) {
    call.connection = await env.ready();
    if (call.options.signal?.aborted) throw new CancelledError();
  },
};
