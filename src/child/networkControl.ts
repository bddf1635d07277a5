/**
 * The Network pane's controls on the watched context's pages, through the browser itself: throttling
 * (offline, DevTools' slow and fast 4G) and "Disable cache" over Chromium's DevTools protocol, one CDP
 * session per page (Playwright's `newCDPSession`, no port opened), and each request's initiator as the
 * browser names it. Other engines have no such protocol: offline goes through Playwright's own
 * `setOffline`, and the rest is refused in words.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright';
import type { NetworkConditions, Throttling } from '../protocol/childMessages';
import { capText, ENTRY_LIMITS } from '../protocol/childMessages';

/** DevTools' own presets (its NetworkManager): bytes a second and added round-trip latency. */
const PRESETS: Record<Exclude<Throttling, 'none' | 'offline'>, { downloadThroughput: number; uploadThroughput: number; latency: number }> = {
  slow4g: { downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (750 * 1000) / 8 * 0.9, latency: 150 * 3.75 },
  fast4g: { downloadThroughput: (9 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (1.5 * 1000 * 1000) / 8 * 0.9, latency: 60 * 2.75 },
};

/** Initiators kept for requests Playwright has not reported yet (a page that never lets them be reported stays bounded). */
const MAX_WAITING_INITIATORS = 500;

interface CdpInitiator {
  type: string;
  url?: string;
  lineNumber?: number;
  stack?: { callFrames: { url: string; lineNumber: number; functionName: string }[] };
}

/** "app.js:12" for a script, "(page):3" for the document's own markup, "Redirect", "Other": as DevTools' column says it. */
export function initiatorText(initiator: CdpInitiator): string {
  const frame = initiator.stack?.callFrames.find(call => call.url);
  const url = frame?.url ?? initiator.url;
  const line = frame ? frame.lineNumber : initiator.lineNumber;
  if (!url) return initiator.type === 'redirect' ? 'Redirect' : initiator.type === 'preflight' ? 'Preflight' : 'Other';
  return capText(`${url}${line !== undefined ? `:${line + 1}` : ''}`, ENTRY_LIMITS.url);
}

export class NetworkControl {
  private wanted: NetworkConditions = { throttling: 'none', cacheDisabled: false };
  private readonly sessions = new Map<Page, Promise<CDPSession | undefined>>();
  /** Initiators by URL, oldest first, until the request's own event takes them. */
  private readonly initiators = new Map<string, string[]>();
  private waiting = 0;

  constructor(private readonly context: BrowserContext, private readonly engine: string, private readonly log: (line: string) => void) {
    if (engine !== 'chromium') return;
    context.on('page', page => this.attach(page));
    for (const page of context.pages()) this.attach(page);
  }

  get conditions(): NetworkConditions {
    return this.wanted;
  }

  /** The initiator the browser named for a request to this URL (taken once: the next such request has its own). */
  takeInitiator(url: string): string | undefined {
    const queue = this.initiators.get(url);
    const initiator = queue?.shift();
    if (queue && !queue.length) this.initiators.delete(url);
    if (initiator !== undefined) this.waiting--;
    return initiator;
  }

  /** Applies the person's choice to every page of the context, and to pages it opens later. */
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
    await Promise.all([...this.sessions.values()].map(async session => {
      const cdp = await session;
      if (cdp) await this.apply(cdp);
    }));
    return wanted;
  }

  private attach(page: Page): void {
    const session = this.context.newCDPSession(page).then(async cdp => {
      cdp.on('Network.requestWillBeSent', (event: { request: { url: string }; initiator: CdpInitiator; redirectResponse?: unknown }) => {
        if (this.waiting >= MAX_WAITING_INITIATORS) this.dropOldest();
        const queue = this.initiators.get(event.request.url) ?? [];
        queue.push(event.redirectResponse ? 'Redirect' : initiatorText(event.initiator));
        this.initiators.set(event.request.url, queue);
        this.waiting++;
      });
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

  private dropOldest(): void {
    const first = this.initiators.keys().next();
    if (first.done) return;
    const queue = this.initiators.get(first.value)!;
    queue.shift();
    this.waiting--;
    if (!queue.length) this.initiators.delete(first.value);
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
    for (const session of this.sessions.values()) void session.then(cdp => cdp?.detach().catch(() => undefined));
    this.sessions.clear();
    this.initiators.clear();
  }
}
