import type { BrowserContext, Page, Request } from 'playwright';
import { LiveViewParams, NetworkEntry } from '../protocol/childMessages';
import { fitFrameSize } from './observationShapes';
import { EmulationControl } from './emulationControl';
import { NO_EMULATION } from '../protocol/devtoolsFacts';
import { toolRecord } from '../core/tools/toolRegistry';
import { ConsoleLog } from './observer/consoleLog';
import { NetworkLog } from './observer/networkLog';
import type { ObserverOptions } from './observer/observerOptions';
import { TabList } from './observer/tabList';

const MAX_FPS = 30;

/** Sends one frame of the stream: its JPEG, when it came, and the page's CSS size it shows when the browser says it. */
type FrameSender = (data: string, now: number, shown?: { width: number; height: number }) => void;
/** The stream starts again once the agent's calls have paused this long (see duringCall). */
const RESUME_AFTER_IDLE_MS = 100;
/** A burst of calls keeps the stream stopped at most this long before a frame goes out. */
const MAX_QUIET_MS = 1000;
/**
 * Watches one browser context for the live panel: its tabs, console messages, requests, and a
 * stream of frames of the current tab while the panel wants them. The tabs, the console and the Network
 * list are their own files in observer/.
 */
export class BrowserObserver {
  private readonly tabs: TabList;
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  private streaming: { page: Page; key: string; stop(): Promise<void> } | undefined;
  /** The page size the stream was last started for (a different one restarts it). */
  private streamedSize: { width: number; height: number } | undefined;
  private streamChange: Promise<void> = Promise.resolve();
  private screencastWorks: boolean;
  private disposed = false;
  /** Agent calls running now. */
  private callsRunning = 0;
  /** Since when the stream is stopped for calls (undefined: not stopped for them). */
  private quietSince: number | undefined;
  /** Set when a burst has kept the stream quiet too long: it runs until a frame has gone out. */
  private owedFrameSince: number | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;
  private startRetries = 0;
  private lastFrameAt = 0;
  /**
   * The still being taken, if any. Chromium puts back the size the page had when a capture began once it ends, so a
   * resize made while one is taken is undone (a still begun on a page slow to draw read the old size back into it).
   */
  private stillTaking: Promise<void> = Promise.resolve();
  /** Changes of the page's size running now (changingSize): no still begins meanwhile. */
  private sizeChanges = 0;
  private readonly console: ConsoleLog;
  private readonly requests: NetworkLog;

  /** What the browser emulates on this context: the Network pane's controls and the agent's bridge_emulate. */
  readonly network: EmulationControl;

  constructor(context: BrowserContext, private readonly options: ObserverOptions) {
    this.screencastWorks = options.screencast;
    this.tabs = new TabList(context, options);
    this.requests = new NetworkLog(options);
    this.console = new ConsoleLog(options, this.requests);
    this.network = new EmulationControl(context, options.engine, options.log, emulation => options.send({ kind: 'emulation', emulation }));
    context.on('page', page => this.attach(page));
    for (const page of context.pages()) this.attach(page);
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
    page.on('framenavigated', frame => {
      if (frame !== page.mainFrame()) return;
      // A navigation may move the page to a new renderer process, which a running Chromium
      // screencast does not follow (seen: the stream went silent after about:blank -> http).
      if (this.streaming?.page === page) {
        this.streaming.key = 'navigated';
        this.restartStream();
      }
    });
    page.on('close', () => this.restartStream());
    this.restartStream();
  }

  /** How many requests it still follows (open ones): stays small however long the session. */
  get requestsInFlight(): number {
    return this.requests.requestsInFlight;
  }

  /** Every request the panel's list holds, oldest first (Save all as HAR). */
  listedRequests(): { request: Request; entry: NetworkEntry }[] {
    return this.requests.listedRequests();
  }

  /** A listed request by its id, for its details; undefined once it has scrolled out of the panel's list. */
  listedRequest(id: string): { request: Request; entry: NetworkEntry } | undefined {
    return this.requests.listedRequest(id);
  }

  /** Follows upstream's current tab after a call (TabList.followCall); the stream shows the tab and size the agent works at. */
  noteToolCall(name: string, args: Record<string, unknown> | undefined, answerText: string): void {
    if (this.tabs.followCall(name, args, answerText)) {
      this.restartStream();
    } else {
      // The header shows the size the agent works at: said after every resize, even when the stream already
      // restarted at it (a restart that ran between the resize and this call leaves nothing for the check below).
      if (toolRecord(name)?.resizesPage) this.tabs.send();
      this.sizeMayHaveChanged();
    }
  }

  /**
   * After anything that can change the watched page's size (the agent's browser_resize, the person's size
   * picker, a script that resized it): the header says the new size, and the stream starts again at it, so the
   * picture has the page's new shape in its next frame (Chromium's stream sends nothing for a page that does
   * not repaint, and a stream started for the old shape fits the new one into it).
   */
  sizeMayHaveChanged(): void {
    const page = this.currentPage;
    const size = page?.viewportSize();
    if (!page || !size || (size.width === this.streamedSize?.width && size.height === this.streamedSize.height)) return;
    this.streamedSize = size;
    this.tabs.send();
    // A page that does not repaint sends no frame: the restarted stream's still (sendStillIfQuiet) gives the new
    // shape. Not a screenshot at once: taken while the page still lays itself out, it raced the resize (a CI run's
    // next snapshot still read the old width).
    this.restartStream();
  }

  /** The bridge itself made this tab the agent's (time travel's fresh tab): the live view shows it. */
  follow(page: Page): void {
    if (this.tabs.follow(page)) this.restartStream();
  }

  /** After a call that may have changed the page: the fallback frame when streaming is not possible. */
  async afterStateChange(): Promise<void> {
    if (this.screencastWorks || !this.liveView.enabled) return;
    const page = this.currentPage;
    if (!page || this.options.congested()) return;
    await this.sendScreenshotFrame(page, 'screenshot').catch(error => this.options.log(`Live view screenshot failed: ${(error as Error).message}`));
  }

  /** A frame made with a screenshot instead of the stream (it has the page's CSS size). */
  private async sendScreenshotFrame(page: Page, source: 'screenshot' | 'still'): Promise<void> {
    // A size change running now: a capture begun before it lands would put the old size back (changingSize).
    if (this.sizeChanges) return;
    const taking = page.screenshot({ type: 'jpeg', quality: this.liveView.quality ?? 70, scale: 'css', timeout: 5000 });
    this.stillTaking = taking.then(() => undefined, () => undefined);
    const data = await taking;
    const { width, height } = page.viewportSize() ?? this.options.viewport;
    this.lastFrameAt = Date.now();
    this.options.send({ kind: 'frame', frame: { pageId: this.tabs.pageId(page), data: data.toString('base64'), width, height, timestamp: Date.now(), source } });
  }

  /** The panel starts watching this context: say its tabs (the stream starts with setLiveView). */
  announce(): void {
    this.tabs.send();
  }

  setLiveView(params: LiveViewParams): void {
    this.liveView = params;
    this.restartStream();
  }

  /** Serialised: one start or stop at a time, ending on what is wanted now. */
  private restartStream(): void {
    this.streamChange = this.streamChange.then(() => this.applyStream()).catch(error => this.options.log(`Live view: ${(error as Error).message}`));
  }

  private async applyStream(): Promise<void> {
    const wanted = this.disposed || !this.liveView.enabled || !this.screencastWorks || this.quietSince !== undefined ? undefined : this.currentPage;
    // The page's own size now (the person's preset, the agent's resize, a restored step), fitted to the panel.
    const viewport = this.currentPage?.viewportSize() ?? this.options.viewport;
    this.streamedSize = viewport;
    const size = fitFrameSize(viewport, this.liveView);
    const key = `${viewport.width}x${viewport.height}>${size.width}x${size.height}@${this.liveView.quality ?? 70}`;
    if (this.streaming && this.streaming.page === wanted && this.streaming.key === key && !wanted.isClosed()) return;
    if (this.streaming) {
      // Another page, size or quality: stop and start again.
      const old = this.streaming;
      this.streaming = undefined;
      await old.stop().catch(() => undefined);
    }
    if (!wanted || wanted.isClosed()) return;
    const pageId = this.tabs.pageId(wanted);
    // A frame's size is the page's CSS size it shows (the panel takes its shape and maps the person's pointer by it):
    // Chromium says it with each frame, so a change between restarts is right at once.
    const send = (data: string, now: number, shown?: { width: number; height: number }) => {
      this.lastFrameAt = now;
      const { width, height } = shown ?? viewport;
      this.options.send({ kind: 'frame', frame: { pageId, data, width, height, timestamp: now, source: 'screencast' } });
    };
    try {
      this.streaming = this.options.engine === 'chromium'
        ? await this.startCdpStream(wanted, size, key, send)
        : await this.startPlaywrightStream(wanted, size, key, send);
      this.sendStillIfQuiet(wanted);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      // A page in the middle of a navigation or closing refuses for a moment: try again shortly.
      if (/not attached|target closed|detached|navigat|closed/i.test(message) && this.startRetries < 10) {
        this.startRetries++;
        setTimeout(() => this.restartStream(), 100 * this.startRetries).unref?.();
        return;
      }
      this.screencastWorks = false;
      this.options.log(`Live frames are not available for this browser (${message}); showing a screenshot after each change instead.`);
      await this.afterStateChange();
      return;
    }
    this.startRetries = 0;
  }

  /**
   * A change of the page's size (the person's resize, the agent's browser_resize), with no still taken across it: one being taken ends first (within its own 5 s timeout),
   * none begins until the work is done (the page at its new size and drawn), and the stream then shows the page as it is.
   */
  async changingSize<T>(work: () => Promise<T>): Promise<T> {
    this.sizeChanges++;
    try {
      await this.stillTaking;
      return await work();
    } finally {
      this.sizeChanges--;
      if (this.streaming && !this.sizeChanges) this.sendStillIfQuiet(this.streaming.page);
    }
  }

  /** If a fresh stream brings no frame soon (a static page), show the page as it is. */
  private sendStillIfQuiet(page: Page): void {
    const startedAt = Date.now();
    setTimeout(() => {
      if (this.lastFrameAt >= startedAt || this.streaming?.page !== page || page.isClosed() || this.options.congested()) return;
      // If the page went away meanwhile, its successor gets its own still.
      void this.sendScreenshotFrame(page, 'still').catch(() => undefined);
    }, 300).unref?.();
  }

  /**
   * Chromium's own screencast, paced at the source: every second paint (about 30 a second), and the
   * next frame only once we have acknowledged this one, so a busy pipe slows the browser's encoder
   * instead of wasting it.
   */
  private async startCdpStream(page: Page, size: { width: number; height: number }, key: string, send: FrameSender) {
    const session = await page.context().newCDPSession(page);
    session.on('Page.screencastFrame', (frame: { data: string; sessionId: number; metadata?: { deviceWidth?: number; deviceHeight?: number } }) => {
      const { deviceWidth, deviceHeight } = frame.metadata ?? {};
      const shown = deviceWidth && deviceHeight ? { width: Math.round(deviceWidth), height: Math.round(deviceHeight) } : undefined;
      if (!this.options.congested()) send(frame.data, Date.now(), shown);
      void session.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
    });
    const quality = this.liveView.quality ?? 70;
    await session.send('Page.startScreencast', { format: 'jpeg', quality, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 2 });
    return {
      page,
      key,
      stop: async () => {
        await session.send('Page.stopScreencast').catch(() => undefined);
        await session.detach().catch(() => undefined);
      },
    };
  }

  /** Playwright's screencast (Firefox, WebKit): capped at 30 frames a second on our side. */
  private async startPlaywrightStream(page: Page, size: { width: number; height: number }, key: string, send: FrameSender) {
    // Paints come about 16.7 ms apart: allow a little early so every second one goes, not every third.
    const minGapMs = (1000 / MAX_FPS) * 0.75;
    let lastSent = 0;
    await page.screencast.start({
      size,
      quality: this.liveView.quality ?? 70,
      onFrame: frame => {
        // Never queue: a frame that cannot go now is dropped; the next one is fresher anyway.
        const now = Date.now();
        if (now - lastSent < minGapMs || this.options.congested()) return;
        lastSent = now;
        send(frame.data.toString('base64'), now);
      },
    });
    return { page, key, stop: () => page.screencast.stop() };
  }

  /**
   * Tool calls come first. On 2 cores an active screencast slowed every call by 10-30 % (measured:
   * holding Chromium's acknowledgement does not help, the capture machinery stays busy; only
   * stopping the screencast does). So the stream stops while the agent's calls run and starts again
   * once they have paused for `RESUME_AFTER_IDLE_MS`. An agent thinks for seconds between calls, so
   * the person rarely notices; two limits keep the picture honest during long work:
   * - a call that runs longer than `streamAfterMs` (a navigation, a wait) streams for the rest of it
   *   (captures pass Infinity: they change nothing worth watching);
   * - a burst that kept the stream quiet for `MAX_QUIET_MS` lets it run until one frame has gone out.
   */
  async duringCall<T>(work: () => Promise<T>, streamAfterMs: number): Promise<T> {
    this.callsRunning++;
    clearTimeout(this.resumeTimer);
    const now = Date.now();
    if (this.quietSince !== undefined && now - this.quietSince > MAX_QUIET_MS) this.owedFrameSince ??= now;
    if (this.owedFrameSince !== undefined && this.lastFrameAt > this.owedFrameSince) this.owedFrameSince = undefined;
    if (this.owedFrameSince !== undefined) this.setQuiet(false);
    else if (this.liveView.enabled && this.screencastWorks && this.setQuiet(true)) {
      // Stopped before the call starts, so Chromium's capture does not slow it; never waits long.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.streamChange, new Promise(resolve => (timer = setTimeout(resolve, 200)))]);
      clearTimeout(timer);
    }
    const longCall = Number.isFinite(streamAfterMs) ? setTimeout(() => this.setQuiet(false), streamAfterMs) : undefined;
    try {
      return await work();
    } finally {
      clearTimeout(longCall);
      this.callsRunning--;
      if (this.callsRunning === 0 && this.quietSince !== undefined) {
        this.resumeTimer = setTimeout(() => this.setQuiet(false), RESUME_AFTER_IDLE_MS);
        this.resumeTimer.unref?.();
      }
    }
  }

  /** True when this changed whether the stream is stopped for calls. */
  private setQuiet(quiet: boolean): boolean {
    if (quiet === (this.quietSince !== undefined)) return false;
    this.quietSince = quiet ? Date.now() : undefined;
    this.restartStream();
    return true;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.tabs.dispose();
    // The context's emulation goes with it: the header stops naming it.
    if (this.network.conditions !== NO_EMULATION) this.options.send({ kind: 'emulation', emulation: NO_EMULATION });
    this.network.dispose();
    clearTimeout(this.resumeTimer);
    this.console.dispose();
    this.requests.dispose();
    this.restartStream();
    await this.streamChange;
  }
}
