/**
 * A tool the extension host answers itself (Export as test, time travel's restore): the pipeline runs its
 * handler in place of sending the call to the child, after the same policy, person-control and argument
 * steps as every call, and its answer goes into the one result like the child's (a failure is an error).
 * Only chat's tools reach it: the person confirms these tools in VS Code, which no other MCP client does.
 */
import type { CallStep } from '../callContext';
import { CancelledError } from './cancelled';

export const hostAnswerStep: CallStep = {
  name: 'hostAnswer',
  async run(call, env) {
    if (call.door === 'mcp') {
      call.result.refuse(`${call.name} is answered only through chat's tools in VS Code, where the person confirms it first. Nothing was done.`);
      return;
    }
    const run = env.hostTool(call.name);
    if (!run) {
      call.result.refuse(`${call.name} is not available in this window yet (the extension is still starting). Nothing was done; try again in a moment.`);
      return;
    }
    const answer = await run(call.args ?? {}, { door: call.door, signal: call.options.signal });
    if (call.options.signal?.aborted) throw new CancelledError();
    if (answer.failed) call.result.refuse(answer.text);
    else call.result.respond(answer.text);
    call.checkpoint = answer.checkpoint;
  },
};
