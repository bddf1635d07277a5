/** bridge_session_close: closes a perClient browser context, the caller's own (or any, from chat's tools). */
import { z } from 'zod';
import { defineOwnTool } from '../defineOwnTool';

export const SESSION_CLOSE = defineOwnTool({
  name: 'bridge_session_close',
  title: 'Close a browser session',
  description:
    'Playwright Bridge: closes a browser context of isolation "perClient" (its cookies, storage and tabs are gone; its next call ' +
    "starts a fresh one). An MCP client closes only its own session; chat's tools may close any client's. Takes the id from " +
    "bridge_session_list, or its first 8 characters. The window's session is closed with browser_close instead.",
  input: z.object({ id: z.string().describe('The session id from bridge_session_list (at least its first 8 characters).') }),
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  traits: { handler: 'child', actsOnPage: true, observation: false, exportAs: 'own' },
});
