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
      '(cookies, storage, tabs); chat\'s tools use the window\'s. Shows each session\'s id, client, tabs and idle time, and marks yours.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { title: 'List browser sessions', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  },
  {
    name: 'bridge_session_close',
    title: 'Close a browser session',
    description: 'Playwright Bridge: closes one MCP client\'s browser context (its cookies, storage and tabs are gone; its next call starts a ' +
      'fresh one). Takes the id from bridge_session_list, or its first 8 characters. The window\'s session is closed with browser_close instead.',
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

export function describeSessions(isolation: 'shared' | 'perClient', sessions: SessionSummary[]): string {
  const head = isolation === 'perClient'
    ? 'Isolation is "perClient": each MCP client has its own browser context; chat\'s tools use the window\'s.'
    : 'Isolation is "shared": every client and chat drive one browser context, listed as "window".';
  const lines = sessions.map(s => {
    const windowWho = `window (chat's tools${isolation === 'shared' ? ' and every MCP client' : ''})`;
    const who = s.id === 'window' ? windowWho : `${s.id} (client "${s.client ?? 'unnamed'}")`;
    const tabs = s.tabs.length ? s.tabs.map(t => `${t.title || '(no title)'} <${t.url}>`).join('; ') : 'no browser open yet';
    return `- ${who}${s.yours ? ', yours' : ''}: ${tabs}; idle ${s.idleSeconds} s`;
  });
  return [head, ...lines].join('\n');
}

/** What the bridge's session tools need of the child. */
export interface SessionDirectory {
  isolation: 'shared' | 'perClient';
  /** Every session, the caller's marked. */
  list(callerId: string | undefined): Promise<SessionSummary[]>;
  /** Client session ids that start with the given prefix. */
  matching(prefix: string): string[];
  close(id: string, why: string, tellClient: boolean): Promise<boolean>;
}

/** bridge_session_list and bridge_session_close. */
export async function runBridgeTool(
  name: string,
  args: Record<string, unknown>,
  callerId: string | undefined,
  sessions: SessionDirectory,
): Promise<CallToolResult> {
  const reply = (text: string, isError = false): CallToolResult => ({ ...(isError ? { isError: true } : {}), content: [{ type: 'text', text }] });
  if (name === 'bridge_session_list') return reply(describeSessions(sessions.isolation, await sessions.list(callerId)));
  if (typeof args.id !== 'string' || !args.id.trim()) {
    return reply('Invalid arguments for tool "bridge_session_close": "id" must be a session id (a string) from bridge_session_list; ' +
      `got ${JSON.stringify(args.id)}.`, true);
  }
  const wanted = args.id.trim();
  if (sessions.isolation !== 'perClient') return reply('Isolation is "shared": there is one session for everyone. browser_close closes its browser.', true);
  if (wanted === 'window') return reply('The window\'s session is chat\'s; close its browser with browser_close, or the person restarts it.', true);
  const matches = sessions.matching(wanted);
  if (matches.length !== 1) {
    return reply(matches.length ? `"${wanted}" matches ${matches.length} sessions; give more of its id.` :
      `No session has the id "${wanted}" (give at least its first 8 characters). bridge_session_list shows them.`, true);
  }
  const own = matches[0] === callerId;
  await sessions.close(matches[0], own ? 'its own client asked' : 'another client closed it with bridge_session_close', !own);
  return reply(`Closed session ${matches[0].slice(0, 8)}: its browser context, cookies and tabs are gone. Its next call starts a fresh one.`);
}
