import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ownToolDefinitions } from '../core/tools/toolRegistry';
import { SESSION_LIST_TOOL } from '../core/tools/ownTools';
import { SESSION_CLOSE } from '../core/tools/own/sessionClose';
import { BridgeToolAnswer, SessionCloseOutcome, SessionListing } from '../protocol/callMarks';

/**
 * The bridge's own tools the child answers (the sessions of isolation `perClient`), published beside
 * upstream's: their definitions and traits are their records in core/tools/toolRegistry.ts.
 */
export const BRIDGE_TOOLS: Tool[] = ownToolDefinitions('child');

/** What the bridge's session tools need of the child. */
export interface SessionDirectory {
  isolation: 'shared' | 'perClient';
  /** The sessions the caller may see (an MCP client under `perClient`: its own only), the caller's marked. */
  list(callerId: string | undefined): Promise<SessionListing>;
  /** Client session ids that start with the given prefix. */
  matching(prefix: string): string[];
  close(id: string, why: string, tellClient: boolean): Promise<boolean>;
}

/**
 * bridge_session_list and bridge_session_close, answered as facts: which sessions the caller may see, or
 * what closing did. The words are the host's (core/pipeline/tools/bridgeSessionTools.ts).
 */
export async function runBridgeTool(
  name: string,
  args: Record<string, unknown>,
  callerId: string | undefined,
  sessions: SessionDirectory,
): Promise<BridgeToolAnswer> {
  if (name === SESSION_LIST_TOOL) {
    return { answer: 'sessionList', isolation: sessions.isolation, listing: await sessions.list(callerId), caller: callerId };
  }
  const close = (outcome: SessionCloseOutcome): BridgeToolAnswer => ({ answer: 'sessionClose', close: outcome });
  const parsed = SESSION_CLOSE.parse(args);
  if ('badArgs' in parsed || !parsed.args.id.trim()) return close({ outcome: 'badId', given: args.id });
  const wanted = parsed.args.id.trim();
  if (sessions.isolation !== 'perClient') return close({ outcome: 'shared' });
  if (callerId !== undefined) {
    // Its own full id, or at least 8 characters of it; nothing else, and no hint whether another id exists.
    if (wanted.length < 8 || !callerId.startsWith(wanted)) return close({ outcome: 'notYours' });
    return close({ outcome: (await sessions.close(callerId, 'its own client asked', false)) ? 'ownClosed' : 'ownNotOpen' });
  }
  if (wanted === 'window') return close({ outcome: 'window' });
  const matches = sessions.matching(wanted);
  if (matches.length !== 1) return close({ outcome: 'noMatch', given: wanted, matches: matches.length });
  await sessions.close(matches[0], "chat's tools in the window closed it with bridge_session_close", true);
  return close({ outcome: 'closed', id: matches[0] });
}
