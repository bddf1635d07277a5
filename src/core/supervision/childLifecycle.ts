/**
 * The child's life, by the restart rule of the design: started on first use; the calls that find it dead share
 * one bounded start; the old process tree is killed whole; the replacement answers `initialize` and `tools/list`
 * before any call reaches it, and the waiting calls are then handed it exactly once (they all await the one
 * start). If the start fails none gets it: each gets the reason, and later calls retry after a backoff.
 * It also keeps what only a start or an exit changes: the bridge's status, its health, and the child's tool list.
 */
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { BrowserStateParams, ObservationEvent } from '../../protocol/childMessages';
import { ChildConnection, ChildEvents, ChildFactory } from '../childProcess/childProcess';
import { browserLostNotice } from '../pipeline/steps/browserLost';
import { Emitter } from '../emitter';
import { withDeadline } from './deadline';
import { BrowserHealthTracker, type BridgeStatus, type HostHealth } from './browserHealth';

/**
 * What the rest of the host hears of the child. Called in the order things happen, and only for the current
 * child: what an older child says late is dropped here, so no listener checks generations.
 */
export interface ChildListener {
  /** A new child starts: nothing of the old browser (its tabs, its client contexts) is left. */
  starting(): void;
  /** The current child's browser changed (heard before the health, which reads it the same way). */
  browserState(state: BrowserStateParams): void;
  /** What the current child's browser does (tabs, console, network, frames). */
  observation(event: ObservationEvent): void;
  /** A child has started and is the current one, before anyone hears it is ready: what each new child is told. */
  attached(connection: ChildConnection): void;
  /** The child's tool list really changed (not each time upstream says so). */
  toolsChanged(tools: Tool[]): void;
  /** The browser was lost (restarted, or the child stopped): what the model of every context reads next. */
  lost(notice: string): void;
}

export interface ChildLifecycleOptions {
  factory: ChildFactory;
  log: (line: string) => void;
  /** Upper bound on one start: spawn, initialize and tools/list. */
  readyTimeoutMs: number;
  /** Wait before each retry after failed starts (the last one repeats). */
  backoffMs: number[];
  now: () => number;
  listener: ChildListener;
}

export class ChildLifecycle {
  private factory: ChildFactory;
  private current: ChildConnection | undefined;
  private starting: Promise<ChildConnection> | undefined;
  private generation = 0;
  private failures = 0;
  private retryAt = 0;
  private lastFailure: string | undefined;
  private exitReason = 'it exited';
  private cachedTools: Tool[] | undefined;
  /** The list as it was when cached, to tell a real change (the list object may be shared and change in place). */
  private cachedToolsKey: string | undefined;
  private toolsByName = new Map<string, Tool>();
  private disposing: Promise<void> | undefined;
  private currentStatus: BridgeStatus = { state: 'idle', generation: 0 };
  private readonly stateEmitter = new Emitter<BridgeStatus>();
  /** Whether the browser is there, for everything that shows it. */
  private readonly healthTracker = new BrowserHealthTracker();
  readonly onDidChangeStatus = this.stateEmitter.event;
  readonly onDidChangeHealth = this.healthTracker.onDidChange;

  constructor(private readonly options: ChildLifecycleOptions) {
    this.factory = options.factory;
  }

  get status(): BridgeStatus {
    return this.currentStatus;
  }

  get health(): HostHealth {
    return this.healthTracker.current;
  }

  /** The child, while one runs. */
  get live(): ChildConnection | undefined {
    return this.current && !this.current.exited ? this.current : undefined;
  }

  /** Why the last child stopped, in its own words. */
  get lastExit(): string {
    return this.exitReason;
  }

  /** The tools the last ready child listed (undefined before one was). */
  get tools(): Tool[] | undefined {
    return this.cachedTools;
  }

  /** One of those tools, by name. */
  tool(name: string): Tool | undefined {
    return this.toolsByName.get(name);
  }

  /** Settings for the next start; a child already running keeps the settings it has. */
  useFactory(factory: ChildFactory): void {
    this.factory = factory;
  }

  /** The ready child, starting one if there is none (shared by every caller that asks meanwhile). */
  ready(): Promise<ChildConnection> {
    this.assertNotDisposed();
    const child = this.live;
    if (child) return Promise.resolve(child);
    if (!this.starting) {
      const waitMs = this.retryAt - this.options.now();
      if (this.lastFailure && waitMs > 0) {
        const when = `The bridge tries again in ${Math.ceil(waitMs / 1000)} s, or now with the command "Playwright Bridge: Restart Browser".`;
        return Promise.reject(new Error(`${this.lastFailure}\n${when}`));
      }
      this.starting = this.start().finally(() => (this.starting = undefined));
    }
    return this.starting;
  }

  /**
   * Replaces the child now (the Restart Browser command). With a factory, the replacement uses it
   * (new settings); otherwise it uses the same settings as before.
   */
  async restart(reason: string, factory?: ChildFactory, options: { browserWasOpen?: boolean } = {}): Promise<void> {
    this.assertNotDisposed();
    const old = await this.detachCurrent();
    if (factory) this.factory = factory;
    if (old) {
      // With no browser open there was no page to lose: the model is told nothing.
      if (options.browserWasOpen !== false) this.options.listener.lost(browserLostNotice(`the browser was restarted (${reason}).`));
      this.options.log(`Restarting (${reason}): stopping child ${old.pid}`);
    }
    this.failures = 0;
    this.retryAt = 0;
    // Calls made meanwhile wait for this one start: the new browser must not start while the old one
    // still holds the persistent profile ("profile in use").
    const starting = (async () => {
      await old?.dispose();
      return this.start();
    })();
    this.starting = starting;
    void starting
      .finally(() => {
        if (this.starting === starting) this.starting = undefined;
      })
      .catch(() => undefined);
    await starting;
  }

  /** Ends the child and everything below it. Safe to call more than once. */
  dispose(): Promise<void> {
    if (!this.disposing) {
      this.disposing = (async () => {
        this.setStatus({ state: 'disposed', generation: this.generation });
        const old = await this.detachCurrent();
        await old?.dispose();
        this.stateEmitter.dispose();
        this.healthTracker.dispose();
      })();
    }
    return this.disposing;
  }

  private async start(): Promise<ChildConnection> {
    const generation = ++this.generation;
    const listener = this.options.listener;
    listener.starting();
    this.setStatus({ state: generation > 1 ? 'restarting' : 'starting', generation });
    const events: ChildEvents = {
      onExit: why => this.onChildExit(generation, why),
      onToolsChanged: () => void this.refreshTools(generation),
      onBrowserState: state => {
        if (generation !== this.generation) return;
        listener.browserState(state);
        this.healthTracker.browserChanged(state);
      },
      onObservation: event => {
        if (generation !== this.generation) return;
        listener.observation(event);
      },
      onStderr: line => this.options.log(`[child ${generation}] ${line}`),
    };
    let connection: ChildConnection | undefined;
    const pending = this.factory(events);
    const readyTimeoutMs = this.options.readyTimeoutMs;
    try {
      connection = await withDeadline(pending, readyTimeoutMs, `start did not finish within ${readyTimeoutMs} ms`);
      const tools = await withDeadline(connection.listTools(), readyTimeoutMs, `tools/list did not finish within ${readyTimeoutMs} ms`);
      if (this.disposing) throw new Error('Playwright Bridge was shut down while the browser was starting.');
      if (connection.exited) throw new Error('the child exited right after it started');
      const changed = this.cacheTools(tools);
      this.current = connection;
      listener.attached(connection);
      this.failures = 0;
      this.lastFailure = undefined;
      this.setStatus({ state: 'ready', generation, pid: connection.pid });
      this.options.log(`Child ${generation} ready (pid ${connection.pid}, ${tools.length} tools)`);
      if (changed) listener.toolsChanged(tools);
      return connection;
    } catch (error) {
      // Whatever half-started is killed, including a start that answers after the deadline.
      if (connection) void connection.dispose(0);
      else
        pending.then(
          late => late.dispose(0),
          () => undefined,
        );
      const backoffMs = this.options.backoffMs;
      const delay = backoffMs[Math.min(this.failures, backoffMs.length - 1)];
      this.failures++;
      this.retryAt = this.options.now() + delay;
      const message = `Playwright Bridge could not start its browser server: ${(error as Error).message}`;
      this.lastFailure = message;
      this.options.log(message);
      if (!this.disposing) this.setStatus({ state: 'failed', generation, detail: message });
      throw new Error(message, { cause: error });
    }
  }

  private onChildExit(generation: number, why: string): void {
    if (!this.current || generation !== this.generation || this.disposing) return;
    this.options.log(`Child ${generation} stopped: ${why}`);
    const dead = this.current;
    this.current = undefined;
    this.exitReason = why;
    this.options.listener.lost(browserLostNotice(`the browser process stopped unexpectedly (${why}).`));
    this.setStatus({ state: 'idle', generation, detail: `stopped unexpectedly: ${why}; the next call starts a new browser` });
    void dead.dispose(0);
  }

  private async refreshTools(generation: number): Promise<void> {
    const connection = this.current;
    if (!connection || generation !== this.generation) return;
    try {
      const tools = await connection.listTools();
      // Upstream says "changed" at every browser launch even when nothing changed. Passing that on
      // would make every MCP client refetch (and VS Code once restarted the server mid-call on it).
      if (this.cacheTools(tools)) this.options.listener.toolsChanged(tools);
    } catch (error) {
      this.options.log(`Could not refresh the tool list: ${(error as Error).message}`);
    }
  }

  /** Keeps the list; true when it differs from the one before (names, schemas or texts, in any order). */
  private cacheTools(tools: Tool[]): boolean {
    const key = toolsKey(tools);
    const changed = key !== this.cachedToolsKey;
    this.cachedTools = tools;
    this.cachedToolsKey = key;
    this.toolsByName = new Map(tools.map(tool => [tool.name, tool]));
    return changed;
  }

  private async detachCurrent(): Promise<ChildConnection | undefined> {
    if (this.starting) await this.starting.catch(() => undefined);
    const old = this.current;
    this.current = undefined;
    return old;
  }

  private setStatus(status: BridgeStatus): void {
    if (this.currentStatus.state === 'disposed') return;
    this.currentStatus = status;
    this.healthTracker.serverChanged(status);
    this.stateEmitter.fire(status);
  }

  private assertNotDisposed(): void {
    if (this.disposing) throw new Error('Playwright Bridge has shut down; reload the window to use it again.');
  }
}

function toolsKey(tools: Tool[]): string {
  return JSON.stringify([...tools].sort((x, y) => x.name.localeCompare(y.name)));
}
