import type { BrowserContext, Page, Request } from 'playwright';
import {
  consoleLevelOf,
  fitFrameSize,
  LiveViewParams,
  NetworkEntry,
  ObservationEvent,
  TabInfo,
} from '../core/observation';

export interface ObserverOptions {
  send(event: ObservationEvent): void;
  /** True while the channel to the extension is backed up: frames are dropped, never queued. */
  congested(): boolean;
  viewport: { width: number; height: number };
  /** Off for browsers (or tests) where streaming frames cannot be had: screenshots after changes instead. */
  screencast: boolean;
  log(line: string): void;
}

/**
 * Watches one browser context for the live panel: its tabs, console messages, requests, and a
 * stream of frames of the current tab while the panel wants them.
 */
export class BrowserObserver {
  private readonly pageIds = new WeakMap<Page, string>();
  private nextPageId = 1;
  private nextRequestId = 1;
  private readonly requests = new WeakMap<Request, NetworkEntry>();
  private current: Page | undefined;
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  private streaming: { page: Page; key: string; stop(): Promise<void> } | undefined;
  private streamChange: Promise<void> = Promise.resolve();
  private screencastWorks: boolean;
  private disposed = false;

  constructor(private readonly context: BrowserContext, private readonly options: ObserverOptions) {
    this.screencastWorks = options.screencast;
    context.on('page', page => this.attach(page, true));
    for (const page of context.pages()) this.attach(page, false);
  }

  /** The tab the agent works in, as far as the tool results say (see noteToolResult). */
  get currentPage(): Page | undefined {
    return this.current && !this.current.isClosed() ? this.current : this.context.pages().at(-1);
  }

  private pageId(page: Page): string {
    let id = this.pageIds.get(page);
    if (!id) {
      id = `p${this.nextPageId++}`;
      this.pageIds.set(page, id);
    }
    return id;
  }

  private attach(page: Page, becomesCurrent: boolean): void {
    const pageId = this.pageId(page);
    // Upstream makes a new tab the current one; ours follows it.
    if (becomesCurrent || !this.current) this.current = page;
    page.on('console', message => {
      const location = message.location();
      this.options.send({ kind: 'console', entry: {
        level: consoleLevelOf(message.type()),
        text: message.text(),
        location: location.url ? `${location.url}:${location.lineNumber + 1}:${location.columnNumber + 1}` : undefined,
        pageId,
        time: Date.now(),
      } });
    });
    page.on('pageerror', error => this.options.send({ kind: 'console', entry: { level: 'error', text: `Uncaught ${error.name}: ${error.message}`, pageId, time: Date.now() } }));
    page.on('request', request => {
      const entry: NetworkEntry = { id: `r${this.nextRequestId++}`, method: request.method(), url: request.url(), resourceType: request.resourceType(), status: 0, pageId, time: Date.now() };
      this.requests.set(request, entry);
      this.options.send({ kind: 'network', entry });
    });
    page.on('requestfinished', request => void this.finishRequest(request));
    page.on('requestfailed', request => {
      const entry = this.requests.get(request);
      if (!entry) return;
      this.options.send({ kind: 'network', entry: { ...entry, failure: request.failure()?.errorText ?? 'failed', durationMs: Date.now() - entry.time } });
    });
    page.on('framenavigated', frame => { if (frame === page.mainFrame()) this.sendTabs(); });
    page.on('load', () => this.sendTabs());
    page.on('close', () => {
      if (this.current === page) this.current = this.context.pages().at(-1);
      this.sendTabs();
      this.restartStream();
    });
    this.sendTabs();
    this.restartStream();
  }

  private async finishRequest(request: Request): Promise<void> {
    const entry = this.requests.get(request);
    if (!entry) return;
    const response = await request.response().catch(() => null);
    const sizes = await request.sizes().catch(() => undefined);
    this.options.send({ kind: 'network', entry: {
      ...entry,
      status: response?.status() ?? 0,
      durationMs: Date.now() - entry.time,
      sizeBytes: sizes ? sizes.responseBodySize : undefined,
    } });
  }

  private sendTabs(): void {
    if (this.disposed) return;
    const current = this.currentPage;
    void Promise.all(this.context.pages().map(async (page): Promise<TabInfo> => ({
      id: this.pageId(page),
      url: page.url(),
      title: await page.title().catch(() => ''),
      current: page === current,
    }))).then(tabs => this.options.send({ kind: 'tabs', tabs }), () => undefined);
  }

  /**
   * Learns the current tab from a tool result (upstream lists tabs and marks the current one when
   * there are several) so the live view follows the agent.
   */
  noteToolResult(text: string): void {
    const match = /^- (\d+): \(current\)/m.exec(text);
    const pages = this.context.pages();
    const next = match ? pages[Number(match[1])] : pages.length === 1 ? pages[0] : undefined;
    if (next && next !== this.current) {
      this.current = next;
      this.sendTabs();
      this.restartStream();
    }
  }

  /** After a call that may have changed the page: the fallback frame when streaming is not possible. */
  async afterStateChange(): Promise<void> {
    if (this.screencastWorks || !this.liveView.enabled) return;
    const page = this.currentPage;
    if (!page || this.options.congested()) return;
    try {
      const size = fitFrameSize(this.options.viewport, this.liveView);
      const data = await page.screenshot({ type: 'jpeg', quality: this.liveView.quality ?? 70, scale: 'css', timeout: 5000 });
      this.options.send({ kind: 'frame', frame: { pageId: this.pageId(page), data: data.toString('base64'), width: size.width, height: size.height, timestamp: Date.now(), source: 'screenshot' } });
    } catch (error) {
      this.options.log(`Live view screenshot failed: ${(error as Error).message}`);
    }
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
    const wanted = this.disposed || !this.liveView.enabled || !this.screencastWorks ? undefined : this.currentPage;
    const size = fitFrameSize(this.options.viewport, this.liveView);
    const key = `${size.width}x${size.height}@${this.liveView.quality ?? 70}`;
    if (this.streaming && this.streaming.page === wanted && this.streaming.key === key && !wanted.isClosed()) return;
    if (this.streaming) {
      // Another page, size or quality: stop and start again.
      const old = this.streaming;
      this.streaming = undefined;
      await old.stop().catch(() => undefined);
    }
    if (!wanted || wanted.isClosed()) return;
    const pageId = this.pageId(wanted);
    try {
      await wanted.screencast.start({
        size,
        quality: this.liveView.quality ?? 70,
        onFrame: frame => {
          // Never queue: a frame that cannot go now is dropped; the next one is fresher anyway.
          if (this.options.congested()) return;
          this.options.send({ kind: 'frame', frame: { pageId, data: frame.data.toString('base64'), width: size.width, height: size.height, timestamp: Date.now(), source: 'screencast' } });
        },
      });
      this.streaming = { page: wanted, key, stop: () => wanted.screencast.stop() };
    } catch (error) {
      this.screencastWorks = false;
      this.options.log(`Live frames are not available for this browser (${(error as Error).message.split('\n')[0]}); showing a screenshot after each change instead.`);
      await this.afterStateChange();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.restartStream();
    await this.streamChange;
  }
}
