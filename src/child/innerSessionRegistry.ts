/**
 * The child's inner sessions: the window's (the one browser the panel shows by default) and, with isolation
 * `perClient`, one per MCP client. It opens a session on its first use, replaces it when its browser is closed
 * by `browser_close`, is lost, or fails to launch (upstream builds its backend once per connection and never
 * asks for a new context, so without this every call after `browser_close` fails), and keeps which session
 * the panel watches. Each session's browser health (browserHealth.ts) is kept once, here.
 */
import { pathToFileURL } from 'url';
import type { BrowserContext } from 'playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListRootsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConfig } from '../core/childProcess/childConfig';
import { hasOriginRules } from '../protocol/childConfig';
import type { BrowserStateParams, LiveViewParams, ObservationEvent, WatchableContext } from '../protocol/childMessages';
import type { SessionDirectory } from './bridgeTools';
import { ClientSlot, ClientSlots } from './clientSlots';
import { ClientContexts } from './clientContexts';
import { PlaywrightModule, launchBrowser } from './browserLauncher';
import { BrowserObserver } from './browserObserver';
import { SessionContexts } from './sessionContexts';
import { BrowserHealth } from './browserHealth';
import { upstreamConfigOf } from './upstreamConfig';
import { StorageChanges } from './timeTravel/storageChanges';
import { bridgeTabsCall, type InnerSession } from './callPath/innerSession';

/** @playwright/mcp's public entry: one MCP server per call, on the context the getter hands it. */
export type CreateConnection = (
  config: object,
  contextGetter: () => Promise<BrowserContext>,
) => Promise<{
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}>;

/** Where a session lives: the window's place, or a client's slot. Its next call hears why the last browser went. */
interface SessionOwner {
  inner?: Promise<InnerSession>;
  pendingLoss?: string;
}

/** What the registry tells the host, through the child's server. */
export interface RegistryOutlet {
  observation(event: ObservationEvent): void;
  browserState(params: BrowserStateParams): void;
  toolListChanged(): void;
}

export const LIVE_VIEW_OFF: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };

export class InnerSessionRegistry {
  private readonly window: SessionOwner = {};
  /** Isolation `perClient`: each MCP client's own session, by the endpoint's session id. */
  private readonly clients: ClientSlots<InnerSession>;
  private readonly clientContexts: ClientContexts;
  /** Whose browser the panel shows: `window`, or a client's session id. */
  private watched = 'window';
  private liveView: LiveViewParams = LIVE_VIEW_OFF;
  private preserveNetworkLog = false;

  constructor(
    private readonly config: ChildConfig,
    private readonly createConnection: CreateConnection,
    private readonly playwright: PlaywrightModule,
    private readonly outlet: RegistryOutlet,
    private readonly log: (line: string) => void,
  ) {
    this.clientContexts = new ClientContexts(playwright, config, log);
    this.clients = new ClientSlots<InnerSession>({
      idleMs: config.sessionIdleMs,
      open: slot => this.open(slot),
      close: session => session.close(),
      // A closed client the panel watched hands the panel back to the window.
      changed: closedId => (closedId !== undefined && this.watched === closedId ? this.watch('window') : this.sendSessions()),
      log,
    });
  }

  /** The caller's place: a client's slot (made on its first call) under isolation `perClient`, else the window's. */
  slotFor(clientId: string | undefined, clientName: unknown): ClientSlot<InnerSession> | undefined {
    return clientId === undefined ? undefined : this.clients.take(clientId, clientName);
  }

  /** Runs one call of a client with its idle clock held. */
  during<T>(slot: ClientSlot<InnerSession>, work: () => Promise<T>): Promise<T> {
    return this.clients.during(slot, work);
  }

  /** The session a call runs in, opened if needed; over CDP its agent tab is chosen first. */
  async forCall(slot: ClientSlot<InnerSession> | undefined): Promise<InnerSession> {
    return this.prepared(slot ? await this.clients.session(slot) : await this.windowSession());
  }

  /**
   * The window's session for tools/list: opened, never prepared. Over CDP preparing reaches the person's browser,
   * and the host lists tools while its server starts, before anyone asked for a browser.
   */
  forList(): Promise<InnerSession> {
    return this.windowSession();
  }

  /** Why the caller's last browser went away since its last call (told once). */
  takeLoss(slot: ClientSlot<InnerSession> | undefined): string | undefined {
    const owner: SessionOwner = slot ?? this.window;
    const loss = owner.pendingLoss;
    owner.pendingLoss = undefined;
    return loss;
  }

  /** The window's session as it is now (starting nothing); undefined when none runs. */
  async windowRunning(): Promise<InnerSession | undefined> {
    return this.window.inner?.catch(() => undefined);
  }

  /** The watched session while one runs; starts nothing (the panel's wishes and input need no browser of their own). */
  async running(): Promise<InnerSession | undefined> {
    const inner = this.watched === 'window' ? this.window.inner : this.clients.get(this.watched)?.inner;
    return inner?.catch(() => undefined);
  }

  /** The watched session, started if needed (the panel's navigation bar may open the first page). */
  async watchedSession(): Promise<InnerSession> {
    const slot = this.watched === 'window' ? undefined : this.clients.get(this.watched);
    return this.prepared(slot ? await this.clients.session(slot) : await this.windowSession());
  }

  /** Network's Preserve log: the watched session's observer keeps bodies as responses end. */
  async setPreserveNetworkLog(on: boolean): Promise<void> {
    this.preserveNetworkLog = on;
    const session = await this.running();
    // The panel may have watched another session meanwhile (watch() set that one): only the watched one keeps.
    if (session && (session.slot?.id ?? 'window') === this.watched) session.observer?.keepBodies(this.preserveNetworkLog);
  }

  async setLiveView(params: LiveViewParams): Promise<void> {
    this.liveView = params;
    (await this.running())?.observer?.setLiveView(params);
  }

  /** The panel shows another session: the old one's stream stops, the new one's starts and says its tabs. */
  async watch(id: string): Promise<void> {
    if (id === this.watched || (id !== 'window' && !this.clients.get(id))) return;
    const before = await this.running();
    this.watched = id;
    before?.observer?.setLiveView(LIVE_VIEW_OFF);
    before?.observer?.keepBodies(false);
    const now = await this.running();
    this.sendSessions();
    now?.observer?.setLiveView(this.liveView);
    now?.observer?.keepBodies(this.preserveNetworkLog);
    now?.observer?.announce();
    this.log(`The panel now watches ${id === 'window' ? "the window's session" : `session ${id.slice(0, 8)}`}`);
  }

  closeClient(id: string, why: string): Promise<boolean> {
    return this.clients.close(id, why);
  }

  /** The sessions, for the bridge's session tools. */
  get directory(): SessionDirectory {
    const tabsOf = async (inner: Promise<InnerSession> | undefined) => {
      const pages = (await inner?.catch(() => undefined))?.contexts?.pages() ?? [];
      return Promise.all(pages.map(async page => ({ url: page.url(), title: await page.title().catch(() => '') })));
    };
    return {
      isolation: this.config.isolation,
      list: async callerId => {
        const now = Date.now();
        const summary = async (slot: ClientSlot<InnerSession>) => ({
          id: slot.id,
          client: slot.client,
          tabs: await tabsOf(slot.inner),
          idleSeconds: Math.round((now - slot.lastUsed) / 1000),
          yours: slot.id === callerId,
        });
        if (callerId !== undefined && this.config.isolation === 'perClient') {
          // An MCP client: its own line only; the others (the window's too) are not even read, only counted.
          const own = this.clients.get(callerId);
          return { sessions: own ? [await summary(own)] : [], others: this.clients.all().filter(slot => slot.id !== callerId).length + 1 };
        }
        const windowSession = { id: 'window', tabs: await tabsOf(this.window.inner), idleSeconds: 0, yours: callerId === undefined };
        return { sessions: [windowSession, ...(await Promise.all(this.clients.all().map(summary)))], others: 0 };
      },
      matching: prefix => this.clients.matching(prefix),
      close: (id, why, tellClient) => this.clients.close(id, why, tellClient),
    };
  }

  /** Ends a session whose browser went (or never came): its owner opens a fresh one on its next call. */
  async drop(session: InnerSession): Promise<void> {
    const owner: SessionOwner = session.slot ?? this.window;
    if (owner.inner && (await owner.inner.catch(() => undefined)) === session) owner.inner = undefined;
    await session.close();
  }

  /** Closes every session and the clients' browser; the child exits after this. */
  async shutdown(): Promise<void> {
    const current = this.window.inner;
    this.window.inner = undefined;
    await (await current?.catch(() => undefined))?.close();
    await this.clients.dispose('the bridge is shutting down');
    await this.clientContexts.close();
  }

  private windowSession(): Promise<InnerSession> {
    if (!this.window.inner) {
      const opening = this.open();
      this.window.inner = opening;
      opening.catch(() => {
        if (this.window.inner === opening) this.window.inner = undefined;
      });
    }
    return this.window.inner;
  }

  /** The sessions the panel can choose from (only clients that have made a call). */
  private sendSessions(): void {
    const sessions: WatchableContext[] = [
      { id: 'window', label: 'Chat in this window', watched: this.watched === 'window' },
      ...this.clients.all().map(slot => ({
        id: slot.id,
        label: `MCP client "${slot.client ?? 'unnamed'}" (${slot.id.slice(0, 8)})`,
        watched: this.watched === slot.id,
      })),
    ];
    this.outlet.observation({ kind: 'sessions', sessions });
  }

  /** The one place a session's health change is acted on: the host hears of the window's, the owner's next call of a loss. */
  private healthOf(slot: ClientSlot<InnerSession> | undefined, session: () => InnerSession): BrowserHealth {
    return new BrowserHealth({
      changed: (params, seenByCall) => {
        if (!slot) this.outlet.browserState(params);
        if (params.state !== 'lost') return;
        const why = params.message ?? 'it went away';
        this.log(slot ? `Session ${slot.id.slice(0, 8)} lost its browser context: ${why}` : `Browser lost: ${why}`);
        if (!seenByCall) (slot ?? this.window).pendingLoss = `before this call, ${why}`;
        void this.drop(session());
      },
    });
  }

  private async open(slot?: ClientSlot<InnerSession>): Promise<InnerSession> {
    const session: InnerSession = {
      client: undefined as unknown as Client,
      close: async () => undefined,
      routes: new Set(),
      slot,
      health: this.healthOf(slot, () => session),
    };
    const contextGetter = async (): Promise<BrowserContext> => {
      session.health.launching();
      try {
        // A client's own context lives in the clients' browser server: no panel, no browser-state events.
        session.browser = slot
          ? await this.clientContexts.open(why => session.health.lost(why))
          : await launchBrowser(this.playwright, this.config, why => session.health.lost(why));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!slot) this.log(message);
        session.health.failed(message);
        throw error;
      }
      session.contexts = new SessionContexts(session.browser.context);
      session.observer = this.observe(session.contexts, slot?.id ?? 'window');
      // Over CDP the browser and its logins are the person's own: their storage is not the bridge's to keep.
      if (!slot && this.config.checkpoints && this.config.connection?.protocol !== 'cdp') {
        session.storageChanges = new StorageChanges(session.browser.context, this.config.launch.engine === 'chromium', this.log);
      }
      session.health.ready();
      return session.browser.context;
    };
    const mcpServer = await this.createConnection(upstreamConfigOf(this.config, { forClients: !!slot }), contextGetter);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverSide);
    const client = new Client({ name: 'playwright-bridge-child', version: '1' }, { capabilities: { roots: { listChanged: false } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: this.config.roots.map(folder => ({ uri: pathToFileURL(folder).href, name: folder })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => this.outlet.toolListChanged());
    await client.connect(clientSide);
    session.client = client;
    // Once, however many ask (a loss and the call that saw it both end the session).
    let closing: Promise<void> | undefined;
    session.close = () =>
      (closing ??= (async () => {
        await session.observer?.dispose();
        // Upstream closes its named contexts as its server closes; under perClient they live in a browser that stays.
        await session.contexts?.closeNamed();
        await session.browser?.close();
        await client.close().catch(() => undefined);
        await mcpServer.close().catch(() => undefined);
      })());
    return session;
  }

  /**
   * Over CDP the browser is the person's, with their tabs: upstream would make the first of them the
   * agent's. Before the first call we start upstream on the context and select the tab we opened.
   */
  private async prepared(session: InnerSession): Promise<InnerSession> {
    if (session.prepared || this.config.connection?.protocol !== 'cdp') return session;
    session.prepared = true;
    await bridgeTabsCall(session, { action: 'list' });
    const page = session.browser?.agentPage;
    const index = page ? session.contexts!.pages().indexOf(page) : -1;
    if (index > 0) await bridgeTabsCall(session, { action: 'select', index });
    return session;
  }

  /** Watches a session's context; what it sees reaches the panel only while the panel watches that session. */
  private observe(contexts: SessionContexts, sessionId: string): BrowserObserver {
    const observer = new BrowserObserver(contexts, {
      send: event => {
        if (this.watched === sessionId) this.outlet.observation(event);
      },
      // Frames wait for nothing: with over 2 MB unsent on stdout the extension is behind, so drop.
      congested: () => process.stdout.writableLength > 2 * 1024 * 1024,
      viewport: this.config.viewport,
      screencast: this.config.screencast,
      engine: this.config.launch.engine,
      originRules: hasOriginRules(this.config),
      log: this.log,
    });
    observer.setLiveView(this.watched === sessionId ? this.liveView : LIVE_VIEW_OFF);
    observer.keepBodies(this.watched === sessionId && this.preserveNetworkLog);
    return observer;
  }
}
