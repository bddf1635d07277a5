/**
 * What the bridge checks in a call's arguments before it reaches the browser, beyond upstream's own
 * validation (which answers missing and wrong-typed arguments clearly): a misspelled argument name
 * upstream silently ignores (the call then does something else than the model meant), and arguments
 * so large they would stall the pipe or come back inside the error text.
 */
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallStep } from '../callContext';
import { toolRecord } from '../../tools/toolRegistry';

/** Arguments of one call, as JSON, at most this many bytes. */
export const MAX_ARGUMENT_BYTES = 1024 * 1024;

/** Why the call cannot run, or undefined when its arguments may go on. */
export function checkArguments(tool: Tool | undefined, args: Record<string, unknown> | undefined): string | undefined {
  if (args === undefined) return undefined;
  const size = Buffer.byteLength(JSON.stringify(args) ?? '', 'utf8');
  if (size > MAX_ARGUMENT_BYTES) {
    return `The arguments of ${tool?.name ?? 'this call'} are ${size} bytes; the bridge accepts at most ${MAX_ARGUMENT_BYTES} bytes per call. Nothing ran.`;
  }
  // What the tool itself refuses (its record's checksArgs), after the size: a rule of one tool lives in its definition.
  const own = tool && toolRecord(tool.name)?.checksArgs?.(args);
  if (own) return own;
  const properties = (tool?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!tool || !properties) return undefined;
  const unknown = Object.keys(args).filter(key => !(key in properties));
  if (!unknown.length) return undefined;
  const accepted = Object.keys(properties);
  return (
    `${tool.name} does not take the argument${unknown.length === 1 ? '' : 's'} ${unknown.map(k => `"${k.slice(0, 60)}"`).join(', ')}. ` +
    `It takes: ${accepted.length ? accepted.join(', ') : 'no arguments'}. Nothing ran.`
  );
}

/** A misspelled argument or an oversized call is refused before it reaches the browser. */
export const argumentCheckStep: CallStep = {
  name: 'argumentCheck',
  run(call, env) {
    const refusal = checkArguments(env.tool(call.name), call.args);
    if (refusal) call.result.refuse(refusal);
  },
};
