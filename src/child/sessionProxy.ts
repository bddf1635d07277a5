import { pathToFileURL } from 'url';
import type { BrowserContext } from 'playwright';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CallToolResult,
  ListRootsRequestSchema,
  ListToolsRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { ChildConfig } from '../core/childProcess/childConfig';
import {
  BROWSER_LOST_META, BROWSER_STATE_NOTIFICATION, BrowserStateParams, LiveViewNotificationSchema, LiveViewParams, OBSERVATION_NOTIFICATION,
  ObservationEvent, ScreenshotRequestSchema, ScreenshotResult,
} from '../protocol/childMessages';
import { LaunchedBrowser, PlaywrightModule, launchBrowser } from './browserLauncher';
import { BrowserObserver } from './browserObserver';
import { OutputBudget } from './outputBudget';
import { namedFileWritten, publishTool, resolveWrittenFile } from '../core/tools/fileTools';

/** @playwright/mcp's public entry: one MCP server per call, on the context the getter hands it. */
export type CreateConnection = (config: object, contextGetter: () => Promise<BrowserContext>) => Promise<{
  connect(transport: unknown): Promise<void>;
  close(): Promise<void>;
}>;

/** One @playwright/mcp server and the browser it drives. Replaced whole when the browser goes. */
interface InnerSession {
  client: Client;
  close(): Promise<void>;
  browser?: LaunchedBrowser;
  observer?: BrowserObserver;
  /** Tools upstream marks read-only: after any other, the page may have changed. */
  readOnlyTools: Set<string>;
  launchFailed: boolean;
  /** Set when the browser went away without being asked to. */
  lostReason?: string;
}

/** Tools that capture the page: the live stream holds still while they run (they change nothing). */
const CAPTURE_TOOLS = new Set(['browser_take_screenshot', 'browser_pdf_save']);
/** Other calls hold the stream this long at most, so long waits still show on the panel. */
const CALL_HOLD_MS = 300;

// A day: the supervisor in the extension host owns the call timeout; this hop must not add its own.
const NO_TIMEOUT_MS = 24 * 60 * 60 * 1000;

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

  constructor(
    private readonly config: ChildConfig,
    private readonly createConnection: CreateConnection,
    private readonly playwright: PlaywrightModule,
    private readonly log: (line: string) => void,
    version: string,
  ) {
    this.outputBudget = new OutputBudget(config.mcp.outputDir, config.outputBudgetBytes, log);
    this.server = new Server({ name: 'playwright-bridge', version }, { capabilities: { tools: { listChanged: true } } });
    this.server.setRequestHandler(ListToolsRequestSchema, async request => {
      const session = await this.session();
      const page = await session.client.listTools(request.params);
      return { ...page, tools: page.tools.map(publishTool) };
    });
    this.server.setNotificationHandler(LiveViewNotificationSchema, async notification => {
      this.liveView = notification.params;
      const session = this.inner && (await this.inner.catch(() => undefined));
      session?.observer?.setLiveView(this.liveView);
    });
    this.server.setRequestHandler(ScreenshotRequestSchema, async (): Promise<ScreenshotResult> => {
      const session = this.inner && (await this.inner.catch(() => undefined));
      const page = session?.observer?.currentPage;
      if (!page) throw new Error('The browser has no page open.');
      const data = await page.screenshot({ type: 'png', timeout: 10000 });
      return { data: data.toString('base64'), mimeType: 'image/png', url: page.url(), title: await page.title().catch(() => '') };
    });
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => this.callTool(request.params, extra));
  }

  private async callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
    extra: { signal: AbortSignal; sendNotification: (n: any) => Promise<void> },
  ): Promise<CallToolResult> {
    if (params.name === 'browser_run_code_unsafe' && params.arguments?.code !== undefined && params.arguments?.filename !== undefined) {
      // Upstream would run the file and ignore the code a confirmation showed.
      return { isError: true, content: [{ type: 'text', text: 'browser_run_code_unsafe was given both code and filename; give one of them. Nothing ran.' }] };
    }
    const written = namedFileWritten(params.name, params.arguments);
    if (written !== undefined) {
      // A relative name goes to the output folder, never the workspace root upstream would pick.
      const target = resolveWrittenFile(written, this.config.mcp.outputDir);
      if ('error' in target) return { isError: true, content: [{ type: 'text', text: target.error }] };
      params = { ...params, arguments: { ...params.arguments, filename: target.path } };
    }
    const session = await this.session();
    const loss = this.pendingLoss;
    this.pendingLoss = undefined;
    const progressToken = params._meta?.progressToken;
    let result: CallToolResult;
    const forward = async () => (await session.client.callTool({ name: params.name, arguments: params.arguments }, undefined, {
      signal: extra.signal,
      timeout: NO_TIMEOUT_MS,
      onprogress: progressToken === undefined ? undefined : progress =>
        void extra.sendNotification({ method: 'notifications/progress', params: { ...progress, progressToken } }).catch(() => undefined),
    })) as CallToolResult;
    try {
      result = session.observer ? await session.observer.whileHeld(forward, CAPTURE_TOOLS.has(params.name) ? Infinity : CALL_HOLD_MS) : await forward();
    } catch (error) {
      if (!session.lostReason) throw error;
      return { isError: true, content: [{ type: 'text', text: `The browser went away during ${params.name}: ${session.lostReason} The next call starts a fresh browser.` }] };
    }

    const observer = session.observer;
    if (observer && !result.isError) {
      observer.noteToolCall(params.name, params.arguments);
      if (!session.readOnlyTools.has(params.name)) await observer.afterStateChange();
    }
    this.outputBudget.afterCall();
    if (session.launchFailed) {
      // Upstream keeps the failed launch; a fresh session lets the next call try again
      // (after the person installed the browser or fixed the setting).
      await this.dropSession(session);
    } else if (params.name === 'browser_close' && !result.isError) {
      await this.dropSession(session);
      this.sendBrowserState({ state: 'closed' });
    }
    if (loss) result._meta = { ...result._meta, [BROWSER_LOST_META]: loss };
    return result;
  }

  private session(): Promise<InnerSession> {
    if (!this.inner) {
      this.inner = this.openSession();
      this.inner.catch(() => (this.inner = undefined));
    }
    return this.inner;
  }

  private async openSession(): Promise<InnerSession> {
    const session: InnerSession = { client: undefined as unknown as Client, close: async () => undefined, launchFailed: false, readOnlyTools: new Set() };
    const contextGetter = async (): Promise<BrowserContext> => {
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
      session.observer = new BrowserObserver(session.browser.context, {
        send: event => this.sendObservation(event),
        // Frames wait for nothing: with over 2 MB unsent on stdout the extension is behind, so drop.
        congested: () => process.stdout.writableLength > 2 * 1024 * 1024,
        viewport: this.config.viewport,
        screencast: this.config.screencast,
        engine: this.config.launch.engine,
        log: this.log,
      });
      session.observer.setLiveView(this.liveView);
      this.sendBrowserState({ state: 'ready' });
      return session.browser.context;
    };
    const mcpServer = await this.createConnection(this.config.mcp, contextGetter);
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
    for (const tool of (await client.listTools()).tools) if (tool.annotations?.readOnlyHint) session.readOnlyTools.add(tool.name);
    session.close = async () => {
      await session.observer?.dispose();
      await session.browser?.close();
      await client.close().catch(() => undefined);
      await mcpServer.close().catch(() => undefined);
    };
    return session;
  }

  private onBrowserLost(session: InnerSession, why: string): void {
    session.lostReason = why;
    this.log(`Browser lost: ${why}`);
    this.pendingLoss = `before this call, ${why}`;
    this.sendBrowserState({ state: 'lost', message: why });
    void this.dropSession(session);
  }

  private async dropSession(session: InnerSession): Promise<void> {
    const current = this.inner;
    if (current && (await current.catch(() => undefined)) === session) this.inner = undefined;
    await session.close();
  }

  private sendObservation(event: ObservationEvent): void {
    void this.server.notification({ method: OBSERVATION_NOTIFICATION, params: { event } as Record<string, unknown> }).catch(() => undefined);
  }

  private sendBrowserState(params: BrowserStateParams): void {
    void this.server.notification({ method: BROWSER_STATE_NOTIFICATION, params: { ...params } }).catch(() => undefined);
  }

  /** Closes the browser and the inner session; the child exits after this. */
  async shutdown(): Promise<void> {
    const current = this.inner;
    this.inner = undefined;
    const session = current && (await current.catch(() => undefined));
    await session?.close();
  }
}
