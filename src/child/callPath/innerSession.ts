/** One inner @playwright/mcp session, as the child's call path and its session registry share it. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LaunchedBrowser } from '../browserLauncher';
import type { BrowserObserver } from '../browserObserver';
import type { BrowserHealth } from '../browserHealth';
import type { ClientSlot } from '../clientSlots';
import type { StorageChanges } from '../timeTravel/storageChanges';
import type { PendingTrace } from '../devtools/performanceTrace';
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
}

// A day: the supervisor in the extension host owns the call timeout; this hop must not add its own.
export const NO_TIMEOUT_MS = 24 * 60 * 60 * 1000;
