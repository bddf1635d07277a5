import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { BridgeToolAnswer, SessionCloseOutcome, SessionListing } from '../protocol/callMarks';

/**
 * The bridge's own tools, published beside upstream's (and declared in the manifest with them):
 * the sessions of isolation `perClient`. Documented in the README as the bridge's own.
 */
export const BRIDGE_TOOLS: Tool[] = [
  {
    name: 'bridge_session_list',
    title: 'List browser sessions',
    description: 'Playwright Bridge: lists the browser sessions. With isolation "perClient" each MCP client has its own browser context ' +
      '(cookies, storage, tabs); chat\'s tools use the window\'s. An MCP client sees its own session (id, tabs, idle time) and only a count ' +
      'of the others; chat\'s tools see every session.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'List browser sessions', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'bridge_session_close',
    title: 'Close a browser session',
    description: 'Playwright Bridge: closes a browser context of isolation "perClient" (its cookies, storage and tabs are gone; its next call ' +
      'starts a fresh one). An MCP client closes only its own session; chat\'s tools may close any client\'s. Takes the id from ' +
      'bridge_session_list, or its first 8 characters. The window\'s session is closed with browser_close instead.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The session id from bridge_session_list (at least its first 8 characters).' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { title: 'Close a browser session', readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  },
];

export const BRIDGE_TOOL_NAMES: ReadonlySet<string> = new Set(BRIDGE_TOOLS.map(tool => tool.name));

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
  if (name === 'bridge_session_list') {
    return { tool: 'bridge_session_list', isolation: sessions.isolation, listing: await sessions.list(callerId), caller: callerId };
  }
  const close = (outcome: SessionCloseOutcome): BridgeToolAnswer => ({ tool: 'bridge_session_close', close: outcome });
  if (typeof args.id !== 'string' || !args.id.trim()) return close({ outcome: 'badId', given: args.id });
  const wanted = args.id.trim();
  if (sessions.isolation !== 'perClient') return close({ outcome: 'shared' });
  if (callerId !== undefined) {
    // Its own full id, or at least 8 characters of it; nothing else, and no hint whether another id exists.
    if (wanted.length < 8 || !callerId.startsWith(wanted)) return close({ outcome: 'notYours' });
    return close({ outcome: (await sessions.close(callerId, 'its own client asked', false)) ? 'ownClosed' : 'ownNotOpen' });
  }
  if (wanted === 'window') return close({ outcome: 'window' });
  const matches = sessions.matching(wanted);
  if (matches.length !== 1) return close({ outcome: 'noMatch', given: wanted, matches: matches.length });
  await sessions.close(matches[0], 'chat\'s tools in the window closed it with bridge_session_close', true);
  return close({ outcome: 'closed', id: matches[0] });
}
