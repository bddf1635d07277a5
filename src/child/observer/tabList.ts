import type { Page } from 'playwright';
import { capText, ENTRY_LIMITS, TabInfo } from '../../protocol/childMessages';
import { currentTabListed } from '../tools/browserTabs';
import { isBrowserErrorPage, netErrorWords } from '../netErrorWords';
import { TABS } from '../../core/tools/upstreamTools';
import { isTabLoad, requestFailure } from './networkLog';
import type { ObserverOptions } from './observerOptions';
import type { SessionContexts } from '../sessionContexts';

/**
 * The session's tabs as the panel's tab strip and header show them: their ids (the panel names tabs by id),
 * upstream's order and its current tab, each tab's named context, size and last failed load.
 */
export class TabList {
  private readonly pageIds = new WeakMap<Page, string>();
  private nextPageId = 1;
  private current: Page | undefined;
  /** Every page of the session's contexts, in the order they opened. */
  private readonly opened: Page[] = [];
  /** A tab's last failed load (its address and why): the panel shows that, not the browser's error page's address. */
  private readonly loadFailures = new WeakMap<Page, { url: string; reason: string; pageWas: string }>();
  private disposed = false;

  constructor(
    private readonly contexts: SessionContexts,
    private readonly options: Pick<ObserverOptions, 'send' | 'originRules'>,
  ) {}

  /** Upstream's tabs in its order (a page of a context code opened is none of them: SessionContexts.pages). */
  private get pages(): Page[] {
    return this.opened.filter(page => this.contexts.upstreamLists(page));
  }

  /** The tab the agent works in: upstream's current tab, followed by its rules (see followCall). */
  get currentPage(): Page | undefined {
    return this.current && !this.current.isClosed() ? this.current : this.pages.at(-1);
  }

  /** Upstream's index of the tab with this id (the panel names tabs by id), or -1. */
  tabIndex(tabId: string): number {
    return this.pages.findIndex(page => this.pageIds.get(page) === tabId);
  }

  pageId(page: Page): string {
    let id = this.pageIds.get(page);
    if (!id) {
      id = `p${this.nextPageId++}`;
      this.pageIds.set(page, id);
    }
    return id;
  }

  /** Follows a new tab by upstream's rules; its id. */
  attach(page: Page): string {
    const pageId = this.pageId(page);
    this.opened.push(page);
    // Upstream's rule: a page opened on its own (a popup) becomes current only when none is.
    if (!this.current && this.contexts.upstreamLists(page)) this.current = page;
    page.on('request', request => {
      // A new load of the tab: whatever failed before is no longer what it shows.
      if (isTabLoad(request, page)) this.loadFailures.delete(page);
    });
    page.on('requestfailed', request => {
      const failure = requestFailure(request, this.options.originRules);
      // The tab's own load failed (listed or not): the panel shows what failed and why, not the error page's address.
      // (Not a load stopped for another navigation or a download: the page stays as it was then.)
      if (isTabLoad(request, page) && !/ERR_ABORTED/.test(failure)) {
        this.loadFailures.set(page, { url: request.url(), reason: netErrorWords(failure), pageWas: page.url() });
        this.send();
      }
    });
    page.on('framenavigated', frame => {
      if (frame !== page.mainFrame()) return;
      // Another page is there now (not the browser's error page, which Playwright may report at the old address).
      const failed = this.loadFailures.get(page);
      if (failed && !isBrowserErrorPage(frame.url()) && frame.url() !== failed.pageWas) this.loadFailures.delete(page);
      this.send();
    });
    page.on('load', () => this.send());
    page.on('close', () => {
      // Upstream's rule: the tab that takes the closed one's place becomes current (else the last).
      const index = this.pages.indexOf(page);
      this.opened.splice(this.opened.indexOf(page), 1);
      const pages = this.pages;
      if (this.current === page) this.current = pages[Math.min(index, pages.length - 1)];
      this.send();
    });
    this.send();
    return pageId;
  }

  /** Says the tabs to the panel. */
  send(): void {
    if (this.disposed) return;
    const current = this.currentPage;
    void Promise.all(
      this.pages.map(async (page): Promise<TabInfo> => {
        // Its last load failed and nothing loaded since: the address that failed, and why (the person sees what they
        // typed). Playwright does not always move the page's address to the browser's error page, so that is not the test.
        const failed = this.loadFailures.get(page);
        const context = this.contexts.contextName(page);
        return {
          id: this.pageId(page),
          url: capText(failed?.url ?? page.url(), ENTRY_LIMITS.url),
          title: capText(failed ? 'Could not open the page' : await page.title().catch(() => ''), ENTRY_LIMITS.title),
          current: page === current,
          ...(page.viewportSize() ? { viewport: page.viewportSize()! } : {}),
          ...(failed ? { loadError: failed.reason } : {}),
          ...(context !== undefined ? { context: capText(context, ENTRY_LIMITS.title) } : {}),
        };
      }),
    ).then(
      tabs => this.options.send({ kind: 'tabs', tabs }),
      () => undefined,
    );
  }

  /**
   * Follows upstream's current tab, so the live view shows the tab the agent works in: from upstream's own
   * answer to browser_tabs (its result is the tab list, before anything of the page's), checked against the
   * page at that index; otherwise by upstream's rules for new and select. Other tools' answers are not read
   * for it: a page's console text can carry a line that looks like a tab list entry. True when the current
   * tab changed (the tabs are said).
   */
  followCall(name: string, args: Record<string, unknown> | undefined, answerText: string): boolean {
    const listed = name === TABS ? currentTabListed(answerText) : undefined;
    const listedPage = listed && this.pages[listed.index];
    let next: Page | undefined;
    if (listedPage && listed.names(listedPage.url())) next = listedPage;
    else if (name === TABS) {
      next = args?.action === 'new' ? this.pages.at(-1) : args?.action === 'select' && typeof args.index === 'number' ? this.pages[args.index] : undefined;
    }
    return next ? this.follow(next) : false;
  }

  /** Makes this tab the current one and says the tabs; false when it already was. */
  follow(page: Page): boolean {
    if (page === this.current) return false;
    this.current = page;
    this.send();
    return true;
  }

  dispose(): void {
    this.disposed = true;
  }
}
