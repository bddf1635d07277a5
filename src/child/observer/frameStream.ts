import type { Page } from 'playwright';
import type { LiveViewParams } from '../../protocol/childMessages';
import { fitFrameSize } from '../observationShapes';
import type { ObserverOptions } from './observerOptions';
import { FrameSender, RunningScreencast, startCdpScreencast, startPlaywrightScreencast } from './screencasts';
import type { TabList } from './tabList';

/** The stream starts again once the agent's calls have paused this long (see duringCall). */
const RESUME_AFTER_IDLE_MS = 100;
/** A burst of calls keeps the stream stopped at most this long before a frame goes out. */
const MAX_QUIET_MS = 1000;

/**
 * The frames of the current tab while the panel wants them: a screencast restarted for another tab, page size
 * or quality, stopped while the agent's calls run (duringCall), a still when a fresh stream brings no frame,
 * and screenshots after each change where no screencast can be had.
 */
export class FrameStream {
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  private streaming: RunningScreencast | undefined;
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

  /** `tabs` says which tab is current, the ids frames carry, and the header's size after a change. */
  constructor(
    private readonly tabs: TabList,
    private readonly options: Pick<ObserverOptions, 'send' | 'congested' | 'viewport' | 'screencast' | 'engine' | 'log'>,
  ) {
    this.screencastWorks = options.screencast;
  }

  attach(page: Page): void {
    page.on('framenavigated', frame => {
      if (frame !== page.mainFrame()) return;
      // A navigation may move the page to a new renderer process, which a running Chromium
      // screencast does not follow (seen: the stream went silent after about:blank -> http).
      if (this.streaming?.page === page) {
        this.streaming.key = 'navigated';
        this.restart();
      }
    });
    page.on('close', () => this.restart());
    this.restart();
  }

  /**
   * After anything that can change the watched page's size (the agent's browser_resize, the person's size
   * picker, a script that resized it): the header says the new size, and the stream starts again at it, so the
   * picture has the page's new shape in its next frame (Chromium's stream sends nothing for a page that does
   * not repaint, and a stream started for the old shape fits the new one into it).
   */
  sizeMayHaveChanged(): void {
    const page = this.tabs.currentPage;
    const size = page?.viewportSize();
    if (!page || !size || (size.width === this.streamedSize?.width && size.height === this.streamedSize.height)) return;
    this.streamedSize = size;
    this.tabs.send();
    // A page that does not repaint sends no frame: the restarted stream's still (sendStillIfQuiet) gives the new
    // shape. Not a screenshot at once: taken while the page still lays itself out, it raced the resize (a CI run's
    // next snapshot still read the old width).
    this.restart();
  }

  /** After a call that may have changed the page: the fallback frame when streaming is not possible. */
  async afterStateChange(): Promise<void> {
    if (this.screencastWorks || !this.liveView.enabled) return;
    const page = this.tabs.currentPage;
    if (!page || this.options.congested()) return;
    await this.sendScreenshotFrame(page, 'screenshot').catch(error => this.options.log(`Live view screenshot failed: ${(error as Error).message}`));
  }

  /** A frame made with a screenshot instead of the stream (it has the page's CSS size). */
  private async sendScreenshotFrame(page: Page, source: 'screenshot' | 'still'): Promise<void> {
    // A size change running now: a capture begun before it lands would put the old size back (changingSize).
    if (this.sizeChanges) return;
    const taking = page.screenshot({ type: 'jpeg', quality: this.liveView.quality ?? 70, scale: 'css', timeout: 5000 });
    this.stillTaking = taking.then(
      () => undefined,
      () => undefined,
    );
    const data = await taking;
    const { width, height } = page.viewportSize() ?? this.options.viewport;
    this.lastFrameAt = Date.now();
    this.options.send({
      kind: 'frame',
      frame: { pageId: this.tabs.pageId(page), data: data.toString('base64'), width, height, timestamp: Date.now(), source },
    });
  }

  setLiveView(params: LiveViewParams): void {
    this.liveView = params;
    this.restart();
  }

  /** Serialised: one start or stop at a time, ending on what is wanted now. */
  restart(): void {
    this.streamChange = this.streamChange.then(() => this.applyStream()).catch(error => this.options.log(`Live view: ${(error as Error).message}`));
  }

  private async applyStream(): Promise<void> {
    const wanted = this.disposed || !this.liveView.enabled || !this.screencastWorks || this.quietSince !== undefined ? undefined : this.tabs.currentPage;
    // The page's own size now (the person's preset, the agent's resize, a restored step), fitted to the panel.
    const viewport = this.tabs.currentPage?.viewportSize() ?? this.options.viewport;
    this.streamedSize = viewport;
    const size = fitFrameSize(viewport, this.liveView);
    const quality = this.liveView.quality ?? 70;
    const key = `${viewport.width}x${viewport.height}>${size.width}x${size.height}@${quality}`;
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
    const send: FrameSender = (data, now, shown) => {
      this.lastFrameAt = now;
      const { width, height } = shown ?? viewport;
      this.options.send({ kind: 'frame', frame: { pageId, data, width, height, timestamp: now, source: 'screencast' } });
    };
    const spec = { size, quality, key, congested: () => this.options.congested() };
    try {
      this.streaming = this.options.engine === 'chromium' ? await startCdpScreencast(wanted, spec, send) : await startPlaywrightScreencast(wanted, spec, send);
      this.sendStillIfQuiet(wanted);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      // A page in the middle of a navigation or closing refuses for a moment: try again shortly.
      if (/not attached|target closed|detached|navigat|closed/i.test(message) && this.startRetries < 10) {
        this.startRetries++;
        setTimeout(() => this.restart(), 100 * this.startRetries).unref?.();
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

  /**
   * If a fresh stream brings no frame soon, show the page as it is. Chromium's stream sends the page's last frame
   * as it starts, so this is for a busy moment when that frame is late and for engines whose screencast does not.
   */
  private sendStillIfQuiet(page: Page): void {
    const startedAt = Date.now();
    setTimeout(() => {
      if (this.lastFrameAt >= startedAt || this.streaming?.page !== page || page.isClosed() || this.options.congested()) return;
      // If the page went away meanwhile, its successor gets its own still.
      void this.sendScreenshotFrame(page, 'still').catch(() => undefined);
    }, 300).unref?.();
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
    this.restart();
    return true;
  }

  /** Stops the stream; resolves once it has stopped. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.resumeTimer);
    this.restart();
    await this.streamChange;
  }
}
