import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CheckpointFacts,
  InputEvent,
  LiveViewParams,
  ObservationEvent,
  PageAction,
  PageActionResult,
  RestoreCheckpointParams,
  TabInfo,
} from '../../protocol/childMessages';
import type {
  ControlNotificationName,
  ControlNotificationParams,
  ControlRequestName,
  ControlRequestParams,
  ControlRequestResult,
} from '../../protocol/controlChannel';
import { BridgeState, Door } from '../../protocol/panelMessages';
import { ChildFactory } from '../childProcess/childProcess';
import { presentInvocation } from '../results/invocationMessages';
import { CallEnvironment } from '../pipeline/callContext';
import { runCallPipeline } from '../pipeline/callPipeline';
import { CallResult } from '../pipeline/callResult';
import { CancelledError } from '../pipeline/steps/cancelled';
import { isToolOffered, OPEN_POLICY, ToolPolicySettings } from '../tools/toolPolicy';
import { Emitter, Event } from '../emitter';
import { PersonControl } from './personControl';
import { PersonDoor } from './personDoor';
import { ActivityLog, cardOf, type ToolCallRecord } from './activityLog';
import { ChildLifecycle } from './childLifecycle';
import { WatchedTabs } from './watchedTabs';
import type { BridgeStatus, HostHealth } from './browserHealth';
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
 * Keeps one child alive for every door: the facade the rest of the host calls. Each concern is its own file:
 * the child's start, restart and backoff (childLifecycle.ts), the activity list (activityLog.ts), the person's
 * door (personDoor.ts) and their control (personControl.ts); each tool call goes through the call pipeline
 * (core/pipeline). After the child dies, the calls that find it dead share one bounded restart, are forwarded
 * exactly once to the replacement once it has proven ready, and the first result after a restart tells the
 * model its state was lost.
 */
export class Supervisor {
  /** The notes a model reads before its next result, each kept for the context it speaks of (contextNotes.ts). */
  private readonly notes = new ContextNotes();
  /** The watched context's tabs: the one copy in the host (the panel's store and the person's control read it). */
  private readonly watchedTabs = new WatchedTabs();
  private readonly child: ChildLifecycle;
  private readonly activity = new ActivityLog();
  /** The person at the panel: Take control / Hand back, and what they changed meanwhile. */
  private readonly person: PersonControl;
  private readonly personDoor: PersonDoor;
  private readonly toolsEmitter = new Emitter<Tool[]>();
  private readonly observationEmitter = new Emitter<ObservationEvent>();
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  /** Network's Preserve log, told to every child that starts while it is on. */
  private preserveNetworkLog = false;
  private disposing: Promise<void> | undefined;

  readonly onDidChangeStatus: Event<BridgeStatus>;
  readonly onDidChangeTools = this.toolsEmitter.event;
  readonly onDidChangeHealth: Event<HostHealth>;
  /** Fires true when the person takes the browser and false when they hand it back. */
  readonly onDidChangeControl: Event<boolean>;
  /** What the browser does (tabs, console, network, frames), from whichever door drove it. */
  readonly onObservation = this.observationEmitter.event;
  /** Fires when a call starts and again when it ends (same id), from every door. */
  readonly onToolCall: Event<ToolCallRecord> = this.activity.onRecord;

  /** What the call pipeline's steps may ask of the supervisor. */
  private readonly environment: CallEnvironment;

  constructor(private readonly options: SupervisorOptions) {
    const now = options.now ?? Date.now;
    this.child = new ChildLifecycle({
      factory: options.factory,
      log: options.log,
      readyTimeoutMs: options.readyTimeoutMs ?? 45000,
      backoffMs: options.backoffMs ?? [1000, 2000, 5000, 10000, 30000],
      now,
      listener: {
        starting: () => {
          this.watchedTabs.reset();
          this.notes.restarted();
        },
        browserState: state => this.watchedTabs.browserState(state),
        observation: event => {
          // Kept before anyone hears of the event, so a listener reads the tabs it brought.
          this.watchedTabs.observe(event);
          this.notes.observe(event);
          if (event.kind === 'personClicked') this.personDoor.clicked(event);
          this.observationEmitter.fire(event);
        },
        attached: connection => {
          if (this.liveView.enabled) connection.notify('liveView', this.liveView);
          if (this.preserveNetworkLog) connection.notify('preserveNetworkLog', { on: true });
        },
        toolsChanged: tools => this.toolsEmitter.fire(this.offered(tools)),
        lost: notice => this.notes.lostForAll(notice),
      },
    });
    this.person = new PersonControl(now, options.log, () => this.watchedTabs.tabs);
    this.personDoor = new PersonDoor({
      control: this.person,
      activity: this.activity,
      notes: this.notes,
      live: () => this.child.live,
      ready: () => this.child.ready(),
      now,
      log: options.log,
    });
    this.environment = {
      toolPolicy: () => this.options.toolPolicy?.() ?? OPEN_POLICY,
      capabilityHint: tool => this.options.capabilityHint?.(tool),
      person: this.person,
      handBackTimeoutMs: () => this.options.handBackTimeoutMs?.() ?? 10 * 60_000,
      callTimeoutMs: () => this.options.callTimeoutMs(),
      ready: () => this.child.ready(),
      // The host's own tools are not the child's: their schemas are their records' definitions.
      tool: name => this.child.tool(name) ?? toolRecord(name)?.definition,
      lastExit: () => this.child.lastExit,
      hostTool: name => this.hostTools.get(name),
      notes: this.notes,
    };
    this.onDidChangeStatus = this.child.onDidChangeStatus;
    this.onDidChangeHealth = this.child.onDidChangeHealth;
    this.onDidChangeControl = this.person.onDidChange;
  }

  /** The handlers of the tools the host answers itself, by name (their features register them). */
  private readonly hostTools = new Map<string, HostTool>();

  /** A feature of the host answers one of its tools: calls to it go through the pipeline to `run`. */
  registerHostTool(name: string, run: HostTool): { dispose(): void } {
    if (toolRecord(name)?.handler !== 'host') throw new Error(`${name} is not a host tool in core/tools/toolRegistry.ts`);
    this.hostTools.set(name, run);
    return {
      dispose: () => {
        if (this.hostTools.get(name) === run) this.hostTools.delete(name);
      },
    };
  }

  get status(): BridgeStatus {
    return this.child.status;
  }

  get health(): HostHealth {
    return this.child.health;
  }

  /** The child's tools, starting it if needed. */
  async listTools(): Promise<Tool[]> {
    await this.child.ready();
    return this.offered(this.child.tools ?? []);
  }

  /** The tools agents are offered under the tool policy. */
  private offered(tools: Tool[]): Tool[] {
    const policy = this.options.toolPolicy?.() ?? OPEN_POLICY;
    return tools.filter(tool => isToolOffered(tool.name, policy));
  }

  /** Readonly mode or the allow/deny lists changed: clients that list tools hear of it. */
  toolPolicyChanged(): void {
    const tools = this.child.tools;
    if (tools) this.toolsEmitter.fire(this.offered(tools));
  }

  /**
   * One tool call from any door, through the call pipeline (core/pipeline/callPipeline.ts): its steps
   * decide, the one result builder writes the result, finished once for both doors and the activity list.
   */
  async callTool(name: string, args: Record<string, unknown> | undefined, options: SupervisedCallOptions = {}): Promise<CallToolResult> {
    const displayName = this.options.displayName?.(name) ?? this.child.tool(name)?.annotations?.title ?? name;
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
    end({
      outcome: finished.result.isError ? 'error' : 'ok',
      result: finished.result,
      thumbnail: finished.thumbnail,
      error: finished.errorLine,
      checkpointSeq: call.marks?.checkpoint?.seq,
      origins: call.marks?.origins,
      ...(call.checkpoint ? { checkpoint: call.checkpoint } : {}),
      ...cardOf(call.marks),
    });
    return finished.result;
  }

  /**
   * Time travel: the window's browser put back to a checkpoint, listed in Activity as its own step (with the
   * restored state as its checkpoint). `notice`: what the model reads before its next result (chat's own
   * bridge_restore_step reads it in its answer instead). While the person has the browser it does not run.
   */
  async restoreCheckpoint(
    target: RestoreCheckpointParams,
    listing: { door: Door; title: string; args: Record<string, unknown>; notice?: string },
  ): Promise<CheckpointFacts> {
    // Chat's bridge_restore_step is a call of the pipeline, listed as such: its answer carries the checkpoint.
    const end =
      listing.door === 'tool'
        ? () => undefined
        : this.activity.begin({ name: RESTORE_STEP_TOOL, args: listing.args, door: listing.door, title: listing.title });
    try {
      if (this.person.active && listing.door !== 'person') throw new Error('The person has the browser: ask them to hand it back first.');
      const restored = await (await this.child.ready()).request('restoreCheckpoint', target);
      const { storage } = target;
      const checkpoint: CheckpointFacts = {
        url: restored.url,
        title: restored.title,
        ...(target.viewport ? { viewport: target.viewport } : {}),
        tabCount: 1,
        ...(storage ? { storage } : {}),
      };
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
    const child = this.child.live;
    if (!child) throw new NoBrowserError();
    return child.request(name, params);
  }

  /** Tells the running child (the panel watches another session, a client left); dropped when none runs. */
  tell<K extends ControlNotificationName>(name: K, params: ControlNotificationParams<K>): void {
    this.child.live?.notify(name, params);
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

  /** Network's Preserve log: the child keeps bodies as responses end (see CONTROL_NOTIFICATIONS); remembered for children started later. */
  setPreserveNetworkLog(on: boolean): void {
    this.preserveNetworkLog = on;
    this.tell('preserveNetworkLog', { on });
  }

  /** Settings for the next start; a child already running keeps the settings it has. */
  useFactory(factory: ChildFactory): void {
    this.child.useFactory(factory);
  }

  /** Whether a child is running now. */
  get running(): boolean {
    return !!this.child.live;
  }

  /**
   * Replaces the child now (the Restart Browser command). With a factory, the replacement uses it
   * (new settings); otherwise it uses the same settings as before.
   */
  restart(reason: string, factory?: ChildFactory, options: { browserWasOpen?: boolean } = {}): Promise<void> {
    return this.child.restart(reason, factory, options);
  }

  /** Ends the child and everything below it. Safe to call more than once. */
  dispose(): Promise<void> {
    if (!this.disposing) {
      this.disposing = (async () => {
        await this.child.dispose();
        this.toolsEmitter.dispose();
        this.observationEmitter.dispose();
        this.activity.dispose();
        this.person.dispose();
      })();
    }
    return this.disposing;
  }
}
