/**
 * The one owner of "is the browser there" in the extension host. The supervisor feeds it the state of its
 * browser server and the current server's browser events; the status bar, the panel's store (and so the panel),
 * and the failure notice read what it works out, and none of them keeps or words a copy of its own.
 */
import { Emitter } from '../emitter';
import type { BrowserStateParams } from '../../protocol/childMessages';
import type { BridgeState, BrowserHealth, HealthState } from '../../protocol/panelMessages';

/** The browser server's own state (the child process): which start it is, and why it is in that state. */
export interface BridgeStatus {
  state: BridgeState;
  /** Which child this is: 1 for the first, one more for each restart. */
  generation: number;
  /** Why the state is what it is, for people (a failure, an exit). */
  detail?: string;
  pid?: number;
}

type ServerStatus = BridgeStatus;

/** What the host shows: the panel's fields, and which server process it is. */
export type HostHealth = BrowserHealth & { generation: number; pid?: number };

export const HEALTH_LABELS: Record<HealthState, string> = {
  notStarted: 'Not started',
  starting: 'Starting…',
  restarting: 'Restarting…',
  ready: 'Ready',
  failed: 'Failed to start',
  stopped: 'Stopped',
};

export class BrowserHealthTracker {
  private server: ServerStatus = { state: 'idle', generation: 0 };
  private browser: BrowserStateParams | undefined;
  private health: HostHealth = healthOf(this.server, undefined);
  private readonly emitter = new Emitter<HostHealth>();
  readonly onDidChange = this.emitter.event;

  get current(): HostHealth {
    return this.health;
  }

  serverChanged(status: ServerStatus): void {
    // A new server has no browser yet: the old one's state (a failed launch, say) is not this one's.
    if (status.generation !== this.server.generation) this.browser = undefined;
    this.server = status;
    this.update();
  }

  /** One of the current server's browser events. */
  browserChanged(state: BrowserStateParams): void {
    this.browser = state;
    this.update();
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private update(): void {
    this.health = healthOf(this.server, this.browser);
    this.emitter.fire(this.health);
  }
}

/** The one place the two states become one. */
export function healthOf(server: ServerStatus, browser: BrowserStateParams | undefined): HostHealth {
  const process = { generation: server.generation, ...(server.pid ? { pid: server.pid } : {}), ...(browser ? { browser: browser.state } : {}) };
  const of = (state: HealthState, detail?: string, failed?: 'browser' | 'server'): HostHealth => ({
    state,
    label: HEALTH_LABELS[state],
    ...(detail ? { detail } : {}),
    ...(failed ? { failed } : {}),
    ...process,
  });
  switch (server.state) {
    case 'disposed':
      return of('stopped');
    case 'failed':
      return of('failed', server.detail, 'server');
    case 'idle':
      return of('notStarted', server.detail);
    case 'starting':
      return of('starting');
    case 'restarting':
      return of('restarting');
    case 'ready':
      if (browser?.state === 'failed') return of('failed', browser.message, 'browser');
      if (browser?.state === 'launching') return of('starting');
      if (browser?.state === 'ready') return of('ready');
      // The server runs but no browser does (none launched yet, closed, or lost): "Ready" would promise a browser
      // that is not there; the next call, an address typed in the panel or Start Browser launches one.
      return of(
        'notStarted',
        browser?.state === 'lost' ? `The browser was lost (${browser.message ?? 'it went away'}); the next call starts a new one.` : undefined,
      );
  }
}
