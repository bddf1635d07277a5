import { pathToFileURL } from 'url';
import type { BrowserContext, Page } from 'playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ListRootsRequestSchema,
  ListToolsRequestSchema,
  ServerNotification,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ChildConfig } from '../core/childProcess/childConfig';
import {
  BrowserStateParams, LiveViewParams, ObservationEvent, PageAction, PageActionResult, PickParams, PickResult,
  ScreenshotResult, SESSION_META, CLIENT_NAME_META, SessionInfo,
} from '../protocol/childMessages';
import { emitToHost, serveControl } from './controlHandlers';
import { describeRequest, maskAndCut } from './requestDetail';
import { deviceList } from './launchOptions';
import { BRIDGE_TOOLS, runBridgeTool, SessionDirectory } from './bridgeTools';
import { isChildTool } from '../core/tools/toolRegistry';
import { measureMemory } from './memoryReport';
import { ClientSlot, ClientSlots } from './clientSlots';
import { ClientContexts } from './clientContexts';
import { SecretMask } from '../core/egress/secretMask';
import { SecretSites } from './secretSites';
import { PlaywrightModule, launchBrowser } from './browserLauncher';
import { BrowserObserver } from './browserObserver';
import { OutputBudget } from './outputBudget';
import { upstreamConfigOf } from './upstreamConfig';
import { applyInput } from './personInput';
import { pickElement, pickRegion, refFromSnapshot } from './elementPicker';
import { currentTabListed } from './tools/browserTabs';
import type { PageGlobals } from './pageGlobals';
import { resultText, withoutErrorHeading } from '../core/results/resultText';
import { publishTool } from '../core/tools/fileTools';
import { PersonRecorder } from './personRecorder';
import { StorageChanges } from './timeTravel/storageChanges';
import { restoreCheckpoint } from './timeTravel/restoreCheckpoint';
import { capText, ENTRY_LIMITS, type CheckpointFacts, type RestoreCheckpointParams, type RestoreCheckpointResult } from '../protocol/childMessages';
import { withDeadline } from '../core/supervision/deadline';
import { type InnerSession, NO_TIMEOUT_MS } from './callPath/innerSession';
import type { ChildCallEnv } from './callPath/childCall';
import { runChildCall, withMarks } from './callPath/runChildCall';

/** @playwright/mcp's public entry: one MCP server per call, on the context the getter hands it. */
export type CreateConnection = (config: object, contextGetter: () => Promise<BrowserContext>) => Promise<{
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}>;

const LIVE_VIEW_OFF: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
/**
 * The longest the next step waits for a checkpoint (a page that keeps its state from being read, a browser that
 * does not answer): then the checkpoint goes without its storage, and the step says it cannot be restored.
 */
const CHECKPOINT_DEADLINE_MS = 2500;
/** A checkpoint's storage read ends its own work after this long (storageReader.ts); its answer may take a moment more to come over. */
const CHECKPOINT_READ_MS = 1000;


/**
 * The child's MCP server. It forwards every request to an inner @playwright/mcp session and
 * replaces that session when its browser is closed by `browser_close`, is lost, or fails to
 * launch. Upstream builds its backend once per connection and never asks for a new context, so
 * without this every call after `browser_close` fails.
 */
export class SessionProxy {
  readonly server: Server;
  private inner: Promise<InnerSession> | undefined;
  /** Why the browser went away before the next call, for that call's result. */
  private pendingLoss: string | undefined;
  private liveView: LiveViewParams = { enabled: false, maxWidth: 0, maxHeight: 0 };
  private readonly outputBudget: OutputBudget;
  private inputQueue: Promise<void> = Promise.resolve();
  /** The person's actions while they have control, as Playwright code (for exported tests). */
  private readonly personRecorder = new PersonRecorder();
  /** Isolation `perClient`: each MCP client's own session, by the endpoint's session id. */
  private readonly clients: ClientSlots<InnerSession>;
  private readonly clientContexts: ClientContexts;
  /** Whose browser the panel shows: `window`, or a client's session id. */
  private watched = 'window';
  /** Time travel: the last checkpoint's number, and the one being taken (what comes next waits for it). */
  private checkpointSeq = 0;
  private checkpointTaking: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: ChildConfig,
    private readonly createConnection: CreateConnection,
    private readonly playwright: PlaywrightModule,
    private readonly log: (line: string) => void,
    version: string,
    private readonly mask: SecretMask = new SecretMask({}),
    private readonly sites: SecretSites = new SecretSites({}),
  ) {
    this.outputBudget = new OutputBudget(config.mcp.outputDir, config.outputBudgetBytes, log);
    this.clientContexts = new ClientContexts(playwright, config, log);
    this.clients = new ClientSlots<InnerSession>({
      idleMs: config.sessionIdleMs,
      open: slot => this.openSession(slot),
      close: session => session.close(),
      // A closed client the panel watched hands the panel back to the window.
      changed: closedId => (closedId !== undefined && this.watched === closedId ? this.watch('window') : this.sendSessions()),
      log,
    });
    this.server = new Server({ name: 'playwright-bridge', version }, { capabilities: { tools: { listChanged: true } } });
    this.server.setRequestHandler(ListToolsRequestSchema, async request => {
      const session = await this.session();
      const page = await session.client.listTools(request.params);
      // A page's own WebMCP tools carry its text into the list: masked like every other text.
      return { ...page, tools: this.mask.deep([...page.tools.map(publishTool), ...(page.nextCursor ? [] : BRIDGE_TOOLS)]) };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => this.callTool(request.params, extra));
    // The control channel (protocol/controlChannel.ts): one handler per method the host may send.
    serveControl(this.server, {
      liveView: async params => {
        this.liveView = params;
        const session = await this.runningSession();
        session?.observer?.setLiveView(this.liveView);
      },
      watchSession: params => this.watch(params.sessionId),
      input: params => {
        // One after another, as the person made them: a key must not overtake the click that focused its field.
        this.inputQueue = this.inputQueue.then(async () => {
          await this.checkpointTaking;
          const session = await this.runningSession();
          const page = session?.observer?.currentPage;
          if (page) await applyInput(page, params.event, this.config.viewport);
        }).catch(error => this.log(`Input not applied: ${(error as Error).message}`));
      },
      closeSession: async params => {
        await this.clients.close(params.sessionId, 'its MCP client left');
      },
      screenshot: async (): Promise<ScreenshotResult> => {
        const session = await this.runningSession();
        const page = session?.observer?.currentPage;
        if (!page) throw new Error('The browser has no page open.');
        const data = await page.screenshot({ type: 'png', timeout: 10000 });
        const title = await page.title().catch(() => '');
        return { data: data.toString('base64'), mimeType: 'image/png', url: this.mask.text(page.url()), title: this.mask.text(title) };
      },
      storageState: async () => {
        const session = await this.runningSession();
        if (!session?.browser) throw new Error('No browser is running: open the site and log in first.');
        return { state: JSON.stringify(await session.browser.context.storageState()) };
      },
      recordPerson: async params => {
        if (params.action === 'start') {
          // In the input queue, so that the person's first click waits for the recorder rather than slipping past it.
          const started = this.inputQueue.then(async () => {
            const session = await this.runningSession();
            if (session?.browser) await this.personRecorder.start(session.browser.context);
          });
          this.inputQueue = started.catch(() => undefined);
          await started;
          return { code: [] };
        }
        const session = await this.runningSession();
        // The person's last input first, then the recorder's word on it (its events trail the input by a moment).
        await this.inputQueue;
        await new Promise(resolve => setTimeout(resolve, 250));
        const { code, origins } = await this.personRecorder.stop();
        const url = session?.observer?.currentPage?.url();
        // What the person typed may be a secret's value: masked like every other text (a placeholder the page wrote made inert).
        return this.mask.deep({ code, ...(url ? { url } : {}), origins: origins.slice(0, 200) });
      },
      checkpoint: async () => {
        // After the person's input that is still queued (it waits for their recorder to start): it is what this checkpoint is of.
        await this.inputQueue;
        await this.checkpointTaking;
        const session = await (this.inner?.catch(() => undefined));
        const facts = session && await this.checkpointFacts(session);
        if (!facts) throw new Error('No checkpoint: no browser runs, or time travel is off.');
        // The page's address and title, like every text the child gives: masked.
        return this.mask.deep(facts);
      },
      restoreCheckpoint: async params => this.mask.deep(await this.restore(params)),
      memory: async params => measureMemory(params.heapSnapshotPath),
      pageAction: async (params): Promise<PageActionResult> => {
        await this.checkpointTaking;
        return this.mask.deep(await this.pageAction(params.pageAction));
      },
      // Add to Chat puts what the picker reports onto the chat input: masked like every other text.
      pick: async params => this.mask.deep(await this.pick(params)),
      deviceList: async () => ({ devices: deviceList() }),
      requestDetail: async params => {
        const listed = (await this.runningSession())?.observer?.listedRequest(params.id);
        if (!listed) throw new Error('That request is no longer kept: the browser restarted, or it scrolled out of the list.');
        return maskAndCut(await describeRequest(listed.request, listed.entry, params), text => this.mask.text(text), params.bodyChars);
      },
    });
  }

  /** The panel's picker: the element under the point, or a dragged region's picture. */
  private async pick(params: PickParams): Promise<PickResult> {
    const session = await this.runningSession();
    const page = session?.observer?.currentPage;
    if (!session || !page) return {};
    if (params.phase === 'region') return { region: await pickRegion(page, params, this.config.viewport) };
    const element = await pickElement(page, params, this.config.viewport);
    if (!element || params.phase !== 'choose') return { element };
    // The ref the agent's element tools take, from upstream's own snapshot of the page.
    const snapshot = (await session.client.callTool({ name: 'browser_snapshot', arguments: {} }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
    const ref = refFromSnapshot(resultText(snapshot), element);
    return { element: ref ? { ...element, ref } : element };
  }

  private async callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number; [key: string]: unknown } },
    extra: { signal: AbortSignal; sendNotification: (notification: ServerNotification) => Promise<void> },
  ): Promise<CallToolResult> {
    // The host's call pipeline has checked the call (policy, arguments, run code's rules, file names resolved in
    // the output folder): what is left here is what only the child can know, sent back as marks, never as words.
    const sessionMeta = params._meta?.[SESSION_META];
    const clientId = this.config.isolation === 'perClient' && typeof sessionMeta === 'string' ? sessionMeta : undefined;
    if (isChildTool(params.name)) {
      return this.mask.result(withMarks({ content: [] }, { bridgeTool: await runBridgeTool(params.name, params.arguments ?? {}, clientId, this.directory) }));
    }
    const slot = clientId === undefined ? undefined : this.clients.take(clientId, params._meta?.[CLIENT_NAME_META]);
    // Upstream masks its own results; ours (and anything it missed) are masked here too.
    const result = slot ? await this.clients.during(slot, () => this.callInSession(params, extra, slot)) : await this.callInSession(params, extra, undefined);
    return this.mask.result(result);
  }

  /**
   * Upstream's current tab, asked of upstream (its browser_tabs list), and checked against the page
   * at that index: the bridge's own idea of the current tab follows upstream's rules but is not it.
   */
  private async upstreamCurrentPage(session: InnerSession): Promise<Page | undefined> {
    const pages = session.browser?.context.pages();
    if (!pages?.length) return undefined;
    const listed = (await session.client.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }, undefined,
      { timeout: NO_TIMEOUT_MS })) as CallToolResult;
    const current = listed.isError ? undefined : currentTabListed(resultText(listed));
    const page = current && pages[current.index];
    return page && current.names(page.url()) ? page : undefined;
  }

  /** The sessions, for the bridge's session tools. */
  private get directory(): SessionDirectory {
    const tabsOf = async (inner: Promise<InnerSession> | undefined) => {
      const pages = (await inner?.catch(() => undefined))?.browser?.context.pages() ?? [];
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
        const windowSession = { id: 'window', tabs: await tabsOf(this.inner), idleSeconds: 0, yours: callerId === undefined };
        return { sessions: [windowSession, ...await Promise.all(this.clients.all().map(summary))], others: 0 };
      },
      matching: prefix => this.clients.matching(prefix),
      close: (id, why, tellClient) => this.clients.close(id, why, tellClient),
    };
  }

  private async callInSession(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
    extra: { signal: AbortSignal; sendNotification: (notification: ServerNotification) => Promise<void> },
    slot: ClientSlot<InnerSession> | undefined,
  ): Promise<CallToolResult> {
    const session = await this.prepared(slot ? await this.clients.session(slot) : await this.session());
    // The last step's checkpoint first: it is the state before this call.
    if (!slot) await this.checkpointTaking;
    const lostBefore = slot ? slot.pendingLoss : this.pendingLoss;
    if (slot) slot.pendingLoss = undefined;
    else this.pendingLoss = undefined;
    const progressToken = params._meta?.progressToken;
    const forward = async () => (await session.client.callTool({ name: params.name, arguments: params.arguments }, undefined, {
      signal: extra.signal,
      timeout: NO_TIMEOUT_MS,
      // Upstream's progress messages can quote the page: masked like results.
      onprogress: progressToken === undefined ? undefined : progress =>
        void extra.sendNotification({ method: 'notifications/progress', params: { ...this.mask.deep(progress), progressToken } }).catch(() => undefined),
    })) as CallToolResult;
    // The steps of the call are callPath/runChildCall.ts's list.
    return runChildCall({ name: params.name, args: params.arguments, session, slot, lostBefore, startedAt: Date.now(), forward, marks: {} }, this.callEnv());
  }

  /** What the call path's steps need of this proxy. */
  private callEnv(): ChildCallEnv {
    return {
      config: this.config,
      mask: this.mask,
      sites: this.sites,
      outputBudget: this.outputBudget,
      hasOriginRules: this.hasOriginRules,
      log: line => this.log(line),
      upstreamCurrentPage: session => this.upstreamCurrentPage(session),
      dropSession: session => this.dropSession(session),
      sendBrowserState: params => this.sendBrowserState(params),
      checkpointAfter: session => this.checkpointAfter(session),
    };
  }

  /**
   * Time travel: the step's checkpoint is taken as its result goes back (the first read is on its way before
   * anything else can run) and sent as an observation once ready. What comes next in this browser (a call,
   * the person's input, a restore) waits for it: it is the state right after the step, and it costs the step
   * nothing, only an agent that calls again within those milliseconds. Never longer than CHECKPOINT_DEADLINE_MS:
   * a read the page stalls is ended, and its step marked as not restorable.
   */
  private checkpointAfter(session: InnerSession): { seq: number } {
    const seq = ++this.checkpointSeq;
    this.checkpointTaking = this.checkpointFacts(session).then(facts => {
      if (facts) this.sendObservation({ kind: 'checkpoint', seq, facts });
    }, () => undefined);
    return { seq };
  }

  /**
   * Where the current tab is after a step, and the context's storage when it changed: the child's part of a
   * checkpoint (the host adds the picture, the snapshot, the console and the requests). Never fails a step.
   */
  private async checkpointFacts(session: InnerSession): Promise<CheckpointFacts | undefined> {
    const changes = session.storageChanges;
    const context = session.browser?.context;
    if (!changes || !context || session.lostReason) return undefined;
    const page = session.observer?.currentPage;
    const read = Promise.all([
      page ? page.title().catch(() => '') : '',
      // One read at a time, its size judged before it is made, its work ended at its deadline (storageChanges.ts).
      changes.captureIfChanged(page, CHECKPOINT_READ_MS).catch(error => {
        this.log(`Checkpoint: the storage could not be read (${(error as Error).message.split('\n')[0]}); the next one reads it whole.`);
        changes.forgetChanges();
        return undefined;
      }),
    ]);
    // Everything after this step waits for its checkpoint: a page that stalls the reads must not stall the browser.
    // Past the bound the step is not restorable (not "as the step before": it may have changed the storage).
    const got = await withDeadline(read, CHECKPOINT_DEADLINE_MS,
      `the page did not let its state be read within ${CHECKPOINT_DEADLINE_MS / 1000} s`).catch((error: Error) => {
      changes.forgetChanges();
      return ['', changes.notKept(0, error.message)] as const;
    });
    const [title, storage] = got;
    const viewport = page?.viewportSize();
    return {
      url: capText(page?.url() ?? '', ENTRY_LIMITS.url), title: capText(title, ENTRY_LIMITS.title), ...(viewport ? { viewport } : {}),
      tabCount: context.pages().length, ...(storage ? { storage } : {}),
    };
  }

  /** Time travel: the window's context put back to a checkpoint; the live view follows the fresh tab. */
  private async restore(params: RestoreCheckpointParams): Promise<RestoreCheckpointResult> {
    if (this.config.connection?.protocol === 'cdp') {
      throw new Error('The browser is your own (reached over CDP): the bridge does not replace its cookies and storage. Use a browser the bridge launches to go back to a step.');
    }
    // One at a time, and whatever comes next (a call, the person's input, a checkpoint) waits for it.
    const restoring = this.checkpointTaking.then(() => this.restoreNow(params));
    this.checkpointTaking = restoring.then(() => undefined, () => undefined);
    return restoring;
  }

  private async restoreNow(params: RestoreCheckpointParams): Promise<RestoreCheckpointResult> {
    const session = await this.inner?.catch(() => undefined);
    if (!session?.browser || !session.storageChanges) throw new Error('No browser runs (or time travel is off): there is nothing to put back.');
    // The stream stays stopped throughout, as for a capture: the person sees the step's page once it is there,
    // and the tab work does not compete with the encoder for the same cores.
    const page = await session.observer!.duringCall(
      () => restoreCheckpoint(session.browser!.context, params, this.config.mcp.timeouts.navigation, this.log), Infinity);
    session.storageChanges.forget();
    session.observer?.follow(page);
    return { url: page.url(), title: await page.title().catch(() => '') };
  }

  /**
   * The panel's navigation bar and tab strip. Through upstream's own tools where it has them, so its
   * idea of the current tab and page stays right; forward, reload and stop on the page itself.
   */
  private async pageAction(action: PageAction): Promise<PageActionResult> {
    const session = await this.prepared(await this.watchedSession());
    const inner = async (name: string, args: Record<string, unknown>, done: string): Promise<PageActionResult> => {
      const result = (await session.client.callTool({ name, arguments: args }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
      if (!result.isError) session.observer?.noteToolCall(name, args, resultText(result));
      return result.isError ? { ok: false, message: withoutErrorHeading(resultText(result)).split('\n')[0] } : { ok: true, message: done };
    };
    const page = session.observer?.currentPage;
    try {
      switch (action.action) {
        case 'navigate': return await inner('browser_navigate', { url: action.url }, `Opened ${action.url}`);
        case 'back': return await inner('browser_navigate_back', {}, 'Went back');
        case 'newTab': return await inner('browser_tabs', { action: 'new' }, 'Opened a new tab');
        case 'resize': {
          const resized = await inner('browser_resize', { width: action.width, height: action.height }, `Resized the page to ${action.width}×${action.height}`);
          // The page lays itself out for its new size in its next frame (its resize handlers run then): the model's
          // next snapshot must see that, not the old layout. A page that holds its frames back gets a second.
          if (resized.ok && page) {
            await withDeadline(page.evaluate('new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)))'), 1000, 'no frame')
              .catch(() => undefined);
          }
          return resized;
        }
        case 'selectTab':
        case 'closeTab': {
          const index = session.observer?.tabIndex(action.tabId) ?? -1;
          if (index < 0) return { ok: false, message: 'That tab is gone.' };
          const select = action.action === 'selectTab';
          const done = select ? `Switched to tab ${index + 1}` : `Closed tab ${index + 1}`;
          return await inner('browser_tabs', { action: select ? 'select' : 'close', index }, done);
        }
      }
      if (!page) return { ok: false, message: 'No page is open.' };
      if (action.action === 'forward') await page.goForward({ timeout: this.config.mcp.timeouts.navigation });
      else if (action.action === 'reload') await page.reload({ timeout: this.config.mcp.timeouts.navigation });
      else await page.evaluate(() => (globalThis as unknown as PageGlobals).stop());
      return { ok: true, message: action.action === 'forward' ? 'Went forward' : action.action === 'reload' ? 'Reloaded the page' : 'Stopped loading' };
    } catch (error) {
      return { ok: false, message: (error as Error).message.split('\n')[0] };
    }
  }

  private get hasOriginRules(): boolean {
    const rules = this.config.mcp.network;
    return !!(rules.allowedOrigins?.length || rules.blockedOrigins?.length);
  }

  /** The watched session while one runs; starts nothing (the panel's wishes and input need no browser of their own). */
  private async runningSession(): Promise<InnerSession | undefined> {
    const inner = this.watched === 'window' ? this.inner : this.clients.get(this.watched)?.inner;
    return inner?.catch(() => undefined);
  }

  /** The watched session, started if needed (the panel's navigation bar may open the first page). */
  private watchedSession(): Promise<InnerSession> {
    const slot = this.watched === 'window' ? undefined : this.clients.get(this.watched);
    return slot ? this.clients.session(slot) : this.session();
  }

  /** The panel shows another session: the old one's stream stops, the new one's starts and says its tabs. */
  private async watch(id: string): Promise<void> {
    if (id === this.watched || (id !== 'window' && !this.clients.get(id))) return;
    const before = await this.runningSession();
    this.watched = id;
    before?.observer?.setLiveView(LIVE_VIEW_OFF);
    const now = await this.runningSession();
    this.sendSessions();
    now?.observer?.setLiveView(this.liveView);
    now?.observer?.announce();
    this.log(`The panel now watches ${id === 'window' ? 'the window\'s session' : `session ${id.slice(0, 8)}`}`);
  }

  /** The sessions the panel can choose from (only clients that have made a call). */
  private sendSessions(): void {
    const sessions: SessionInfo[] = [
      { id: 'window', label: 'Chat in this window', watched: this.watched === 'window' },
      ...this.clients.all().map(slot => ({
        id: slot.id,
        label: `MCP client "${slot.client ?? 'unnamed'}" (${slot.id.slice(0, 8)})`,
        watched: this.watched === slot.id,
      })),
    ];
    this.sendObservation({ kind: 'sessions', sessions });
  }

  private session(): Promise<InnerSession> {
    if (!this.inner) {
      this.inner = this.openSession();
      this.inner.catch(() => (this.inner = undefined));
    }
    return this.inner;
  }

  private async openSession(slot?: ClientSlot<InnerSession>): Promise<InnerSession> {
    const session: InnerSession = {
      client: undefined as unknown as Client, close: async () => undefined, launchFailed: false, routes: new Set(), slot,
    };
    const contextGetter = async (): Promise<BrowserContext> => {
      if (slot) {
        // A client's own context in the clients' browser server: no panel, no browser-state events.
        try {
          session.browser = await this.clientContexts.open(why => this.onBrowserLost(session, why));
        } catch (error) {
          session.launchFailed = true;
          throw error;
        }
        session.observer = this.observe(session.browser.context, slot.id);
        return session.browser.context;
      }
      this.sendBrowserState({ state: 'launching' });
      try {
        session.browser = await launchBrowser(this.playwright, this.config, why => this.onBrowserLost(session, why));
      } catch (error) {
        session.launchFailed = true;
        const message = error instanceof Error ? error.message : String(error);
        this.log(message);
        this.sendBrowserState({ state: 'failed', message });
        throw error;
      }
      session.observer = this.observe(session.browser.context, 'window');
      // Over CDP the browser and its logins are the person's own: their storage is not the bridge's to keep.
      if (this.config.checkpoints && this.config.connection?.protocol !== 'cdp') {
        session.storageChanges = new StorageChanges(session.browser.context, this.config.launch.engine === 'chromium', this.log);
      }
      this.sendBrowserState({ state: 'ready' });
      return session.browser.context;
    };
    const mcpServer = await this.createConnection(upstreamConfigOf(this.config, { forClients: !!slot }), contextGetter);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpServer.connect(serverSide);
    const client = new Client({ name: 'playwright-bridge-child', version: '1' }, { capabilities: { roots: { listChanged: false } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: this.config.roots.map(folder => ({ uri: pathToFileURL(folder).href, name: folder })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      await this.server.sendToolListChanged().catch(() => undefined);
    });
    await client.connect(clientSide);
    session.client = client;
    session.close = async () => {
      await session.observer?.dispose();
      await session.browser?.close();
      await client.close().catch(() => undefined);
      await mcpServer.close().catch(() => undefined);
    };
    return session;
  }

  /**
   * Over CDP the browser is the person's, with their tabs: upstream would make the first of them the
   * agent's. Before the first call we start upstream on the context and select the tab we opened.
   */
  private async prepared(session: InnerSession): Promise<InnerSession> {
    if (session.prepared || this.config.connection?.protocol !== 'cdp') return session;
    session.prepared = true;
    const call = (args: Record<string, unknown>) => session.client.callTool({ name: 'browser_tabs', arguments: args }, undefined, { timeout: NO_TIMEOUT_MS });
    await call({ action: 'list' });
    const page = session.browser?.agentPage;
    const index = page ? session.browser!.context.pages().indexOf(page) : -1;
    if (index > 0) {
      const selected = (await call({ action: 'select', index })) as CallToolResult;
      session.observer?.noteToolCall('browser_tabs', { action: 'select', index }, resultText(selected));
    }
    return session;
  }

  /** Watches a session's context; what it sees reaches the panel only while the panel watches that session. */
  private observe(context: BrowserContext, sessionId: string): BrowserObserver {
    const observer = new BrowserObserver(context, {
      send: event => { if (this.watched === sessionId) this.sendObservation(event); },
      // Frames wait for nothing: with over 2 MB unsent on stdout the extension is behind, so drop.
      congested: () => process.stdout.writableLength > 2 * 1024 * 1024,
      viewport: this.config.viewport,
      screencast: this.config.screencast,
      engine: this.config.launch.engine,
      originRules: this.hasOriginRules,
      log: this.log,
    });
    observer.setLiveView(this.watched === sessionId ? this.liveView : LIVE_VIEW_OFF);
    return observer;
  }

  private onBrowserLost(session: InnerSession, why: string): void {
    session.lostReason = why;
    if (session.slot) {
      this.log(`Session ${session.slot.id.slice(0, 8)} lost its browser context: ${why}`);
      session.slot.pendingLoss = `before this call, ${why}`;
    } else {
      this.log(`Browser lost: ${why}`);
      this.pendingLoss = `before this call, ${why}`;
      this.sendBrowserState({ state: 'lost', message: why });
    }
    void this.dropSession(session);
  }

  private async dropSession(session: InnerSession): Promise<void> {
    const slot = session.slot;
    const current = slot ? slot.inner : this.inner;
    if (current && (await current.catch(() => undefined)) === session) {
      if (slot) slot.inner = undefined;
      else this.inner = undefined;
    }
    await session.close();
  }

  private sendObservation(event: ObservationEvent): void {
    const masked = this.mask.event(event);
    emitToHost(this.server, 'observation', { event: masked });
  }

  private sendBrowserState(params: BrowserStateParams): void {
    emitToHost(this.server, 'browserState', params);
  }

  /** Closes the browser and the inner session; the child exits after this. */
  async shutdown(): Promise<void> {
    const current = this.inner;
    this.inner = undefined;
    const session = current && (await current.catch(() => undefined));
    await session?.close();
    await this.clients.dispose('the bridge is shutting down');
    await this.clientContexts.close();
  }
}

/**
 * Puts the child's marks on a result (the host words them); marks that are absent are left out. Whatever
 * upstream itself put under the marks' key is dropped: only the child speaks there.
 */
