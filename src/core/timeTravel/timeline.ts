/**
 * Time travel's record: a checkpoint after every step of the window's browser (each tool call, each burst
 * of the person's input), kept in the extension host under a byte budget, never in the workspace. A step
 * holds what the panel showed right after it (the last frame before the next step began), the snapshot
 * upstream wrote, the console lines and requests since the step before, and the child's facts: address,
 * title, size and the storage when it changed. A step that changed nothing the child saw (a read, a failed
 * call) shares the state of the step before; shared parts are counted once.
 */
import type { CheckpointFacts, CheckpointStorageTooLarge, ObservationEvent, RestoreCheckpointParams } from '../../protocol/childMessages';
import type { ConsoleRow, Door, FrameMessage, HostToPanel, MarkerRow, NetworkRow, StepView } from '../../protocol/panelMessages';
import { isMarker } from '../../protocol/panelRows';
import type { Event } from '../emitter';
import { Emitter } from '../emitter';
import { approximateBytes } from '../liveView/ringBuffer';
import { keptArgs, keptBytes, keptLine, MAX_STEP_ROWS_BYTES } from '../egress/byteBounds';
import { answerOf } from '../testExport/answerSections';
import { PERSON_ACTIONS, type ToolCallRecord } from '../supervision/activityLog';
import { RESTORE_STEP_TOOL } from '../tools/ownTools';

/** Why a step cannot be put back, where time travel does not apply. */
export const RESTORE_OFF =
  'Time travel cannot put this browser back: it is off (playwrightBridge.timeTravel.enabled), or the browser is your own, reached over CDP.';

/** The page as a step left it: the child's facts without the storage, which is kept apart (shared). */
export type PageFacts = Omit<CheckpointFacts, 'storage'>;

/** A part several steps may share (the step that made it and the ones after that changed nothing). */
interface Shared<T> {
  value: T;
  bytes: number;
}

export interface TimelineStep {
  /** 1 for the first step this window kept. */
  index: number;
  /** Its row in the panel's Activity (ToolCallRecord.id). */
  callId: number;
  tool: string;
  /**
   * What the call was given (secrets by name only: the model never has their values), up to MAX_KEPT_ARGS_BYTES
   * (egress/byteBounds.ts), a failed call's up to REFUSED_ARGS_BYTES; larger values cut with a marker.
   */
  args: Record<string, unknown>;
  title: string;
  door: Door;
  ok: boolean;
  /** Why it failed, in one line (at most MAX_KEPT_LINE_CHARS). */
  error?: string;
  startedAt: number;
  /** When it ended (ms since the epoch). */
  at: number;
  page?: Shared<PageFacts>;
  storage?: Shared<string>;
  snapshot?: Shared<string>;
  frame?: Shared<FrameMessage>;
  console: ConsoleRow[];
  network: NetworkRow[];
  /** What this step alone holds (its shared parts counted at the first step that holds them). */
  bytes: number;
  /** The child's checkpoint for it is on its way (its seq). */
  awaiting?: number;
}

/** What the timeline listens to: the supervisor's calls, the live view's rows and frames. */
export interface TimelineSources {
  onToolCall: Event<ToolCallRecord>;
  /** The child's checkpoints arrive as observations, just after the result they belong to. */
  onObservation: Event<ObservationEvent>;
  onMessage: Event<HostToPanel>;
  onFrame: Event<FrameMessage>;
  /** True while MCP sessions get contexts of their own (isolation `perClient`): their calls are not the window's steps. */
  clientsIsolated(): boolean;
  /** Upstream's snapshot file named in an answer, read from the output folder (undefined: not there). */
  readSnapshot(file: string): string | undefined;
  /** The child's checkpoint now, for a burst of the person's input (undefined: none could be had). */
  checkpointNow(): Promise<CheckpointFacts | undefined>;
  /** True while the panel shows the window's browser: frames, rows and the person's input then are its (not an MCP client's). */
  watchingWindow(): boolean;
}

/**
 * Console lines and requests one step keeps at most (a page that floods between two steps cannot outgrow the
 * budget), besides MAX_STEP_ROWS_BYTES of each.
 */
const STEP_ROWS = 2000;

/** After the person's last input of a burst, the page is given this long to settle before its checkpoint. */
const PERSON_SETTLE_MS = 700;

export class Timeline {
  private readonly kept: TimelineStep[] = [];
  private next = 1;
  private bytes = 0;
  /** Steps dropped to keep the budget. */
  dropped = 0;
  /** Window calls running now: a frame drawn meanwhile is mid-step, not after one. */
  private running = new Set<number>();
  private pendingConsole: ConsoleRow[] = [];
  private pendingConsoleBytes = 0;
  private pendingNetwork = new Map<number, NetworkRow>();
  /** What each pending request row costs (approximateBytes), by seq: their sum is pendingNetworkBytes. */
  private readonly pendingNetworkSizes = new Map<number, number>();
  private pendingNetworkBytes = 0;
  /** Where each recent request row went, so its finish updates the step it started in. */
  private readonly networkHome = new Map<number, TimelineStep>();
  private personTimer: NodeJS.Timeout | undefined;
  /** Checkpoints that arrived before their step was listed, by seq. */
  private readonly early = new Map<number, CheckpointFacts>();
  private readonly changed = new Emitter<void>();
  /** A step was added, dropped or completed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: { dispose(): void }[];

  constructor(
    private readonly sources: TimelineSources,
    private readonly maxBytes: () => number,
  ) {
    this.subscriptions = [
      sources.onToolCall(record => this.onCall(record)),
      sources.onObservation(event => {
        if (event.kind !== 'checkpoint') return;
        for (let i = this.kept.length - 1; i >= 0; i--) {
          if (this.kept[i].awaiting === event.seq) return this.completeFacts(this.kept[i], event.facts);
        }
        // It came before the call's record ended (the host was still finishing the result): kept for it.
        this.early.set(event.seq, event.facts);
        if (this.early.size > 4) this.early.delete(this.early.keys().next().value!);
      }),
      sources.onMessage(message => this.onRows(message)),
      sources.onFrame(frame => this.onFrame(frame)),
    ];
  }

  get steps(): readonly TimelineStep[] {
    return this.kept;
  }

  get keptBytes(): number {
    return this.bytes;
  }

  /** The step listed as this activity row, if it was kept. */
  stepOfCall(callId: number): TimelineStep | undefined {
    return this.kept.find(step => step.callId === callId);
  }

  step(index: number): TimelineStep | undefined {
    const first = this.kept[0]?.index ?? this.next;
    return this.kept[index - first];
  }

  view(index: number, restorable: boolean): StepView | undefined {
    const step = this.step(index);
    if (!step) return undefined;
    const pictured = this.pictureOf(step);
    const target = this.restoreTarget(index);
    const notRestorable = !restorable ? RESTORE_OFF : 'problem' in target ? target.problem : undefined;
    return {
      index: step.index,
      total: this.next - 1,
      at: step.at,
      tool: step.tool,
      title: step.title,
      door: step.door,
      url: step.page?.value.url,
      pageTitle: step.page?.value.title,
      ...(pictured.frame ? { frame: { data: pictured.frame.value.data, width: pictured.frame.value.width, height: pictured.frame.value.height } } : {}),
      ...(pictured !== step && pictured.frame ? { frameFrom: pictured.index } : {}),
      snapshot: step.snapshot?.value,
      console: step.console,
      network: step.network,
      restorable: notRestorable === undefined,
      ...(notRestorable ? { notRestorable } : {}),
      dropped: this.dropped,
    };
  }

  /**
   * Resolves once the step's checkpoint (or every pending one) has come: it follows the step's result by
   * milliseconds. After `timeoutMs` it resolves anyway (a child that went away sends none; the step keeps
   * the state of the step before it).
   */
  settled(index?: number, timeoutMs = 5000): Promise<void> {
    const pending = () => (index === undefined ? this.kept.some(step => step.awaiting !== undefined) : this.step(index)?.awaiting !== undefined);
    if (!pending()) return Promise.resolve();
    return new Promise<void>(resolve => {
      const done = () => {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const subscription = this.onDidChange(() => {
        if (!pending()) done();
      });
    });
  }

  /** The step listed as an Activity row, as the panel shows it, or why there is none. */
  viewOfCall(callId: number, restorable: boolean): { view: StepView } | { problem: string } {
    const step = this.stepOfCall(callId);
    const view = step && this.view(step.index, restorable);
    if (view) return { view };
    return {
      problem: this.dropped
        ? "That row is not a kept step: a read of the panel's own, another session's call, or a step dropped to keep the time travel budget."
        : "That row is not a step of this window's browser (a read of the panel's own, or another session's call).",
    };
  }

  /**
   * The step's own picture, or one of a step that saw the same page: the steps that changed nothing the child
   * saw (reads) after the same checkpoint. The nearest later one first (the page as it stood when the agent
   * read it), then the nearest earlier one. Never across a checkpoint: another page's picture would lie.
   */
  private pictureOf(step: TimelineStep): TimelineStep {
    if (step.frame || !step.page) return step;
    const at = this.kept.indexOf(step);
    for (let i = at + 1; i < this.kept.length && this.kept[i].page === step.page; i++) if (this.kept[i].frame) return this.kept[i];
    for (let i = at - 1; i >= 0 && this.kept[i].page === step.page; i--) if (this.kept[i].frame) return this.kept[i];
    return step;
  }

  /** What the child needs to put the browser back to step `index`, or why it cannot. */
  restoreTarget(index: number): RestoreCheckpointParams | { problem: string } {
    const step = this.step(index);
    if (!step)
      return {
        problem:
          index < (this.kept[0]?.index ?? 1)
            ? `Step ${index} is no longer kept (the oldest ${this.dropped} steps were dropped to keep the time travel budget).`
            : `There is no step ${index}.`,
      };
    if (!step.page || !step.storage) return { problem: `Step ${index} has no recorded page to go back to (time travel was off, or no browser ran yet).` };
    const notKept = storageNotKept(step.storage.value);
    if (notKept) {
      // With no size known (a read that was stopped, say), the child's reason is all there is to say.
      return {
        problem:
          notKept.tooLarge > 0
            ? `Step ${index} cannot be restored: its page stored ${(notKept.tooLarge / 1048576).toFixed(1)} M characters, more than a checkpoint keeps.`
            : `Step ${index} cannot be restored: its storage was not kept (${notKept.reason ?? 'it could not be read'}).`,
      };
    }
    const { url, viewport, context } = step.page.value;
    if (!/^(https?|file):/.test(url)) return { problem: `Step ${index} was on ${url || 'no page'}, which cannot be opened again.` };
    return { url, ...(viewport ? { viewport } : {}), ...(context !== undefined ? { context } : {}), storage: step.storage.value };
  }

  dispose(): void {
    clearTimeout(this.personTimer);
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.changed.dispose();
  }

  /** True while a call of the window's browser runs (a restore waits for none: it would pull the page from under it). */
  get busy(): boolean {
    return this.running.size > 0;
  }

  private isWindowStep(record: ToolCallRecord): boolean {
    if (record.door === 'panel') return false;
    // The person's hands on another session's browser are that session's.
    if (record.door === 'person' && !this.sources.watchingWindow()) return false;
    if (record.mcpSession !== undefined && this.sources.clientsIsolated()) return false;
    return true;
  }

  private onCall(record: ToolCallRecord): void {
    if (!this.isWindowStep(record)) return;
    if (record.outcome === undefined) {
      this.running.add(record.id);
      return;
    }
    this.running.delete(record.id);
    if (record.outcome === 'cancelled') return;
    const step = this.add(record);
    if (record.door === 'person' && record.name !== PERSON_ACTIONS && record.name !== RESTORE_STEP_TOOL) this.checkpointAfterPerson(step);
  }

  private add(record: ToolCallRecord): TimelineStep {
    const before = this.kept.at(-1);
    const ok = record.outcome === 'ok';
    const step: TimelineStep = {
      index: this.next++,
      callId: record.id,
      tool: keptLine(record.name),
      // A failed call (refused, or an error from the browser) keeps a short record: a restore goes to its page, never repeats it.
      args: keptArgs(record.args, !ok).value,
      title: keptLine(record.title),
      door: record.door,
      ok,
      ...(record.error ? { error: keptLine(record.error) } : {}),
      startedAt: record.startedAt,
      at: record.startedAt + (record.durationMs ?? 0),
      console: this.pendingConsole,
      network: [...this.pendingNetwork.values()],
      bytes: 0,
    };
    step.bytes = keptBytes(step.args) + 2 * (step.title.length + (step.error?.length ?? 0)) + this.pendingConsoleBytes + this.pendingNetworkBytes;
    this.pendingConsole = [];
    this.pendingConsoleBytes = 0;
    this.pendingNetwork = new Map();
    this.pendingNetworkSizes.clear();
    this.pendingNetworkBytes = 0;
    for (const row of step.network) this.networkHome.set(row.seq, step);
    this.bytes += step.bytes;
    this.kept.push(step);
    const seq = record.checkpointSeq;
    const arrived = seq === undefined ? undefined : this.early.get(seq);
    if (seq !== undefined) this.early.delete(seq);
    this.setFacts(step, record.checkpoint ?? arrived, before);
    if (seq !== undefined && !arrived) step.awaiting = seq;
    const answer = answerOf(record.result);
    const snapshot = answer.snapshot ?? (answer.snapshotFile ? this.sources.readSnapshot(answer.snapshotFile) : undefined);
    step.snapshot =
      snapshot === undefined ? before?.snapshot : snapshot === before?.snapshot?.value ? before.snapshot : this.own(step, snapshot, snapshot.length * 2);
    this.trim();
    this.changed.fire();
    return step;
  }

  /** The child's facts for a step (its own, or the step before's when it changed nothing the child saw). */
  private setFacts(step: TimelineStep, facts: CheckpointFacts | undefined, before: TimelineStep | undefined): void {
    if (!facts) {
      step.page = before?.page;
      step.storage = before?.storage;
      return;
    }
    const { storage, ...page } = facts;
    step.page = this.own(step, page, approximateBytes(page));
    // A storage that would take half the budget is not kept: the step says it cannot be restored.
    const kept = storage !== undefined && storage.length * 2 > this.maxBytes() / 2 ? JSON.stringify({ tooLarge: storage.length }) : storage;
    step.storage = kept === undefined ? before?.storage : this.own(step, kept, kept.length * 2);
  }

  /** A part first held by `step`: its bytes are counted there. */
  private own<T>(step: TimelineStep, value: T, bytes: number): Shared<T> {
    step.bytes += bytes;
    this.bytes += bytes;
    return { value, bytes };
  }

  /** The person's input settles, then the child says where the page is and what it stores. */
  private checkpointAfterPerson(step: TimelineStep): void {
    clearTimeout(this.personTimer);
    this.personTimer = setTimeout(() => {
      void this.sources.checkpointNow().then(
        facts => {
          if (facts) this.completeFacts(step, facts);
        },
        () => undefined,
      );
    }, PERSON_SETTLE_MS);
    this.personTimer.unref?.();
  }

  /** A step's checkpoint came after the step was listed: it takes it, and so do the steps after it that changed nothing. */
  private completeFacts(step: TimelineStep, facts: CheckpointFacts): void {
    const at = this.kept.indexOf(step);
    if (at < 0) return;
    step.awaiting = undefined;
    const before = this.kept[at - 1];
    const [page, storage] = [step.page, step.storage];
    this.setFacts(step, facts, before);
    for (let i = at + 1; i < this.kept.length && this.kept[i].page === page && this.kept[i].awaiting === undefined; i++) {
      this.kept[i].page = step.page;
      this.kept[i].storage = this.kept[i].storage === storage ? step.storage : this.kept[i].storage;
    }
    this.trim();
    this.changed.fire();
  }

  private onRows(message: HostToPanel): void {
    if (!this.sources.watchingWindow()) return;
    if (message.type === 'console') {
      for (const row of message.rows) {
        if (isMarker(row)) continue;
        this.pendingConsole.push(row as ConsoleRow);
        this.pendingConsoleBytes += approximateBytes(row);
      }
      // The oldest lines go past either bound (the newest stays).
      let drop = 0;
      while (this.pendingConsole.length - drop > 1 && (this.pendingConsole.length - drop > STEP_ROWS || this.pendingConsoleBytes > MAX_STEP_ROWS_BYTES)) {
        this.pendingConsoleBytes -= approximateBytes(this.pendingConsole[drop++]);
      }
      if (drop) this.pendingConsole.splice(0, drop);
    } else if (message.type === 'network') {
      for (const row of message.rows as (NetworkRow | MarkerRow)[]) {
        if (isMarker(row)) continue;
        // A request that finished after its step ended is shown finished in that step.
        const home = this.networkHome.get(row.seq);
        if (home) {
          const at = home.network.findIndex(r => r.seq === row.seq);
          if (at >= 0) home.network[at] = row;
        } else {
          const size = approximateBytes(row);
          this.pendingNetworkBytes += size - (this.pendingNetworkSizes.get(row.seq) ?? 0);
          this.pendingNetwork.set(row.seq, row);
          this.pendingNetworkSizes.set(row.seq, size);
          while (this.pendingNetwork.size > 1 && (this.pendingNetwork.size > STEP_ROWS || this.pendingNetworkBytes > MAX_STEP_ROWS_BYTES)) {
            const oldest = this.pendingNetwork.keys().next().value!;
            this.pendingNetworkBytes -= this.pendingNetworkSizes.get(oldest) ?? 0;
            this.pendingNetwork.delete(oldest);
            this.pendingNetworkSizes.delete(oldest);
          }
        }
      }
    }
  }

  /** A frame drawn while no step runs shows the page after the last one (the last such frame before the next step wins). */
  private onFrame(frame: FrameMessage): void {
    const last = this.kept.at(-1);
    if (!last || this.running.size || !this.sources.watchingWindow()) return;
    if (last.frame) {
      // Replaced by a later one: its bytes go.
      last.bytes -= last.frame.bytes;
      this.bytes -= last.frame.bytes;
    }
    last.frame = this.own(last, frame, frame.data.length);
  }

  /** Oldest steps go until the rest fit; a part the next step shares is counted there from then on. */
  private trim(): void {
    const max = this.maxBytes();
    while (this.bytes > max && this.kept.length > 1) {
      const gone = this.kept.shift()!;
      const heir = this.kept[0];
      for (const part of ['page', 'storage', 'snapshot', 'frame'] as const) {
        const shared = gone[part];
        if (shared && heir[part] === shared) {
          heir.bytes += shared.bytes;
          gone.bytes -= shared.bytes;
        }
      }
      for (const row of gone.network) this.networkHome.delete(row.seq);
      this.bytes -= gone.bytes;
      this.dropped++;
    }
  }
}

/** How much a step's page stored, and why, when its storage was not kept (the child or the budget said so). */
function storageNotKept(json: string): CheckpointStorageTooLarge | undefined {
  if (!json.startsWith('{"tooLarge":')) return undefined;
  return JSON.parse(json) as CheckpointStorageTooLarge;
}
