/**
 * The child's tools/list and tools/call: a call goes to the bridge's own tools (bridgeTools.ts) or, through the
 * call path's steps (callPath/runChildCall.ts), to the caller's inner session, the window's or (isolation
 * `perClient`) its MCP client's. The host's call pipeline has checked the call (policy, arguments, run code's
 * rules, file names resolved in the output folder): what is left here is what only the child can know, sent
 * back as marks, never as words. Everything that leaves is masked.
 */
import type { DebuggerPauses } from './cdp/debuggerPauses';
import type { Page } from 'playwright';
import type { CallToolResult, ListToolsRequest, ListToolsResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConfig } from '../core/childProcess/childConfig';
import { hasOriginRules } from '../protocol/childConfig';
import type { SecretMask } from '../core/egress/secretMask';
import { isChildPageTool, isChildTool } from '../core/tools/toolRegistry';
import { publishTool } from '../core/tools/fileTools';
import { resultText } from '../core/results/resultText';
import { SESSION_META, CLIENT_NAME_META } from '../protocol/childMessages';
import { BRIDGE_TOOLS, runBridgeTool } from './bridgeTools';
import type { ClientSlot } from './clientSlots';
import type { OutputBudget } from './outputBudget';
import type { SecretSites } from './secretSites';
import type { InnerSessionRegistry } from './innerSessionRegistry';
import type { Checkpoints } from './timeTravel/checkpoints';
import { currentTabListed } from './tools/browserTabs';
import { type InnerSession, NO_TIMEOUT_MS } from './callPath/innerSession';
import type { ChildCallEnv } from './callPath/childCall';
import { runChildCall, withMarks } from './callPath/runChildCall';
import type { CallMarks } from '../protocol/callMarks';
import { type DevtoolsEnv, runDevtoolsTool } from './devtools/devtoolsTools';
import { TABS } from '../core/tools/upstreamTools';

type CallParams = { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number; [key: string]: unknown } };
type CallExtra = { signal: AbortSignal; sendNotification: (notification: ServerNotification) => Promise<void> };

export class CallRouter {
  private readonly env: ChildCallEnv;
  private readonly devtools: DevtoolsEnv;

  constructor(
    private readonly config: ChildConfig,
    private readonly sessions: InnerSessionRegistry,
    private readonly checkpoints: Checkpoints,
    private readonly mask: SecretMask,
    sites: SecretSites,
    outputBudget: OutputBudget,
    log: (line: string) => void,
    pauses: DebuggerPauses,
  ) {
    this.env = {
      pauses,
      config,
      mask,
      sites,
      outputBudget,
      log,
      hasOriginRules: hasOriginRules(config),
      upstreamCurrentPage: session => upstreamCurrentPage(session),
      dropSession: session => sessions.drop(session),
      checkpointAfter: session => checkpoints.after(session),
    };
    // The observer follows upstream's current tab by upstream's rules (asking upstream's tab list would miss a tab whose
    // address holds a secret: upstream lists it masked).
    this.devtools = {
      engine: config.launch.engine,
      outputDir: config.mcp.outputDir,
      mask,
      currentPage: session => Promise.resolve(session.observer?.currentPage),
    };
  }

  async list(params: ListToolsRequest['params']): Promise<ListToolsResult> {
    const session = await this.sessions.forList();
    const page = await session.client.listTools(params);
    // A page's own WebMCP tools carry its text into the list: masked like every other text.
    return { ...page, tools: this.mask.deep([...page.tools.map(publishTool), ...(page.nextCursor ? [] : BRIDGE_TOOLS)]) };
  }

  async call(params: CallParams, extra: CallExtra): Promise<CallToolResult> {
    const sessionMeta = params._meta?.[SESSION_META];
    const clientId = this.config.isolation === 'perClient' && typeof sessionMeta === 'string' ? sessionMeta : undefined;
    if (isChildTool(params.name)) {
      return this.mask.result(
        withMarks(
          { content: [] },
          {
            bridgeTool: await runBridgeTool(params.name, params.arguments ?? {}, clientId, this.sessions.directory),
          },
        ),
      );
    }
    const slot = this.sessions.slotFor(clientId, params._meta?.[CLIENT_NAME_META]);
    // Upstream masks its own results; ours (and anything it missed) are masked here too.
    const result = slot ? await this.sessions.during(slot, () => this.inSession(params, extra, slot)) : await this.inSession(params, extra, undefined);
    return this.mask.result(result);
  }

  private async inSession(params: CallParams, extra: CallExtra, slot: ClientSlot<InnerSession> | undefined): Promise<CallToolResult> {
    const session = await this.sessions.forCall(slot);
    // The last step's checkpoint first: it is the state before this call.
    if (!slot) await this.checkpoints.settled();
    const progressToken = params._meta?.progressToken;
    const marks: CallMarks = {};
    // The DevTools tools run here in upstream's place: the same steps before and after, on the caller's own page.
    const forward = isChildPageTool(params.name)
      ? async () => {
          marks.devtools = await runDevtoolsTool(params.name, params.arguments ?? {}, session, this.devtools);
          return { content: [] };
        }
      : async () =>
          (await session.client.callTool({ name: params.name, arguments: params.arguments }, undefined, {
            signal: extra.signal,
            timeout: NO_TIMEOUT_MS,
            // Upstream's progress messages can quote the page: masked like results.
            onprogress:
              progressToken === undefined
                ? undefined
                : progress =>
                    void extra
                      .sendNotification({ method: 'notifications/progress', params: { ...this.mask.deep(progress), progressToken } })
                      .catch(() => undefined),
          })) as CallToolResult;
    const lostBefore = this.sessions.takeLoss(slot);
    return runChildCall({ name: params.name, args: params.arguments, session, slot, lostBefore, startedAt: Date.now(), forward, marks }, this.env);
  }
}

/**
 * Upstream's current tab, asked of upstream (its browser_tabs list), and checked against the page
 * at that index: the bridge's own idea of the current tab follows upstream's rules but is not it.
 */
async function upstreamCurrentPage(session: InnerSession): Promise<Page | undefined> {
  const pages = session.contexts?.pages();
  if (!pages?.length) return undefined;
  const listed = (await session.client.callTool({ name: TABS, arguments: { action: 'list' } }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
  const current = listed.isError ? undefined : currentTabListed(resultText(listed));
  const page = current && pages[current.index];
  return page && current.names(page.url()) ? page : undefined;
}
