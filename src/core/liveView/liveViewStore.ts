import { Emitter, Event } from '../emitter';
import { ObservationEvent, WatchableContext, TabInfo } from '../../protocol/childMessages';
import { type DevtoolsCard, type Emulation, NO_EMULATION } from '../../protocol/devtoolsFacts';
import { approximateBytes, RingBuffer } from './ringBuffer';
import { keptCard, keptLine, MAX_KEPT_NOTE_CHARS } from '../egress/byteBounds';
import type { ToolCallRecord } from '../supervision/activityLog';
import type { HostHealth } from '../supervision/browserHealth';
import { ActivityRow, ConsoleRow, ExportStatus, FrameMessage, HostToPanel, MarkerRow, NetworkRow, PanelState } from '../../protocol/panelMessages';

/** The supervisor's events the store listens to (the supervisor itself in the extension). */
export interface LiveViewSource {
  /** Whether the browser is there, as its one owner (core/supervision/browserHealth.ts) works it out. */
  readonly health: HostHealth;
  readonly onDidChangeHealth: Event<HostHealth>;
  readonly onObservation: Event<ObservationEvent>;
  readonly onToolCall: Event<ToolCallRecord>;
  readonly personHasControl: boolean;
  readonly onDidChangeControl: Event<boolean>;
  /** The watched context's tabs: kept by the source, read here (the store keeps no copy). */
  readonly tabs: readonly TabInfo[];
  /** The store shows thumbnails of image results: the source makes them only while someone does. */
  wantThumbnails(): { dispose(): void };
  /** Network's Preserve log: the browser's side keeps the bodies of the requests the list keeps. */
  setPreserveNetworkLog(on: boolean): void;
}

/** How much each list keeps: entries, and bytes (by approximateBytes) so long rows cannot add up. */
export interface LiveViewLimits {
  console: number;
  network: number;
  activity: number;
  consoleBytes: number;
  networkBytes: number;
  activityBytes: number;
}

const MB = 1024 * 1024;

/** The panel's bounds (src/README.md points here): 4 MB of console, 2 MB of requests, 4 MB of calls (with their thumbnails), and one frame. */
export const DEFAULT_LIVE_VIEW_LIMITS: LiveViewLimits = {
  console: 2000,
  network: 2000,
  activity: 500,
  consoleBytes: 4 * MB,
  networkBytes: 2 * MB,
  activityBytes: 4 * MB,
};

/**
 * What the panel shows, kept in the extension host so a panel can close and reopen without losing
 * anything: bounded console, network and activity lists, the tabs, the bridge state and the latest
 * frame. Cleared, with a visible marker, when a new browser replaces the old one.
 */
export class LiveViewStore {
  private readonly console: RingBuffer<ConsoleRow | MarkerRow>;
  private readonly network: RingBuffer<NetworkRow | MarkerRow>;
  private readonly activity: RingBuffer<ActivityRow | MarkerRow>;
  private readonly requestSeq = new Map<string, number>();
  private readonly callSeq = new Map<number, number>();
  private sessions: WatchableContext[] = [];
  private health: HostHealth;
  private paused = false;
  private frameSource: PanelState['frameSource'];
  private lastFrame: FrameMessage | undefined;
  private frameSeq = 0;
  private generationShown: number;
  /** The Network pane's controls as they apply now (a new browser starts without them). */
  private networkConditions: Emulation = NO_EMULATION;
  /** A page is paused in a debugger on the managed CDP endpoint (the child says when it pauses and resumes). */
  private debuggerPaused = false;
  private preserveLog = false;
  /** The Console's own Preserve log (DevTools keeps the two apart too). */
  private preserveConsole = false;

  private readonly messages = new Emitter<HostToPanel>();
  private readonly frames = new Emitter<FrameMessage>();
  private readonly pausedEmitter = new Emitter<boolean>();
  readonly onMessage = this.messages.event;
  readonly onFrame = this.frames.event;
  readonly onDidChangePaused = this.pausedEmitter.event;
  private readonly subscriptions: { dispose(): void }[];

  constructor(
    private readonly source: LiveViewSource,
    private readonly browserLabel: () => string,
    limits: LiveViewLimits = DEFAULT_LIVE_VIEW_LIMITS,
  ) {
    this.console = new RingBuffer(limits.console, limits.consoleBytes);
    this.network = new RingBuffer(limits.network, limits.networkBytes);
    this.activity = new RingBuffer(limits.activity, limits.activityBytes);
    this.health = source.health;
    this.generationShown = source.health.generation;
    this.subscriptions = [
      source.onDidChangeHealth(health => this.onHealth(health)),
      source.onObservation(event => this.onObservation(event)),
      source.onToolCall(record => this.onToolCall(record)),
      source.wantThumbnails(),
      source.onDidChangeControl(() => this.emitState()),
    ];
  }

  /** What the store holds for the panel, by approximateBytes: the three lists and the last frame. */
  get keptBytes(): number {
    return this.console.byteSize + this.network.byteSize + this.activity.byteSize + (this.lastFrame ? approximateBytes(this.lastFrame) : 0);
  }

  get isPaused(): boolean {
    return this.paused;
  }

  get latestFrame(): FrameMessage | undefined {
    return this.lastFrame;
  }

  get currentTab(): TabInfo | undefined {
    return this.source.tabs.find(t => t.current);
  }

  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    this.pausedEmitter.fire(paused);
    this.emitState();
  }

  state(): PanelState {
    return {
      health: panelHealth(this.health),
      browser: this.browserLabel(),
      tabs: [...this.source.tabs],
      paused: this.paused,
      frameSource: this.frameSource,
      driver: this.source.personHasControl ? 'person' : 'agent',
      ...(this.debuggerPaused ? { debuggerPaused: true } : {}),
      sessions: this.sessions.map(({ id, label }) => ({ id, label })),
      watching: this.sessions.find(s => s.watched)?.id ?? 'window',
      network: { ...this.networkConditions, preserveLog: this.preserveLog },
      console: { preserveLog: this.preserveConsole },
    };
  }

  /** Network's Clear: the list starts again (a line says so); requests still running are not listed again. */
  clearNetwork(): void {
    this.pushMarker('Network log cleared', ['network'], true);
    // With Preserve log on, the cleared requests' kept bodies go too: the child keeps from now.
    if (this.preserveLog) this.source.setPreserveNetworkLog(true);
  }

  /** Preserve log: with it off (the default), a navigation of the page starts the list again. */
  setPreserveLog(on: boolean): void {
    this.preserveLog = on;
    // The list keeps an earlier page's requests: the child keeps their bodies too, or its HAR would have none.
    this.source.setPreserveNetworkLog(on);
    this.emitState();
  }

  /** Console's Clear: the list starts again with a line that says so, as DevTools' "Console was cleared". */
  clearConsole(): void {
    this.pushMarker('Console was cleared', ['console'], true);
  }

  /** Console's Preserve log: with it off (the default), the watched tab's navigation starts the list again. */
  setPreserveConsole(on: boolean): void {
    this.preserveConsole = on;
    this.emitState();
  }

  /**
   * A tab committed a new document. Only the agent's tab (the one the panel shows) counts, as DevTools' Console
   * follows its own tab: kept, a "Navigated to" line; else the list starts again with no line (DevTools' default).
   */
  private consoleNavigated(pageId: string, url: string): void {
    const shown = this.currentTab;
    if (shown && shown.id !== pageId) return;
    if (this.preserveConsole) return this.pushMarker(`Navigated to ${url}`, ['console'], false);
    this.console.clear();
    this.messages.fire({ type: 'console', rows: [], dropBefore: this.console.firstSeq });
  }

  /** The throttling and cache the browser now applies (the child confirmed them). */
  showNetworkConditions(conditions: Emulation): void {
    this.networkConditions = conditions;
    this.emitState();
  }

  /** The card of the activity row of this call (a trace's, an audit's), as the panel shows it. */
  cardOf(callId: number): DevtoolsCard | undefined {
    for (const row of this.activity.toArray()) if (!('marker' in row) && row.id === callId) return row.card;
    return undefined;
  }

  /** The last export as a Playwright test, as the Activity pane shows it. */
  private lastExport: ExportStatus | undefined;

  showExportStatus(status: ExportStatus): void {
    // Kept until the next export: one note, bounded like any other kept text.
    if (status.text.length > MAX_KEPT_NOTE_CHARS) status = { ...status, text: keptLine(status.text, MAX_KEPT_NOTE_CHARS) };
    this.lastExport = status;
    this.messages.fire({ type: 'exportStatus', status });
  }

  /** What a panel that opens now is told besides the snapshot. */
  get exportStatus(): ExportStatus | undefined {
    return this.lastExport;
  }

  snapshot(): Extract<HostToPanel, { type: 'snapshot' }> {
    return { type: 'snapshot', state: this.state(), console: this.console.toArray(), network: this.network.toArray(), activity: this.activity.toArray() };
  }

  private emitState(): void {
    this.messages.fire({ type: 'state', state: this.state() });
  }

  private onHealth(health: HostHealth): void {
    this.health = health;
    if (health.generation > this.generationShown && health.state !== 'failed' && health.state !== 'stopped') {
      if (this.generationShown > 0) this.clearForNewBrowser(health.generation);
      this.generationShown = health.generation;
    }
    this.emitState();
  }

  /** Another session is shown: a line in the console and network lists says from where on the entries are its. */
  private markWatching(label: string): void {
    this.lastFrame = undefined;
    this.pushMarker(`Now watching ${label}: entries below are from its browser`, ['console', 'network'], false);
  }

  private clearForNewBrowser(generation: number): void {
    this.sessions = [];
    this.lastFrame = undefined;
    this.requestSeq.clear();
    this.networkConditions = NO_EMULATION;
    this.debuggerPaused = false;
    this.pushMarker(`Browser restarted (server #${generation}): entries of the previous browser were cleared`, ['console', 'network', 'activity'], true);
    // The export's marks name activity rows that are gone, and an open request's details a request that is: the
    // panel starts again from this snapshot (it closes the details and the export's line).
    this.lastExport = undefined;
    this.messages.fire(this.snapshot());
  }

  /** A marker line in each named list (emptied first when `clear`), sent to the panels. */
  private pushMarker(marker: string, lists: ('console' | 'network' | 'activity')[], clear: boolean): void {
    const time = Date.now();
    for (const type of lists) {
      const buffer = this[type] as RingBuffer<MarkerRow>;
      if (clear) buffer.clear();
      const row = buffer.push({ marker: keptLine(marker), time });
      this.messages.fire({ type, rows: [row], dropBefore: buffer.firstSeq } as HostToPanel);
    }
  }

  private onObservation(event: ObservationEvent): void {
    switch (event.kind) {
      case 'sessions': {
        const before = this.sessions.find(s => s.watched)?.id ?? 'window';
        this.sessions = event.sessions;
        const now = this.sessions.find(s => s.watched);
        if (now && now.id !== before) this.markWatching(now.label);
        this.emitState();
        return;
      }
      case 'tabs':
        this.emitState();
        return;
      case 'emulation':
        this.showNetworkConditions(event.emulation);
        return;
      case 'debuggerPaused':
        this.debuggerPaused = event.paused;
        this.emitState();
        return;
      case 'navigated':
        this.consoleNavigated(event.pageId, event.url);
        return;
      case 'console': {
        const { pageId: _page, ...entry } = event.entry;
        const row = this.console.push(entry);
        this.messages.fire({ type: 'console', rows: [row], dropBefore: this.console.firstSeq });
        return;
      }
      case 'network': {
        const { pageId: _page, ...entry } = event.entry;
        const known = this.requestSeq.get(entry.id);
        let row = known !== undefined ? this.network.update(known, () => ({ ...entry, seq: known })) : undefined;
        // A request whose row is gone (Clear, a new page's list, scrolled out of the bound) is not listed again.
        if (known !== undefined && !row) return;
        if (!row) {
          // The page itself navigated: the list starts again there, unless Preserve log keeps it.
          if (entry.navigation) this.pushMarker(`Navigated to ${entry.url}`, ['network'], !this.preserveLog);
          row = this.network.push(entry);
          this.requestSeq.set(entry.id, row.seq);
          // Keep the id map as bounded as the list.
          if (this.requestSeq.size > this.network.capacity * 2) {
            for (const [id, seq] of this.requestSeq) if (seq < this.network.firstSeq) this.requestSeq.delete(id);
          }
        }
        this.messages.fire({ type: 'network', rows: [row], dropBefore: this.network.firstSeq });
        return;
      }
      case 'frame': {
        if (event.frame.source !== 'still' && this.frameSource !== event.frame.source) {
          this.frameSource = event.frame.source;
          this.emitState();
        }
        if (this.paused) return;
        const { data, width, height, timestamp } = event.frame;
        const frame: FrameMessage = { type: 'frame', seq: ++this.frameSeq, data, width, height, producedAt: timestamp };
        this.lastFrame = frame;
        this.frames.fire(frame);
        return;
      }
    }
  }

  private onToolCall(record: ToolCallRecord): void {
    const known = this.callSeq.get(record.id);
    if (known === undefined) {
      const row = this.activity.push({
        id: record.id,
        tool: keptLine(record.name),
        // One short line each (egress/byteBounds.ts): a row is kept, and sent to every panel that opens.
        title: keptLine(record.title),
        door: record.door,
        startedAt: record.startedAt,
      });
      this.callSeq.set(record.id, row.seq);
      this.messages.fire({ type: 'activity', rows: [row], dropBefore: this.activity.firstSeq });
      return;
    }
    this.callSeq.delete(record.id);
    const row = this.activity.update(known, current => ({
      ...(current as ActivityRow),
      durationMs: record.durationMs,
      outcome: record.outcome,
      error: record.outcome === 'error' ? keptLine(record.error ?? 'failed') : undefined,
      thumbnail: record.thumbnail,
      ...(record.card ? { card: keptCard(record.card) } : {}),
    }));
    if (row) this.messages.fire({ type: 'activity', rows: [row], dropBefore: this.activity.firstSeq });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.messages.dispose();
    this.frames.dispose();
    this.pausedEmitter.dispose();
  }
}

/** The health as the panel shows it: without the host's process numbers. */
function panelHealth({ generation: _generation, pid: _pid, ...health }: HostHealth): PanelState['health'] {
  return health;
}
