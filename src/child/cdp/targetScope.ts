/**
 * What one CDP client of the watched session may see and name: the targets of that session's own browser contexts
 * (its main one and those it opened by name), never another client's (under perClient all share one browser) nor
 * the bridge's private one (where DevTools' frontend is read). Judged on what each target is, its browser context
 * as Chromium reports it, and not on a list of methods: every target info a message carries, every target id and
 * every browser context id it names is checked, both ways. A target the client was never shown is as unknown to it
 * as a made-up one, so VS Code's debugger, which attaches to the whole browser and picks pages by URL, sees only
 * the watched session's pages even when another client's page has the same URL.
 */
import type { CdpMessage } from './browserPipe';

/** A target as CDP describes it (Target.TargetInfo): the parts judged here. */
interface TargetInfo {
  targetId?: unknown;
  type?: unknown;
  browserContextId?: unknown;
}

/** The browser contexts a client may reach. */
export interface ContextRange {
  includes(browserContextId: string): boolean;
  /** Where a target made without naming a context goes: the main context, unless that is the browser's default. */
  readonly newTargetContext: string | undefined;
  /** Whether the browser's default context is in range (what a call naming no context acts on). */
  readonly includesDefault: boolean;
}

/**
 * On a session of the browser itself, what a client may call besides Target (judged target by target) and IO (its
 * own streams): what tells the browser's version or a target's window, and the calls that act on one context,
 * judged by the context they name (or the default one, naming none). Anything else there acts on every client's
 * pages at once (a browser-wide Fetch pauses and rewrites their requests, a browser-wide trace records them) and
 * is refused; on a page's own session it acts on that page.
 */
const ON_THE_BROWSER = new Set(['Browser.getVersion', 'Browser.getWindowForTarget']);
const ON_A_CONTEXT = new Set([
  'Browser.grantPermissions',
  'Browser.resetPermissions',
  'Browser.setPermission',
  'Browser.setDownloadBehavior',
  'Browser.cancelDownload',
  'Storage.getCookies',
  'Storage.setCookies',
  'Storage.clearCookies',
]);

/** What to do with an event from the browser. */
export type EventFate = 'deliver' | 'hide' | 'release';

export const NO_SUCH_TARGET = 'No target with given id found';

export class TargetScope {
  /** The targets the client was told of: an event naming any other by id alone is not delivered. */
  private readonly shown = new Set<string>();

  constructor(private readonly range: ContextRange) {}

  /**
   * Whether this target is in the client's range (and so may be shown to it). The browser's own target (of no
   * context) is: every client's root is a session on it already, and what a session reaches is judged here too.
   */
  admits(info: unknown): boolean {
    if (typeof info !== 'object' || info === null) return false;
    const { targetId, browserContextId, type } = info as TargetInfo;
    const inRange = typeof browserContextId === 'string' ? this.range.includes(browserContextId) : type === 'browser';
    if (!inRange) return false;
    if (typeof targetId === 'string') this.shown.add(targetId);
    return true;
  }

  /**
   * Why the client's command may not go to the browser, or undefined; `describe` reads a target's info (undefined
   * when the browser knows no such target). A command that names no context but makes a target is given the main one.
   */
  async refusal(message: CdpMessage, describe: (targetId: string) => Promise<unknown>): Promise<string | undefined> {
    const params = message.params ?? {};
    // A context id of another type (null, a number) could be read by the browser as none, that is its default one.
    if ('browserContextId' in params && (typeof params.browserContextId !== 'string' || !this.range.includes(params.browserContextId)))
      return 'Failed to find browser context with given id';
    if (typeof params.targetId === 'string' && !this.admits(await describe(params.targetId))) return NO_SUCH_TARGET;
    if (message.method === 'Target.createTarget' && params.browserContextId === undefined && this.range.newTargetContext !== undefined)
      message.params = { ...params, browserContextId: this.range.newTargetContext };
    return undefined;
  }

  /**
   * Why a command is refused for what it would act on beyond this client's range (see ON_THE_BROWSER), or
   * undefined: on a session of the browser itself, any domain; on a page's, the Browser domain (which acts on the
   * browser whatever session it comes on: Browser.close would end every client's pages).
   */
  browserWideRefusal(method: string, params: Record<string, unknown> | undefined, onBrowserSession: boolean): string | undefined {
    const domain = method.split('.')[0];
    if (!onBrowserSession && domain !== 'Browser') return undefined;
    if (domain === 'Target' || domain === 'IO' || ON_THE_BROWSER.has(method)) return undefined;
    if (ON_A_CONTEXT.has(method)) {
      if (typeof params?.browserContextId === 'string' || this.range.includesDefault) return undefined;
      return `${method} names no browserContextId, so it would act on the browser's default context, which is not this session's`;
    }
    return onBrowserSession
      ? `${method} is refused on the browser's own session by Playwright Bridge: there it would reach every client's pages; call it on a page's session`
      : `${method} is refused by Playwright Bridge: it acts on the whole browser, every client's pages with it`;
  }

  /**
   * A command's result, with the targets and contexts out of range left out. (A lone `targetInfo` is of a target
   * the command named, judged before it went, or of the session's own: the browser's has no context.)
   */
  result(result: Record<string, unknown>): Record<string, unknown> {
    const kept = { ...result };
    if (Array.isArray(result.targetInfos)) kept.targetInfos = result.targetInfos.filter(info => this.admits(info));
    if (Array.isArray(result.browserContextIds))
      kept.browserContextIds = result.browserContextIds.filter(id => typeof id === 'string' && this.range.includes(id));
    if (typeof result.defaultBrowserContextId === 'string' && !this.range.includes(result.defaultBrowserContextId)) delete kept.defaultBrowserContextId;
    return kept;
  }

  /**
   * An event: delivered, hidden, or (a session the browser attached the client to on a target out of range)
   * released, so that the target never waits for a debugger its client will not hear of.
   */
  event(method: string, params: Record<string, unknown>): EventFate {
    if ('targetInfo' in params) {
      if (this.admits(params.targetInfo)) return 'deliver';
      return method === 'Target.attachedToTarget' ? 'release' : 'hide';
    }
    // A target once shown stays known (its detach may come after its destruction).
    if (typeof params.targetId === 'string') return this.shown.has(params.targetId) ? 'deliver' : 'hide';
    return 'deliver';
  }
}
