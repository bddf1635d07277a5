/**
 * The child's answer to the host's managed CDP endpoint (protocol/controlChannel.ts `cdpEndpoint`): the watched
 * context's internal endpoint, one per context (a context or browser that closes takes its endpoint along), and the challenge
 * the host reads back through it before it publishes a capability: a cookie of the watched context on a domain
 * that no page can have (`.invalid`), set through Playwright, the MCP side.
 */
import type { BrowserContext } from 'playwright';
import type { InnerSession } from '../callPath/innerSession';
import { InternalCdpEndpoint, targetIdOf } from './internalCdpEndpoint';
import type { DebuggerPauses } from './debuggerPauses';

export const CHALLENGE_COOKIE = { name: 'playwright-bridge-cdp-challenge', domain: 'cdp-challenge.invalid' } as const;

export class CdpShare {
  /** One endpoint per watched context: a client's context that closes takes its endpoint (and so its grants) along. */
  private readonly endpoints = new WeakMap<BrowserContext, InternalCdpEndpoint>();

  constructor(
    private readonly engine: string,
    private readonly pauses?: DebuggerPauses,
  ) {}

  async prepare(session: InnerSession | undefined, challenge: string) {
    if (this.engine !== 'chromium')
      throw new Error(`DevTools and Share over CDP need a Chromium-family browser; this one is ${this.engine} (setting playwrightBridge.browser).`);
    const context = session?.browser?.context;
    const page = session?.observer?.currentPage;
    const browser = context?.browser();
    if (!context || !browser || !page) throw new Error('No browser runs: start one (any browser tool, or open the panel), then try again.');
    let endpoint = this.endpoints.get(context);
    if (!endpoint || endpoint.isClosed) {
      const made = InternalCdpEndpoint.of(
        context,
        session.contexts ? session.contexts.browser : browser,
        { pages: async () => session.contexts?.pages() ?? context.pages(), contexts: () => session.contexts?.contexts() ?? [context] },
        this.pauses,
      );
      if ('unavailable' in made) throw new Error(`The browser's CDP connection cannot be shared: ${made.unavailable}.`);
      endpoint = made;
      this.endpoints.set(context, endpoint);
    }
    const address = await endpoint.listen();
    await context.addCookies([{ ...CHALLENGE_COOKIE, value: challenge, path: '/', secure: false, httpOnly: true }]);
    const cdp = await context.newCDPSession(page);
    let browserContextId: string;
    try {
      browserContextId = ((await cdp.send('Target.getTargetInfo')) as { targetInfo: { browserContextId?: string } }).targetInfo.browserContextId ?? '';
    } finally {
      await cdp.detach().catch(() => undefined);
    }
    return { ...address, browserContextId, currentTargetId: await targetIdOf(page) };
  }

  async challengeDone(session: InnerSession | undefined): Promise<Record<string, never>> {
    await session?.browser?.context.clearCookies({ name: CHALLENGE_COOKIE.name, domain: CHALLENGE_COOKIE.domain }).catch(() => undefined);
    return {};
  }
}
