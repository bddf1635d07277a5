import { randomBytes } from 'crypto';
import type { Page, Request, Response } from 'playwright';
import { capText, ENTRY_LIMITS, NetworkEntry } from '../../protocol/childMessages';
import { ORIGIN_RULES_NOTE } from '../../protocol/callMarks';
import { initiatorOf } from '../requestInitiator';
import { requestSpan, type ListedRequest } from '../requestDetail';
import { BodyReads, READ_AHEAD_LIMIT } from './bodyReads';
import { EventBudget } from './eventBudget';
import { decodedBound, KeptBodies } from './keptBodies';
import { PageNetworkFacts, type RequestFacts } from './networkFacts';
import type { ObserverOptions } from './observerOptions';

/**
 * Request events passed on per second; a page that floods gets a count instead. Twice the 300 a second the
 * panel is built to list (test/bench's rowsPerSecondSustained): at 300 exactly, a page sending 300 a second
 * lost the rows of each second its timers bunched past the cap.
 */
const MAX_NETWORK_PER_SECOND = 600;
/**
 * Request ids unique in this child (every session's observer counts on) and to this child (a restarted
 * browser's `r1` is not the old one's): a detail opened by id can only be the request the panel listed.
 */
const CHILD_TAG = randomBytes(3).toString('hex');
let requestCount = 0;
const nextRequestId = () => `r${CHILD_TAG}-${++requestCount}`;
/** As many requests as the panel's Network list holds. */
const MAX_LISTED_REQUESTS = 2000;
/** Chromium's failure for a request upstream's origin rules refused. */
const BLOCKED_FAILURE = /ERR_BLOCKED_BY_CLIENT/;

/**
 * A finished request's sizes as DevTools gives them. Playwright's responseBodySize is the bytes moved less the
 * headers, so below 0 for a response from a cache (none moved): the cache says so instead, and no size is negative.
 */
export function sizeFacts(
  sizes: { responseBodySize: number; responseHeadersSize: number } | undefined,
  facts: RequestFacts | undefined,
): Pick<NetworkEntry, 'sizeBytes' | 'transferBytes' | 'resourceBytes' | 'cache'> {
  const moved = sizes ? Math.max(0, sizes.responseBodySize + sizes.responseHeadersSize) : undefined;
  const transferBytes = facts?.cache ? 0 : (facts?.transferBytes ?? moved);
  return {
    ...(sizes ? { sizeBytes: Math.max(0, sizes.responseBodySize) } : {}),
    ...(transferBytes !== undefined ? { transferBytes } : {}),
    ...(facts?.resourceBytes !== undefined ? { resourceBytes: facts.resourceBytes } : {}),
    ...(facts?.cache ? { cache: facts.cache } : {}),
  };
}

/** The tab's own document load (not a frame's, not a fetch): what the address bar, the error page and Preserve log follow. */
export const isTabLoad = (request: Request, page: Page) => request.isNavigationRequest() && request.frame() === page.mainFrame();

/** Why a request failed, as the browser says it; with origin rules set, a refusal says it was them. */
export function requestFailure(request: Request, originRules: boolean): string {
  const failure = request.failure()?.errorText ?? 'failed';
  return originRules && BLOCKED_FAILURE.test(failure) ? `${failure}: ${ORIGIN_RULES_NOTE}` : failure;
}

/** A request the panel's list holds, with its body when it was kept as it ended (Preserve log). */
export type { ListedRequest };

/**
 * The context's requests for the panel's Network list: each one listed as it starts, is answered and ends or
 * fails, the last ones kept by id for their details and Save all as HAR.
 */
export class NetworkLog {
  /** Requests still open, until they finish or fail: Playwright keeps Request objects for thousands of requests, we keep none that ended. */
  private readonly requests = new Map<Request, NetworkEntry>();
  /**
   * The last requests listed, open or ended, by id: the panel's Network pane opens one's details on
   * demand. Playwright keeps every Request reported through page.on('request') for its page's life
   * anyway; this only bounds our own references to as many as the panel lists.
   */
  private readonly listed = new Map<string, { request: Request; entry: NetworkEntry }>();
  /** URLs of recent page requests, to tell the browser's own requests (favicon) apart. */
  private readonly recentUrls = new Set<string>();
  /** Each open page's CDP facts (cache, sizes, the initiating script), once its session is attached. */
  private readonly facts = new Map<string, PageNetworkFacts>();
  /** Bodies kept as responses end while Preserve log is on (the browser drops them at the next navigation). */
  private readonly kept = new KeptBodies();
  private readonly reads = new BodyReads();
  private readonly budget = new EventBudget(MAX_NETWORK_PER_SECOND, count =>
    this.options.log(`Live view: ${count} request events not shown (over ${MAX_NETWORK_PER_SECOND} a second)`),
  );

  constructor(private readonly options: Pick<ObserverOptions, 'send' | 'log' | 'originRules'>) {}

  attach(page: Page, pageId: string): void {
    void PageNetworkFacts.attach(page).then(facts => {
      if (page.isClosed()) facts.dispose();
      else this.facts.set(pageId, facts);
    });
    page.on('domcontentloaded', () => this.notePageEvent(pageId, 'domContentLoadedMs'));
    page.on('load', () => this.notePageEvent(pageId, 'loadMs'));
    page.on('request', request => {
      // A request held back here is never listed, nor are its answer and end (they find no entry).
      if (!this.budget.allow()) return;
      const initiator = this.factsOf(request, pageId)?.initiator ?? initiatorOf(request);
      const entry: NetworkEntry = {
        id: nextRequestId(),
        method: request.method(),
        url: capText(request.url(), ENTRY_LIMITS.url),
        resourceType: request.resourceType(),
        status: 0,
        pageId,
        time: Date.now(),
        ...(initiator ? { initiator } : {}),
        ...(isTabLoad(request, page) && !request.redirectedFrom() ? { navigation: true } : {}),
      };
      this.requests.set(request, entry);
      this.list(request, entry);
      this.rememberUrl(request.url());
      this.options.send({ kind: 'network', entry });
    });
    // The status shows once the headers are in: a body the page never reads never "finishes".
    page.on('response', response => {
      const entry = this.requests.get(response.request());
      if (!entry) return;
      const answered = { ...entry, ...this.scriptInitiator(response.request(), entry), status: response.status(), durationMs: Date.now() - entry.time };
      this.requests.set(response.request(), answered);
      this.list(response.request(), answered);
      this.options.send({ kind: 'network', entry: answered });
    });
    page.on('requestfinished', request => void this.finishRequest(request));
    page.on('requestfailed', request => {
      const entry = this.requests.get(request);
      if (!entry) return;
      this.requests.delete(request);
      const failed = { ...entry, failure: requestFailure(request, this.options.originRules), durationMs: Date.now() - entry.time };
      this.list(request, failed);
      this.options.send({ kind: 'network', entry: failed });
    });
    page.on('close', () => {
      // Its requests that never ended (an endless stream) end with it.
      for (const [request, entry] of this.requests) if (entry.pageId === pageId) this.requests.delete(request);
      this.facts.get(pageId)?.dispose();
      this.facts.delete(pageId);
    });
  }

  private factsOf(request: Request, pageId: string): RequestFacts | undefined {
    return this.facts.get(pageId)?.of(request.method(), request.url());
  }

  /** The script that started it, once the page's CDP session has said (it may come after Playwright's own event). */
  private scriptInitiator(request: Request, entry: NetworkEntry): Pick<NetworkEntry, 'initiator'> {
    const initiator = request.redirectedFrom() ? undefined : this.factsOf(request, entry.pageId)?.initiator;
    return initiator ? { initiator } : {};
  }

  /** The page's DOMContentLoaded or load, written on its navigation's entry (the footer and the waterfall's lines read it there). */
  private notePageEvent(pageId: string, field: 'domContentLoadedMs' | 'loadMs'): void {
    const navigation = [...this.listed.values()].reverse().find(({ entry }) => entry.pageId === pageId && entry.navigation);
    if (!navigation || navigation.entry[field] !== undefined) return;
    const entry = { ...navigation.entry, [field]: Math.max(0, Date.now() - navigation.entry.time) };
    this.list(navigation.request, entry);
    if (this.requests.has(navigation.request)) this.requests.set(navigation.request, entry);
    this.options.send({ kind: 'network', entry });
  }

  /** How many requests it still follows (open ones): stays small however long the session. */
  get requestsInFlight(): number {
    return this.requests.size;
  }

  private rememberUrl(url: string): void {
    this.recentUrls.delete(url);
    this.recentUrls.add(url);
    if (this.recentUrls.size > 500) this.recentUrls.delete(this.recentUrls.values().next().value!);
  }

  /**
   * The browser fetches some things itself (the favicon): no page request event, only a console
   * error when they fail. List those as requests too, so a console error has its network row.
   */
  noteBrowserRequest(type: string, text: string, url: string | undefined, pageId: string): void {
    const status = type === 'error' && url ? /^Failed to load resource: the server responded with a status of (\d{3})/.exec(text)?.[1] : undefined;
    if (!status || !url || this.recentUrls.has(url)) return;
    this.rememberUrl(url);
    this.options.send({
      kind: 'network',
      entry: {
        id: nextRequestId(),
        method: 'GET',
        url: capText(url, ENTRY_LIMITS.url),
        resourceType: 'other',
        status: Number(status),
        pageId,
        time: Date.now(),
      },
    });
  }

  private async finishRequest(request: Request): Promise<void> {
    const entry = this.requests.get(request);
    if (!entry) return;
    this.requests.delete(request);
    const response = await request.response().catch(() => null);
    const sizes = await request.sizes().catch(() => undefined);
    // The browser's own start and total: the list, the waterfall and the request's Timing say the same.
    const measured = requestSpan(request);
    // Our session's end of it: the cache it came from and its bytes (Playwright's event can come first).
    const facts = await this.facts.get(entry.pageId)?.ended(request.method(), request.url());
    // As listed now: the page's DOMContentLoaded and load may have been written on it meanwhile (a document's
    // entry sent without them put the footer's and the waterfall's load times back to none).
    const latest = this.listed.get(entry.id)?.entry ?? entry;
    const finished: NetworkEntry = {
      ...latest,
      ...this.scriptInitiator(request, entry),
      status: response?.status() ?? 0,
      time: measured?.startedAt ?? entry.time,
      durationMs: measured?.totalMs ?? Date.now() - entry.time,
      ...sizeFacts(sizes, facts),
    };
    this.list(request, finished);
    this.options.send({ kind: 'network', entry: finished });
    // Bounded as Save all as HAR bounds it: by the sizes listed on the entry.
    const bound = response ? decodedBound(response, request.resourceType(), finished) : undefined;
    await this.kept.keep(entry.id, response, bound, () => this.listed.has(entry.id));
  }

  /** Network's Preserve log: keep each response's body as it ends (keptBodies.ts). */
  keepBodies(on: boolean): void {
    this.kept.setOn(on);
  }

  private list(request: Request, entry: NetworkEntry): void {
    this.listed.delete(entry.id);
    this.listed.set(entry.id, { request, entry });
    if (this.listed.size <= MAX_LISTED_REQUESTS) return;
    const oldest = this.listed.keys().next().value!;
    const { request: gone } = this.listed.get(oldest)!;
    this.listed.delete(oldest);
    this.kept.forget(oldest);
    this.reads.forget(gone);
  }

  /**
   * Whether the panel may read a listed request ahead of a click (the person's pointer rests on its row): its body
   * finished (one still streaming would hold the read until its end), not a redirect, and bounded before it is read
   * as a kept one is, within READ_AHEAD_LIMIT. A kept body reads nothing from the browser.
   */
  async readAheadAllowed(id: string): Promise<boolean> {
    const listed = this.listed.get(id);
    if (!listed || listed.entry.failure || listed.entry.durationMs === undefined || listed.request.timing().responseEnd < 0) return false;
    if (this.kept.get(id)) return true;
    const response = await listed.request.response().catch(() => null);
    if (!response || (response.status() >= 300 && response.status() < 400)) return false;
    const bound = decodedBound(response, listed.request.resourceType(), listed.entry);
    return bound !== undefined && bound <= READ_AHEAD_LIMIT;
  }

  /** Every request the panel's list holds, oldest first (Save all as HAR). */
  listedRequests(): ListedRequest[] {
    return [...this.listed.values()].map(listed => this.asListed(listed));
  }

  /** A listed request by its id, for its details; undefined once it has scrolled out of the panel's list. */
  listedRequest(id: string): ListedRequest | undefined {
    const listed = this.listed.get(id);
    return listed && this.asListed(listed);
  }

  private asListed(listed: { request: Request; entry: NetworkEntry }): ListedRequest {
    const keptBody = this.kept.get(listed.entry.id);
    const readBody = (response: Response) => this.reads.read(listed.request, response);
    return keptBody ? { ...listed, keptBody, readBody } : { ...listed, readBody };
  }

  dispose(): void {
    this.budget.dispose();
    for (const facts of this.facts.values()) facts.dispose();
    this.facts.clear();
  }
}
