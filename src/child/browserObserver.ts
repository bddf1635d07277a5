import type { Page } from 'playwright';
import type { LiveViewParams } from '../protocol/childMessages';
import { NO_EMULATION } from '../protocol/devtoolsFacts';
import { toolRecord } from '../core/tools/toolRegistry';
import { EmulationControl } from './emulationControl';
import { ConsoleLog } from './observer/consoleLog';
import { FrameStream } from './observer/frameStream';
import { NetworkLog, type ListedRequest } from './observer/networkLog';
import type { ObserverOptions } from './observer/observerOptions';
import { TabList } from './observer/tabList';
import type { SessionContexts } from './sessionContexts';
import { namedContextOf } from '../core/tools/browserTabs';
import { TABS } from '../core/tools/upstreamTools';

/**
 * Watches one session's browser contexts (its own and its named ones) for the live panel: their tabs, console
 * messages, requests, and a stream of frames of the current tab while the panel wants them. The facade the child
 * calls; each concern is its own file in observer/ (see its README), and this wires them to each page those
 * contexts open, in the order its events are handled.
 */
export class BrowserObserver {
  private readonly tabs: TabList;
  private readonly console: ConsoleLog;
  private readonly requests: NetworkLog;
  private readonly frames: FrameStream;
  private readonly stopFollowing: () => void;

  /** What the browser emulates on this context: the Network pane's controls and the agent's bridge_emulate. */
  readonly network: EmulationControl;

  constructor(
    private readonly contexts: SessionContexts,
    private readonly options: ObserverOptions,
  ) {
    this.tabs = new TabList(contexts, options);
    this.requests = new NetworkLog(options);
    this.console = new ConsoleLog(options, this.requests);
    this.frames = new FrameStream(this.tabs, options);
    this.network = new EmulationControl(contexts, options.engine, options.log, emulation => options.send({ kind: 'emulation', emulation }));
    // Every page of every context the session owns: a named context's tabs, console and requests are shown as its own.
    this.stopFollowing = contexts.onPage(page => this.attach(page));
  }

  /** The tab the agent works in: upstream's current tab, followed by its rules (see noteToolCall). */
  get currentPage(): Page | undefined {
    return this.tabs.currentPage;
  }

  /** Upstream's index of the tab with this id (the panel names tabs by id), or -1. */
  tabIndex(tabId: string): number {
    return this.tabs.tabIndex(tabId);
  }

  /** A page's events reach the tabs first (a failed load is the tab's before it is the list's), the stream last. */
  private attach(page: Page): void {
    const pageId = this.tabs.attach(page);
    this.console.attach(page, pageId);
    this.requests.attach(page, pageId);
    this.frames.attach(page);
  }

  /** How many requests it still follows (open ones): stays small however long the session. */
  get requestsInFlight(): number {
    return this.requests.requestsInFlight;
  }

  /** Every request the panel's list holds, oldest first (Save all as HAR). */
  listedRequests(): ListedRequest[] {
    return this.requests.listedRequests();
  }

  /** A listed request by its id, for its details; undefined once it has scrolled out of the panel's list. */
  listedRequest(id: string): ListedRequest | undefined {
    return this.requests.listedRequest(id);
  }

  /** Whether a listed request may be read ahead of a click (NetworkLog.readAheadAllowed). */
  readAheadAllowed(id: string): Promise<boolean> {
    return this.requests.readAheadAllowed(id);
  }

  /** Network's Preserve log: keep each response's body as it ends (see NetworkLog.keepBodies). */
  keepBodies(on: boolean): void {
    this.requests.keepBodies(on);
  }

  /**
   * A call failed. browser_tabs new registers its named context and makes its tab current before it navigates, so
   * a failed navigation leaves both: the context keeps its name and the new tab is followed. Any other failed
   * call's context (code that opened one, say) keeps no name.
   */
  noteFailedCall(name: string, args: Record<string, unknown> | undefined): void {
    const opensTab = name === TABS && args?.action === 'new';
    this.contexts.callEnded(opensTab ? namedContextOf(args) : undefined);
    if (opensTab && this.tabs.followCall(name, args, '')) this.frames.restart();
  }

  /** Follows upstream's current tab after a call (TabList.followCall); the stream shows the tab and size the agent works at. */
  noteToolCall(name: string, args: Record<string, unknown> | undefined, answerText: string): void {
    this.contexts.callEnded(name === TABS ? namedContextOf(args) : undefined);
    if (this.tabs.followCall(name, args, answerText)) {
      this.frames.restart();
    } else {
      // The header shows the size the agent works at: said after every resize, even when the stream already
      // restarted at it (a restart that ran between the resize and this call leaves nothing for the check below).
      if (toolRecord(name)?.resizesPage) this.tabs.send();
      this.frames.sizeMayHaveChanged();
    }
  }

  /** After anything that can change the watched page's size: see FrameStream.sizeMayHaveChanged. */
  sizeMayHaveChanged(): void {
    this.frames.sizeMayHaveChanged();
  }

  /** The bridge itself made this tab the agent's (time travel's fresh tab): the live view shows it. */
  follow(page: Page): void {
    if (this.tabs.follow(page)) this.frames.restart();
  }

  /** After a call that may have changed the page: the fallback frame when streaming is not possible. */
  afterStateChange(): Promise<void> {
    return this.frames.afterStateChange();
  }

  /** The panel starts watching this context: say its tabs (the stream starts with setLiveView). */
  announce(): void {
    this.tabs.send();
  }

  setLiveView(params: LiveViewParams): void {
    this.frames.setLiveView(params);
  }

  /** A change of the page's size with no still taken across it: see FrameStream.changingSize. */
  changingSize<T>(work: () => Promise<T>): Promise<T> {
    return this.frames.changingSize(work);
  }

  /** The stream stops while the agent's calls run: see FrameStream.duringCall. */
  duringCall<T>(work: () => Promise<T>, streamAfterMs: number): Promise<T> {
    return this.frames.duringCall(work, streamAfterMs);
  }

  async dispose(): Promise<void> {
    this.stopFollowing();
    this.tabs.dispose();
    // The context's emulation goes with it: the header stops naming it.
    if (this.network.conditions !== NO_EMULATION) this.options.send({ kind: 'emulation', emulation: NO_EMULATION });
    this.network.dispose();
    this.console.dispose();
    this.requests.dispose();
    await this.frames.dispose();
  }
}
