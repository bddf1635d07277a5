/**
 * The Network pane's throttling (offline, DevTools' slow and fast 4G) and "Disable cache" on the watched
 * context's pages, through the browser itself: Chromium's DevTools protocol, one CDP session per page
 * (Playwright's `newCDPSession`, no port opened), attached only while one of them is on. A session with
 * the Network domain enabled is sent every request's events; kept always, it slowed the panel during a
 * burst of requests (the panel bench's long tasks doubled), so it is there only while it does something.
 * Other engines have no such protocol: offline goes through Playwright's own `setOffline`, the rest is
 * refused in words.
 */
import type { BrowserContext, CDPSession, Page, Request } from 'playwright';
import type { NetworkConditions, Throttling } from '../protocol/childMessages';
import { capText, ENTRY_LIMITS } from '../protocol/childMessages';

/** DevTools' own presets (its NetworkManager): bytes a second and added round-trip latency. */
const PRESETS: Record<Exclude<Throttling, 'none' | 'offline'>, { downloadThroughput: number; uploadThroughput: number; latency: number }> = {
  slow4g: { downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (750 * 1000) / 8 * 0.9, latency: 150 * 3.75 },
  fast4g: { downloadThroughput: (9 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (1.5 * 1000 * 1000) / 8 * 0.9, latency: 60 * 2.75 },
};

const NONE: NetworkConditions = { throttling: 'none', cacheDisabled: false };

/**
 * What started a request, from what Playwright tells of it: a redirect, the person's or agent's own
 * navigation ("Other", as DevTools says for a typed address), or the document of the frame that asked for it.
 */
export function initiatorOf(request: Request): string {
  if (request.redirectedFrom()) return 'Redirect';
  if (request.isNavigationRequest() && !request.frame().parentFrame()) return 'Other';
  const frame = request.isNavigationRequest() ? request.frame().parentFrame() : request.frame();
  const url = frame?.url();
  return url ? capText(url, ENTRY_LIMITS.url) : 'Other';
}

export class NetworkControl {
  private wanted: NetworkConditions = NONE;
  private readonly sessions = new Map<Page, Promise<CDPSession | undefined>>();
  private readonly onPage = (page: Page) => this.attach(page);

  constructor(private readonly context: BrowserContext, private readonly engine: string, private readonly log: (line: string) => void) {}

  get conditions(): NetworkConditions {
    return this.wanted;
  }

  /** Applies the person's choice to every page of the context, and to pages it opens later; all off detaches. */
  async set(wanted: NetworkConditions): Promise<NetworkConditions> {
    if (this.engine !== 'chromium') {
      if (wanted.throttling !== 'none' && wanted.throttling !== 'offline') {
        throw new Error(`Throttling to ${wanted.throttling === 'slow4g' ? 'slow' : 'fast'} 4G needs Chromium's DevTools protocol; this browser is ${this.engine}. Offline works.`);
      }
      if (wanted.cacheDisabled) throw new Error(`Disable cache needs Chromium's DevTools protocol; this browser is ${this.engine}.`);
      await this.context.setOffline(wanted.throttling === 'offline');
      this.wanted = wanted;
      return wanted;
    }
    this.wanted = wanted;
    const on = wanted.throttling !== 'none' || wanted.cacheDisabled;
    if (on && !this.sessions.size) {
      this.context.on('page', this.onPage);
      for (const page of this.context.pages()) this.attach(page);
    }
    await Promise.all([...this.sessions.values()].map(async session => {
      const cdp = await session;
      if (cdp) await this.apply(cdp);
    }));
    if (!on) this.dispose();
    return wanted;
  }

  private attach(page: Page): void {
    const session = this.context.newCDPSession(page).then(async cdp => {
      // This session keeps no bodies of its own: Playwright's session has them.
      await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      await this.apply(cdp);
      return cdp;
    }).catch(error => {
      // A page that closed while it opened: nothing to control.
      if (!page.isClosed()) this.log(`Network controls: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    });
    this.sessions.set(page, session);
    page.once('close', () => this.sessions.delete(page));
  }

  private async apply(cdp: CDPSession): Promise<void> {
    const { throttling, cacheDisabled } = this.wanted;
    await cdp.send('Network.setCacheDisabled', { cacheDisabled });
    const preset = throttling === 'none' || throttling === 'offline' ? undefined : PRESETS[throttling];
    await cdp.send('Network.emulateNetworkConditions', {
      offline: throttling === 'offline',
      latency: preset?.latency ?? 0,
      downloadThroughput: preset?.downloadThroughput ?? -1,
      uploadThroughput: preset?.uploadThroughput ?? -1,
    });
  }

  dispose(): void {
    this.context.off('page', this.onPage);
    for (const session of this.sessions.values()) void session.then(cdp => cdp?.detach().catch(() => undefined));
    this.sessions.clear();
  }
}
