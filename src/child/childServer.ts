/**
 * The child's MCP server, put together: the inner sessions (innerSessionRegistry.ts), time travel's checkpoints,
 * the call router for tools/list and tools/call (callRouter.ts) and the control channel's handlers
 * (controlRequests.ts). What the child tells the host goes out here, masked.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConfig } from '../core/childProcess/childConfig';
import { SecretMask } from '../core/egress/secretMask';
import type { ObservationEvent } from '../protocol/childMessages';
import type { PlaywrightModule } from './browserLauncher';
import { CallRouter } from './callRouter';
import { emitToHost, serveControl } from './controlHandlers';
import { controlRequests } from './controlRequests';
import { OutputBudget } from './outputBudget';
import { SecretSites } from './secretSites';
import { InnerSessionRegistry, type CreateConnection } from './innerSessionRegistry';
import { Checkpoints } from './timeTravel/checkpoints';
import { DebuggerPauses } from './cdp/debuggerPauses';

export type { CreateConnection } from './innerSessionRegistry';

export class ChildServer {
  readonly server: Server;
  private readonly sessions: InnerSessionRegistry;

  constructor(
    config: ChildConfig,
    createConnection: CreateConnection,
    playwright: PlaywrightModule,
    log: (line: string) => void,
    version: string,
    mask: SecretMask = new SecretMask({}),
    sites: SecretSites = new SecretSites({}),
  ) {
    const server = new Server({ name: 'playwright-bridge', version }, { capabilities: { tools: { listChanged: true } } });
    this.server = server;
    const observation = (event: ObservationEvent) => emitToHost(server, 'observation', { event: mask.event(event) });
    this.sessions = new InnerSessionRegistry(
      config,
      createConnection,
      playwright,
      {
        observation,
        browserState: params => emitToHost(server, 'browserState', params),
        toolListChanged: () => void server.sendToolListChanged().catch(() => undefined),
      },
      log,
    );
    const checkpoints = new Checkpoints(config, () => this.sessions.windowRunning(), observation, log);
    // Pages paused in a debugger on the managed CDP endpoint: a call says so, and the panel shows it while it lasts.
    const pauses = new DebuggerPauses();
    pauses.onChange(paused => observation({ kind: 'debuggerPaused', paused }));
    const router = new CallRouter(
      config,
      this.sessions,
      checkpoints,
      mask,
      sites,
      new OutputBudget(config.mcp.outputDir, config.outputBudgetBytes, log),
      log,
      pauses,
    );
    server.setRequestHandler(ListToolsRequestSchema, async request => router.list(request.params));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => router.call(request.params, extra));
    // The control channel (protocol/controlChannel.ts): one handler per method the host may send.
    serveControl(server, controlRequests(config, this.sessions, checkpoints, mask, observation, log, pauses));
  }

  /** Closes the browsers and the inner sessions; the child exits after this. */
  shutdown(): Promise<void> {
    return this.sessions.shutdown();
  }
}
