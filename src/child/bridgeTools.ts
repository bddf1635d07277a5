import { Tool } from '@modelcontextprotocol/sdk/types.js';

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
    const who = s.id === 'window' ? 'window (chat\'s tools' + (isolation === 'shared' ? ' and every MCP client)' : ')') : `${s.id} (client "${s.client ?? 'unnamed'}")`;
    const tabs = s.tabs.length ? s.tabs.map(t => `${t.title || '(no title)'} <${t.url}>`).join('; ') : 'no browser open yet';
    return `- ${who}${s.yours ? ', yours' : ''}: ${tabs}; idle ${s.idleSeconds} s`;
  });
  return [head, ...lines].join('\n');
}
