/**
 * A capability tool whose group is off (or was turned on after the browser started): the child would
 * only say "not found", the person needs to know which setting to change. Chat's tools only: an MCP
 * client is offered just the running child's tools.
 */
import type { CallStep } from '../callContext';

export const capabilitiesStep: CallStep = {
  name: 'capabilities',
  run(call, env) {
    if (call.door !== 'tool') return;
    const hint = env.capabilityHint?.(call.name);
    if (hint) call.result.refuse(`The tool ${call.name} could not run: ${hint}`);
  },
};
