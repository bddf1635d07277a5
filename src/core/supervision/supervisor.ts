import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CheckpointFacts, InputEvent, LiveViewParams, ObservationEvent, PageAction, PageActionResult, RestoreCheckpointParams, TabInfo,
} from '../../protocol/childMessages';
import type {
  ControlNotificationName, ControlNotificationParams, ControlRequestName, ControlRequestParams, ControlRequestResult,
} from '../../protocol/controlChannel';
import { BridgeState, Door } from '../../protocol/panelMessages';
import { ChildConnection, ChildEvents, ChildFactory } from '../childProcess/childProcess';
import { presentInvocation } from '../results/invocationMessages';
import { CallEnvironment } from '../pipeline/callContext';
import { runCallPipeline } from '../pipeline/callPipeline';
import { CallResult } from '../pipeline/callResult';
import { browserLostNotice } from '../pipeline/steps/browserLost';
import { CancelledError } from '../pipeline/steps/cancelled';
import { isToolOffered, OPEN_POLICY, ToolPolicySettings } from '../tools/toolPolicy';
import { withDeadline } from './deadline';
import { Emitter, Event } from '../emitter';
import { PersonControl } from './personControl';
import { PersonDoor } from './personDoor';
import { ActivityLog, cardOf, type ToolCallRecord } from './activityLog';
import { WatchedTabs } from './watchedTabs';
import { BrowserHealthTracker, type BridgeStatus, type HostHealth } from './browserHealth';
export type { BridgeStatus } from './browserHealth';
import { ContextNotes, WINDOW_CONTEXT } from './contextNotes';

export type { BridgeState, Door };
export type { SupervisedCallOptions } from '../pipeline/callContext';
export { CancelledError };
import type { CallContext, HostTool, SupervisedCallOptions } from '../pipeline/callContext';
import { toolRecord } from '../tools/toolRegistry';
import { RESTORE_STEP_TOOL } from '../tools/ownTools';

export interface SupervisorOptions {
  factory: ChildFactory;
  log: (line: string) => void;
  /** Upper bound on one start: spawn, initialize and tools/list. */
  readyTimeoutMs?: number;
  /** Wait before each retry after failed starts (the last one repeats). */
  backoffMs?: number[];
  /** How long one tool call may run. Read per call so a settings change applies at once. */
  callTimeoutMs: () => number;
  /** How long an agent's call waits while the person has the browser, before it gives up. */
  handBackTimeoutMs?: () => number;
  now?: () => number;
  /** A tool's name for people ("Get cookie"), before the child's list is known; else its title there. */
  displayName?: (tool: string) => string | undefined;
  /** Readonly mode and the allow/deny lists; read per call and per listing, so a change applies at once. */
  toolPolicy?: () => ToolPolicySettings;
  /** Why a capability tool cannot run now (its group off, or turned on after the browser started); chat's tools only. */
  capabilityHint?: (tool: string) => string | undefined;
}

/** Asked of the running child when none runs: the panel's features start no browser of their own. */
export class NoBrowserError extends Error {
  constructor() {
    super('No browser is running.');
  }
}

/**
 * Keeps one child alive for every door. Starts it on first use; after it dies, the calls that
 * find it dead share one bounded restart, are forwarded exactly once to the replacement once it
 * has proven ready, and the first result after a restart tells the model its state was lost.
 */
export class Supervisor {
  private factory: ChildFactory;
  private current: ChildConnection | undefined;
  private starting: Promise<ChildConnection> | undefined;
  private generation = 0;
  private failures = 0;
  private retryAt = 0;
  private lastFailure: string | undefined;
  /** The notes a model reads before its next result, each kept for the context it speaks of (contextNotes.ts). */
  private readonly notes = new ContextNotes();
  /** The watched context's tabs: the one copy in the host (the panel's store and the person's control read it). */
  private readonly watchedTabs = new WatchedTabs();
  /** The person at the panel: Take control / Hand back, and what they changed meanwhile. */
  private readonly person: PersonControl;
  private readonly personDoor: PersonDoor;
  /** Fires true when the person takes the browser and false when they hand it back. */
  readonly onDidChangeControl: Event<boolean>;
  private lastExit = 'it exited';
  private cachedTools: Tool[] | undefined;
  /** The list as it was when cached, to tell a real change (the list object may be shared and change in place). */
  private cachedToolsKey: string | undefined;
  private toolsByName = new Map<string, Tool>();
  private disposing: Promise<void> | undefined;
  private currentStatus: BridgeStatus = { state: 'idle', generation: 0 };

  private readonly stateEmitter = new Emitter<BridgeStatus>();
  private readonly toolsEmitter = new Emitter<Tool[]>();
  /** Whether the browser is there, for everything that shows it. */
  private readonly healthTracker = new BrowserHealthTracker();
  private readonly observationEmitter = new Emitter<ObservationEvent>();
  private readonly activity = new ActivityLog();
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  readonly onDidChangeStatus = this.stateEmitter.event;
  readonly onDidChangeTools = this.toolsEmitter.event;
  readonly onDidChangeHealth = this.healthTracker.onDidChange;
  /** What the browser does (tabs, console, network, frames), from whichever door drove it. */
  readonly onObservation = this.observationEmitter.event;
  /** Fires when a call starts and again when it ends (same id), from every door. */
  readonly onToolCall: Event<ToolCallRecord> = this.activity.onRecord;

  /** What the call pipeline's steps may ask of the supervisor. */
  private readonly environment: CallEnvironment;
  private readonly readyTimeoutMs: number;
  private readonly backoffMs: number[];
  private readonly now: () => number;

  constructor(private readonly options: SupervisorOptions) {
    this.factory = options.factory;
    this.readyTimeoutMs = options.readyTimeoutMs ?? 45000;
    this.backoffMs = options.backoffMs ?? [1000, 2000, 5000, 10000, 30000];
    this.now = options.now ?? Date.now;
    this.person = new PersonControl(this.now, options.log, () => this.watchedTabs.tabs);
    this.personDoor = new PersonDoor({
      control: this.person, activity: this.activity, notes: this.notes, live: () => this.live, ready: () => this.ready(), now: this.now, log: options.log,
    });
    this.environment = {
      toolPolicy: () => this.options.toolPolicy?.() ?? OPEN_POLICY,
      capabilityHint: tool => this.options.capabilityHint?.(tool),
      person: this.person,
      handBackTimeoutMs: () => this.options.handBackTimeoutMs?.() ?? 10 * 60_000,
      callTimeoutMs: () => this.options.callTimeoutMs(),
      ready: () => this.ready(),
      // The host's own tools are not the child's: their schemas are their records' definitions.
      tool: name => this.toolsByName.get(name) ?? toolRecord(name)?.definition,
      lastExit: () => this.lastExit,
      hostTool: name => this.hostTools.get(name),
      notes: this.notes,
    };
    this.onDidChangeControl = this.person.onDidChange;
  }

  /** The handlers of the tools the host answers itself, by name (their features register them). */
  private readonly hostTools = new Map<string, HostTool>();

  /** A feature of the host answers one of its tools: calls to it go through the pipeline to `run`. */
  registerHostTool(name: string, run: HostTool): { dispose(): void } {
    if (toolRecord(name)?.handler !== 'host') throw new Error(`${name} is not a host tool in core/tools/toolRegistry.ts`);
    this.hostTools.set(name, run);
    return { dispose: () => { if (this.hostTools.get(name) === run) this.hostTools.delete(name); } };
  }

  /** The child, while one runs. */
  private get live(): ChildConnection | undefined {
    return this.current && !this.current.exited ? this.current : undefined;
  }

  get status(): BridgeStatus {
    return this.currentStatus;
  }

  get health(): HostHealth {
    return this.healthTracker.current;
  }

  /** The child's tools, starting it if needed. */
  async listTools(): Promise<Tool[]> {
    await this.ready();
    return this.offered(this.cachedTools ?? []);
  }

  /** The tools agents are offered under the tool policy. */
  private offered(tools: Tool[]): Tool[] {
    const policy = this.options.toolPolicy?.() ?? OPEN_POLICY;
    return tools.filter(tool => isToolOffered(tool.name, policy));
  }

  /** Readonly mode or the allow/deny lists changed: clients that list tools hear of it. */
  toolPolicyChanged(): void {
    if (this.cachedTools) this.toolsEmitter.fire(this.offered(this.cachedTools));
  }

  /**
   * One tool call from any door, through the call pipeline (core/pipeline/callPipeline.ts): its steps
   * decide, the one result builder writes the result, finished once for both doors and the activity list.
   */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: SupervisedCallOptions = {}): Promise<CallToolResult> {
    const displayName = this.options.displayName?.(name) ?? this.toolsByName.get(name)?.annotations?.title ?? name;
    const door = options.door ?? 'tool';
    const end = this.activity.begin({ name, args, door, mcpSession: options.session?.id, title: presentInvocation(name, displayName, args).invocationMessage });
    const result = new CallResult();
    const call: CallContext = { name, args, door, forModel: door === 'tool' || door === 'mcp', options, result };
    try {
      await runCallPipeline(call, this.environment);
    } catch (error) {
      if (error instanceof CancelledError) {
        end({ outcome: 'cancelled', error: error.message });
        throw error;
      }
      // The child could not start (or the bridge shut down): a result that says so, at both doors alike.
      result.refuse((error as Error).message);
    }
    const finished = result.finish({ thumbnail: this.activity.thumbnails });
    end({ outcome: finished.result.isError ? 'error' : 'ok', result: finished.result, thumbnail: finished.thumbnail, error: finished.errorLine, checkpointSeq: call.marks?.checkpoint?.seq, origins: call.marks?.origins,
      ...(call.checkpoint ? { checkpoint: call.checkpoint } : {}), ...cardOf(call.marks) });
    return finished.result;
  }

  /**
   * Time travel: the window's browser put back to a checkpoint, listed in Activity as its own step (with the
   * restored state as its checkpoint). `notice`: what the model reads before its next result (chat's own
   * bridge_restore_step reads it in its answer instead). While the person has the browser it does not run.
   */
  async restoreCheckpoint(target: RestoreCheckpointParams, listing: { door: Door; title: string; args: Record<string, unknown>; notice?: string }): Promise<CheckpointFacts> {
    // Chat's bridge_restore_step is a call of the pipeline, listed as such: its answer carries the checkpoint.
    const end = listing.door === 'tool' ? () => undefined : this.activity.begin({ name: RESTORE_STEP_TOOL, args: listing.args, door: listing.door, title: listing.title });
    try {
      if (this.person.active && listing.door !== 'person') throw new Error('The person has the browser: ask them to hand it back first.');
      const restored = await (await this.ready()).request('restoreCheckpoint', target);
      const { storage } = target;
      const checkpoint: CheckpointFacts = { url: restored.url, title: restored.title, ...(target.viewport ? { viewport: target.viewport } : {}), tabCount: 1, ...(storage ? { storage } : {}) };
      end({ outcome: 'ok', checkpoint });
      // Restores are of the window's context only (the child restores nothing else).
      if (listing.notice) this.notes.of(WINDOW_CONTEXT).panel.set(listing.notice);
      return checkpoint;
    } catch (error) {
      end({ outcome: 'error', error: (error as Error).message.split('\n')[0] });
      throw error;
    }
  }

  /** A consumer that shows result thumbnails (the panel's store) says so; dispose when it goes. */
  wantThumbnails(): { dispose(): void } {
    return this.activity.wantThumbnails();
  }

  /** The tabs of the context the panel watches, as the child last said them (empty while none is open). */
  get tabs(): readonly TabInfo[] {
    return this.watchedTabs.tabs;
  }

  /** True while the person has the browser. */
  get personHasControl(): boolean {
    return this.person.active;
  }

  /** The person takes the browser (personDoor.ts): never rejects, so a caller may ignore it. */
  takeControl(): Promise<void> {
    return this.personDoor.takeControl();
  }

  /** The person hands the browser back (personDoor.ts): their recorded actions are listed, then waiting calls go on. */
  handBack(): Promise<void> {
    return this.personDoor.handBack();
  }

  /** The person's mouse or keyboard from the panel, to the page (only while a browser runs). */
  sendInput(event: InputEvent): void {
    this.personDoor.sendInput(event);
  }

  /** The person's navigation from the panel: listed in the activity list under their own door. */
  pageAction(action: PageAction): Promise<PageActionResult> {
    return this.personDoor.pageAction(action);
  }

  /**
   * Asks the running child over the control channel (the picker, a login profile's storage state, its
   * memory, a screenshot). Starts nothing: rejects with NoBrowserError when no browser runs.
   */
  async ask<K extends ControlRequestName>(name: K, params: ControlRequestParams<K>): Promise<ControlRequestResult<K>> {
    const child = this.live;
    if (!child) throw new NoBrowserError();
    return child.request(name, params);
  }

  /** Tells the running child (the panel watches another session, a client left); dropped when none runs. */
  tell<K extends ControlNotificationName>(name: K, params: ControlNotificationParams<K>): void {
    this.live?.notify(name, params);
  }

  /** The MCP door's clients: one that left gives up its own browser context (isolation `perClient`). */
  endSession(sessionId: string): void {
    this.notes.forget(sessionId);
    this.tell('closeSession', { sessionId });
  }

  /** Streams frames to the panel while it is visible; remembered for children started later. */
  setLiveView(params: LiveViewParams): void {
    this.liveView = params;
    this.tell('liveView', params);
  }

  /** Settings for the next start; a child already running keeps the settings it has. */
  useFactory(factory: ChildFactory): void {
    this.factory = factory;
  }

  /** Whether a child is running now. */
  get running(): boolean {
    return !!this.live;
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
      if (options.browserWasOpen !== false) this.notes.lostForAll(browserLostNotice(`the browser was restarted (${reason}).`));
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
    void starting.finally(() => {
      if (this.starting === starting) this.starting = undefined;
    }).catch(() => undefined);
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
        this.toolsEmitter.dispose();
        this.healthTracker.dispose();
        this.observationEmitter.dispose();
        this.activity.dispose();
        this.person.dispose();
      })();
    }
    return this.disposing;
  }

  /** The ready child, starting one if there is none (shared by every caller that asks meanwhile). */
  private ready(): Promise<ChildConnection> {
    this.assertNotDisposed();
    const child = this.live;
    if (child) return Promise.resolve(child);
    if (!this.starting) {
      const waitMs = this.retryAt - this.now();
      if (this.lastFailure && waitMs > 0) {
        const when = `The bridge tries again in ${Math.ceil(waitMs / 1000)} s, or now with the command "Playwright Bridge: Restart Browser".`;
        return Promise.reject(new Error(`${this.lastFailure}\n${when}`));
      }
      this.starting = this.start().finally(() => (this.starting = undefined));
    }
    return this.starting;
  }

  private async start(): Promise<ChildConnection> {
    const generation = ++this.generation;
    this.watchedTabs.reset();
    this.notes.restarted();
    this.setStatus({ state: generation > 1 ? 'restarting' : 'starting', generation });
    const events: ChildEvents = {
      onExit: why => this.onChildExit(generation, why),
      onToolsChanged: () => void this.refreshTools(generation),
      onBrowserState: state => {
        if (generation !== this.generation) return;
        this.watchedTabs.browserState(state);
        this.healthTracker.browserChanged(state);
      },
      onObservation: event => {
        if (generation !== this.generation) return;
        // Kept before anyone hears of the event, so a listener reads the tabs it brought.
        this.watchedTabs.observe(event);
        this.notes.observe(event);
        this.observationEmitter.fire(event);
      },
      onStderr: line => this.options.log(`[child ${generation}] ${line}`),
    };
    let connection: ChildConnection | undefined;
    const pending = this.factory(events);
    try {
      connection = await withDeadline(pending, this.readyTimeoutMs, `start did not finish within ${this.readyTimeoutMs} ms`);
      const tools = await withDeadline(connection.listTools(), this.readyTimeoutMs, `tools/list did not finish within ${this.readyTimeoutMs} ms`);
      if (this.disposing) throw new Error('Playwright Bridge was shut down while the browser was starting.');
      if (connection.exited) throw new Error('the child exited right after it started');
      const changed = this.cacheTools(tools);
      this.current = connection;
      if (this.liveView.enabled) connection.notify('liveView', this.liveView);
      this.failures = 0;
      this.lastFailure = undefined;
      this.setStatus({ state: 'ready', generation, pid: connection.pid });
      this.options.log(`Child ${generation} ready (pid ${connection.pid}, ${tools.length} tools)`);
      if (changed) this.toolsEmitter.fire(this.offered(tools));
      return connection;
    } catch (error) {
      // Whatever half-started is killed, including a start that answers after the deadline.
      if (connection) void connection.dispose(0);
      else pending.then(late => late.dispose(0), () => undefined);
      const delay = this.backoffMs[Math.min(this.failures, this.backoffMs.length - 1)];
      this.failures++;
      this.retryAt = this.now() + delay;
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
    this.lastExit = why;
    this.notes.lostForAll(browserLostNotice(`the browser process stopped unexpectedly (${why}).`));
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
      if (this.cacheTools(tools)) this.toolsEmitter.fire(this.offered(tools));
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
