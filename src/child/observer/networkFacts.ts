/**
 * What DevTools knows of a request and Playwright does not say: whether the browser answered it from its memory
 * or disk cache, the bytes it moved and decoded, and the script (file, line, column) that started it. Read from
 * the page's own CDP Network events (a session on Playwright's pipe, no port), and matched to Playwright's
 * requests by method and address: the last such request the page made.
 */
import type { CDPSession, Page } from 'playwright';
import { capText, ENTRY_LIMITS } from '../../protocol/childMessages';

export interface RequestFacts {
  /** The script as `url:line:column` (1-based, as DevTools shows it), or the document that parsed the tag. */
  initiator?: string;
  cache?: 'memory' | 'disk';
  /** Bytes over the network, headers included (Network.loadingFinished's encodedDataLength). */
  transferBytes?: number;
  /** Decoded body bytes (the sum of Network.dataReceived's dataLength). */
  resourceBytes?: number;
}

/** Requests remembered per page: as many as a busy page has open or just finished. */
const MAX_REMEMBERED = 500;
/**
 * A request's end as Playwright says it can come before our own session has said it (two CDP sessions, no
 * order between them): its facts are awaited until our session's end of it. This bounds that wait only for
 * an end our session never sees (a page closing at that moment); normally it ends within a few milliseconds.
 */
const END_SEEN_WITHIN_MS = 2000;

interface CallFrame {
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface StackTrace {
  callFrames: CallFrame[];
  parent?: StackTrace;
}
interface Initiator {
  type: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  stack?: StackTrace;
}

/** DevTools' wording of an initiator: the first frame with a script address, else the parser's document, else nothing. */
export function initiatorWords(initiator: Initiator): string | undefined {
  for (let stack: StackTrace | undefined = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find(call => call.url);
    if (frame) return capText(`${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`, ENTRY_LIMITS.url);
  }
  if (initiator.url && initiator.lineNumber !== undefined) {
    return capText(
      `${initiator.url}:${initiator.lineNumber + 1}${initiator.columnNumber !== undefined ? `:${initiator.columnNumber + 1}` : ''}`,
      ENTRY_LIMITS.url,
    );
  }
  return initiator.url ? capText(initiator.url, ENTRY_LIMITS.url) : undefined;
}

export class PageNetworkFacts {
  private readonly byRequestId = new Map<string, { key: string; facts: RequestFacts }>();
  private readonly byKey = new Map<string, RequestFacts>();
  /** Requests whose end our session has not seen yet, by key, with who waits for it. */
  private readonly open = new Map<string, (() => void)[]>();
  private session: CDPSession | undefined;

  /** Starts listening; a page that closes first (or a browser without CDP) simply has no facts. */
  static async attach(page: Page): Promise<PageNetworkFacts> {
    const facts = new PageNetworkFacts();
    try {
      const session = await page.context().newCDPSession(page);
      facts.session = session;
      session.on('Network.requestWillBeSent', event => facts.started(event.requestId, `${event.request.method} ${event.request.url}`, event.initiator));
      session.on('Network.requestServedFromCache', event => facts.update(event.requestId, { cache: 'memory' }));
      session.on('Network.responseReceived', event => {
        if (event.response.fromDiskCache) facts.update(event.requestId, { cache: 'disk' });
      });
      session.on('Network.dataReceived', event => {
        const known = facts.byRequestId.get(event.requestId)?.facts;
        if (known) known.resourceBytes = (known.resourceBytes ?? 0) + event.dataLength;
      });
      session.on('Network.loadingFinished', event => {
        facts.update(event.requestId, { transferBytes: Math.max(0, event.encodedDataLength) });
        facts.ended(event.requestId);
      });
      session.on('Network.loadingFailed', event => facts.ended(event.requestId));
      // Our own buffer of bodies stays small: Playwright's session keeps the ones the details and the HAR read.
      await session.send('Network.enable', { maxTotalBufferSize: 1024 * 1024, maxResourceBufferSize: 64 * 1024 });
    } catch {
      // The page went first; its requests are listed without these facts.
    }
    return facts;
  }

  /** The facts of the last request of this method and address, as far as they are known now. */
  of(method: string, url: string): RequestFacts | undefined {
    return this.byKey.get(`${method} ${url}`);
  }

  /**
   * The facts of the last request of this method and address once our session has seen it end (its cache and
   * sizes are known then): Playwright's requestfinished can come first.
   */
  async ended(method: string, url: string): Promise<RequestFacts | undefined>;
  ended(requestId: string): void;
  ended(first: string, url?: string): Promise<RequestFacts | undefined> | void {
    if (url === undefined) {
      const key = this.byRequestId.get(first)?.key;
      if (!key) return;
      const waiting = this.open.get(key);
      this.open.delete(key);
      for (const wake of waiting ?? []) wake();
      return;
    }
    const key = `${first} ${url}`;
    const waiting = this.open.get(key);
    if (!waiting) return Promise.resolve(this.byKey.get(key));
    return new Promise(resolve => {
      const timer = setTimeout(() => resolve(this.byKey.get(key)), END_SEEN_WITHIN_MS);
      timer.unref?.();
      waiting.push(() => {
        clearTimeout(timer);
        resolve(this.byKey.get(key));
      });
    });
  }

  private started(requestId: string, key: string, initiator: Initiator): void {
    // A redirect is sent again under the same id: its new address starts a new record.
    const facts: RequestFacts = { ...(initiatorWords(initiator) ? { initiator: initiatorWords(initiator) } : {}) };
    // The address it was redirected from has ended: its answer was the redirect.
    if (this.byRequestId.get(requestId)?.key !== key) this.ended(requestId);
    this.byRequestId.delete(requestId);
    this.byRequestId.set(requestId, { key, facts });
    this.byKey.delete(key);
    this.byKey.set(key, facts);
    // A new request of the same key: whoever waited for the older one's end gets this one's facts at its end.
    if (!this.open.has(key)) this.open.set(key, []);
    if (this.open.size > MAX_REMEMBERED) {
      const [oldest, waiting] = this.open.entries().next().value!;
      this.open.delete(oldest);
      for (const wake of waiting) wake();
    }
    if (this.byRequestId.size > MAX_REMEMBERED) this.byRequestId.delete(this.byRequestId.keys().next().value!);
    if (this.byKey.size > MAX_REMEMBERED) this.byKey.delete(this.byKey.keys().next().value!);
  }

  private update(requestId: string, change: RequestFacts): void {
    const known = this.byRequestId.get(requestId);
    if (known) Object.assign(known.facts, change);
  }

  dispose(): void {
    for (const waiting of this.open.values()) for (const wake of waiting) wake();
    this.open.clear();
    void this.session?.detach().catch(() => undefined);
    this.session = undefined;
  }
}
