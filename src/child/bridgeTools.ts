import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

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

/** One line of the session list. */
export interface SessionSummary {
  id: string;
  client?: string;
  tabs: { url: string; title: string }[];
  idleSeconds: number;
  yours: boolean;
}

/** What a caller may see: the sessions shown to it, and how many others there are that it may not see. */
export interface SessionListing {
  sessions: SessionSummary[];
  others: number;
}

/**
 * The session list as its caller may see it. Chat's tools (no caller id) act for the person and see every
 * session, client ids shortened to the 8 characters the panel shows. Under `perClient` an MCP client sees
 * only its own session and a count of the others: another's id would let it drive that session at the
 * endpoint (the id is the only thing that tells two clients of one window apart), and the window's tabs
 * are the person's.
 */
export function describeSessions(isolation: 'shared' | 'perClient', listing: SessionListing, callerId: string | undefined): string {
  const tabsOf = (s: SessionSummary) => s.tabs.length ? s.tabs.map(t => `${t.title || '(no title)'} <${t.url}>`).join('; ') : 'no browser open yet';
  if (isolation === 'shared') {
    const windowLines = listing.sessions.filter(s => s.id === 'window')
      .map(s => `- window (chat's tools and every MCP client): ${tabsOf(s)}; idle ${s.idleSeconds} s`);
    return ['Isolation is "shared": every client and chat drive one browser context, listed as "window".', ...windowLines].join('\n');
  }
  const head = 'Isolation is "perClient": each MCP client has its own browser context; chat\'s tools use the window\'s.';
  if (callerId !== undefined) {
    const own = listing.sessions.find(s => s.id === callerId);
    const ownLine = own
      ? `- ${own.id} (client "${own.client ?? 'unnamed'}"), yours: ${tabsOf(own)}; idle ${own.idleSeconds} s`
      : `- ${callerId}, yours: no browser context yet (your first browser call opens one)`;
    const othersLine = `${listing.others} other session${listing.others === 1 ? '' : 's'} (the window's and other MCP clients'): ` +
      'an MCP client sees neither their ids nor their pages, and cannot reach them.';
    return [head, ownLine, othersLine].join('\n');
  }
  const lines = listing.sessions.map(s => {
    const who = s.id === 'window' ? 'window (chat\'s tools)' : `${s.id.slice(0, 8)} (client "${s.client ?? 'unnamed'}")`;
    return `- ${who}${s.yours ? ', yours' : ''}: ${tabsOf(s)}; idle ${s.idleSeconds} s`;
  });
  return [head, ...lines].join('\n');
}

/** What the bridge's session tools need of the child. */
export interface SessionDirectory {
  isolation: 'shared' | 'perClient';
  /** The sessions the caller may see (an MCP client under `perClient`: its own only), the caller's marked. */
  list(callerId: string | undefined): Promise<SessionListing>;
  /** Client session ids that start with the given prefix. */
  matching(prefix: string): string[];
  close(id: string, why: string, tellClient: boolean): Promise<boolean>;
}

/** Why an MCP client may not close a session: the same words whether or not the id exists, so the answer reveals nothing. */
export const CLOSE_OTHERS_REFUSED = 'Under isolation "perClient" an MCP client can close only its own session (the id bridge_session_list ' +
  'shows as yours). Other sessions belong to other clients or to the window and are not yours to close. Nothing was closed.';

/** bridge_session_list and bridge_session_close. */
export async function runBridgeTool(
  name: string,
  args: Record<string, unknown>,
  callerId: string | undefined,
  sessions: SessionDirectory,
): Promise<CallToolResult> {
  const reply = (text: string, isError = false): CallToolResult => ({ ...(isError ? { isError: true } : {}), content: [{ type: 'text', text }] });
  if (name === 'bridge_session_list') return reply(describeSessions(sessions.isolation, await sessions.list(callerId), callerId));
  if (typeof args.id !== 'string' || !args.id.trim()) {
    return reply('Invalid arguments for tool "bridge_session_close": "id" must be a session id (a string) from bridge_session_list; ' +
      `got ${JSON.stringify(args.id)}.`, true);
  }
  const wanted = args.id.trim();
  if (sessions.isolation !== 'perClient') return reply('Isolation is "shared": there is one session for everyone. browser_close closes its browser.', true);
  if (callerId !== undefined) {
    // Its own full id, or at least 8 characters of it; nothing else, and no hint whether another id exists.
    if (wanted.length < 8 || !callerId.startsWith(wanted)) return reply(CLOSE_OTHERS_REFUSED, true);
    if (!(await sessions.close(callerId, 'its own client asked', false))) return reply('Your session has no browser context open: nothing to close.');
    return reply('Closed your session\'s browser context: its cookies and tabs are gone. Your next call starts a fresh one.');
  }
  if (wanted === 'window') return reply('The window\'s session is chat\'s; close its browser with browser_close, or the person restarts it.', true);
  const matches = sessions.matching(wanted);
  if (matches.length !== 1) {
    return reply(matches.length ? `"${wanted}" matches ${matches.length} sessions; give more of its id.` :
      `No session has the id "${wanted}" (give at least its first 8 characters). bridge_session_list shows them.`, true);
  }
  await sessions.close(matches[0], 'chat\'s tools in the window closed it with bridge_session_close', true);
  return reply(`Closed session ${matches[0].slice(0, 8)}: its browser context, cookies and tabs are gone. Its next call starts a fresh one.`);
}
