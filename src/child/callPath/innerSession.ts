/** One inner @playwright/mcp session, as the child's call path and its session registry share it. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resultText } from '../../core/results/resultText';
import { TABS } from '../../core/tools/upstreamTools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LaunchedBrowser } from '../browserLauncher';
import type { BrowserObserver } from '../browserObserver';
import type { BrowserHealth } from '../browserHealth';
import type { ClientSlot } from '../clientSlots';
import type { StorageChanges } from '../timeTravel/storageChanges';
import type { LastTrace, PendingTrace } from '../devtools/performanceTrace';
import type { SessionContexts } from '../sessionContexts';

/** One @playwright/mcp server and the browser it drives. Replaced whole when the browser goes. */
export interface InnerSession {
  client: Client;
  close(): Promise<void>;
  browser?: LaunchedBrowser;
  /** Its browser's contexts as upstream reaches them: its own and the named ones it opened (sessionContexts.ts). */
  contexts?: SessionContexts;
  observer?: BrowserObserver;
  /** Whether its browser is there (launching, ready, failed, lost, closed): kept there only. */
  readonly health: BrowserHealth;
  /** The MCP client this session belongs to (isolation `perClient`); absent for the window's. */
  slot?: ClientSlot<InnerSession>;
  /** Set once the agent's tab is chosen (over CDP: the tab we opened, never the person's first). */
  prepared?: boolean;
  /** Patterns the agent routed (browser_route): a routed page may claim any origin, so no secret is typed while one is set. */
  routes: Set<string>;
  /** Time travel (the window's context only): when its storage changed, for checkpoints. */
  storageChanges?: StorageChanges;
  /** A performance trace waiting for the agent's next call (bridge_performance_trace with during "nextCall"). */
  pendingTrace?: PendingTrace;
  /** The session's last finished trace, for a drill-down into one of its insights (bridge_performance_trace with insight). */
  lastTrace?: LastTrace;
}

// A day: the supervisor in the extension host owns the call timeout; this hop must not add its own.
export const NO_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * A browser_tabs call the bridge makes itself (not the agent's): upstream answers it, and the session's observer
 * follows it as it follows the agent's (the current tab, a named context it opened). Its answer, and that answer's
 * first lines for a message when it failed.
 */
export async function bridgeTabsCall(session: InnerSession, args: Record<string, unknown>): Promise<{ failed?: string; text: string }> {
  const result = (await session.client.callTool({ name: TABS, arguments: args }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
  const text = resultText(result);
  if (result.isError) return { failed: text.split('\n').slice(0, 2).join(' '), text };
  session.observer?.noteToolCall(TABS, args, text);
  return { text };
}
