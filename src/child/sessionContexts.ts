import type { Browser, BrowserContext, Page } from 'playwright';

/**
 * The browser contexts one inner session owns: the one the bridge opened for it, and the named ones its
 * upstream opens (`browser_tabs` with `isolatedContext`), with their pages in upstream's tab order.
 *
 * Upstream opens a named context with `context.browser().newContext()`. The context handed to upstream answers
 * `browser()` with a view of the browser through which a context opened is claimed here. Under isolation
 * `perClient` every client's context lives in one browser, so a context is known as a session's by the door it
 * was opened through, not by guessing from its pages: the panel, the bridge's tools on the current tab and the
 * session's end follow exactly the contexts that session opened. (Code a client is allowed to run can still
 * reach the whole browser: README says so of playwrightBridge.allowRunCodeForClients.)
 */
export class SessionContexts {
  private readonly owned: BrowserContext[] = [];
  private readonly names = new Map<BrowserContext, string>();
  /** Every page of every owned context, in the order they opened (upstream's tabs among them: pages()). */
  private readonly ordered: Page[] = [];
  private readonly pageListeners = new Set<(page: Page) => void>();
  /** Contexts claimed since the last call ended (callEnded). */
  private readonly claimedInCall: BrowserContext[] = [];
  private readonly view: Browser | null;
  /**
   * The browser itself, not the session's view of it: a context the bridge opens for its own work (DevTools'
   * frontend reader) is opened here, so it is never claimed as this session's.
   */
  readonly browser: Browser | null;

  constructor(readonly main: BrowserContext) {
    const browser = main.browser();
    this.browser = browser;
    this.view = browser && this.viewOf(browser);
    this.own(main);
  }

  /** Contexts this session owns, its own first. */
  contexts(): BrowserContext[] {
    return [...this.owned];
  }

  /**
   * Upstream's tabs, in its order: the open pages of the session's own context and of its named ones, as they
   * opened. A context code opened through the view (not browser_tabs) is the session's, but no tab of upstream's:
   * counting its pages would move every index after them.
   */
  pages(): Page[] {
    return this.ordered.filter(page => !page.isClosed() && this.upstreamLists(page));
  }

  /** Whether upstream lists this page among its tabs (it is in the session's own context or a named one). */
  upstreamLists(page: Page): boolean {
    return page.context() === this.main || this.names.has(page.context());
  }

  /** The name upstream gave a page's context (`isolatedContext`), or undefined for the session's own. */
  contextName(page: Page): string | undefined {
    return this.names.get(page.context());
  }

  /** The open context upstream named so (`isolatedContext`), if any. */
  named(name: string): BrowserContext | undefined {
    return this.owned.find(context => this.names.get(context) === name);
  }

  /** Calls `listener` for each page of every owned context (upstream's tabs or not), open now or opened later. */
  onPage(listener: (page: Page) => void): () => void {
    for (const page of this.ordered.filter(open => !open.isClosed())) listener(page);
    this.pageListeners.add(listener);
    return () => this.pageListeners.delete(listener);
  }

  /**
   * A call ended: when it was `browser_tabs` new with `isolatedContext` (the name) and upstream opened a context for
   * it, that context is the newest one claimed during the call (a session's calls run one at a time). A name upstream
   * already had opens no context, and a context opened otherwise (code the agent ran) keeps no name.
   */
  callEnded(name: string | undefined): void {
    const opened = this.claimedInCall.at(-1);
    this.claimedInCall.length = 0;
    if (name !== undefined && opened && !this.named(name) && !opened.isClosed()) this.names.set(opened, name);
  }

  /** Closes the named contexts (the session's own context is closed by whoever opened it). */
  async closeNamed(): Promise<void> {
    await Promise.all(this.owned.filter(context => context !== this.main).map(context => context.close().catch(() => undefined)));
  }

  private own(context: BrowserContext): void {
    this.owned.push(context);
    // A named context answers browser() with the same view: a context opened from it is this session's too.
    if (this.view) context.browser = () => this.view;
    const add = (page: Page) => {
      if (this.ordered.includes(page)) return;
      this.ordered.push(page);
      page.once('close', () => this.ordered.splice(this.ordered.indexOf(page), 1));
      for (const listener of this.pageListeners) listener(page);
    };
    for (const page of context.pages()) add(page);
    context.on('page', add);
    context.once('close', () => {
      this.owned.splice(this.owned.indexOf(context), 1);
      this.names.delete(context);
    });
  }

  /** The browser as this session sees it: a context it opens is claimed as this session's. */
  private viewOf(browser: Browser): Browser {
    const claim = async (opened: Promise<BrowserContext>) => {
      const context = await opened;
      this.own(context);
      this.claimedInCall.push(context);
      return context;
    };
    return new Proxy(browser, {
      get: (target, property) => {
        if (property === 'newContext') return (options?: Parameters<Browser['newContext']>[0]) => claim(target.newContext(options));
        if (property === 'newPage')
          return async (options?: Parameters<Browser['newPage']>[0]) => {
            const context = await claim(target.newContext(options));
            return context.newPage();
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}
