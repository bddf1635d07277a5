/** bridge_session_list: the browser sessions, as the caller may see them (child/sessionTools). */
import { z } from 'zod';
import { defineOwnTool } from '../defineOwnTool';

export const SESSION_LIST = defineOwnTool({
  name: 'bridge_session_list',
  title: 'List browser sessions',
  description:
    'Playwright Bridge: lists the browser sessions. With isolation "perClient" each MCP client has its own browser context ' +
    "(cookies, storage, tabs); chat's tools use the window's. An MCP client sees its own session (id, tabs, idle time) and only a count " +
    "of the others; chat's tools see every session.",
  input: z.object({}),
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  traits: { handler: 'child', actsOnPage: false, observation: true, exportAs: 'own' },
});
