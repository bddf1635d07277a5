/**
 * What the child does for each request and notification of the control channel (protocol/controlChannel.ts):
 * the panel's wishes (live view, watched session, navigation bar, picker, screenshot), the person's input and
 * its recording, time travel's checkpoints and restores, and the host's own questions (memory, storage state,
 * request details). Everything that leaves here is masked, like every text the child gives.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConfig } from '../core/childProcess/childConfig';
import type { SecretMask } from '../core/egress/secretMask';
import { resultText, withoutErrorHeading } from '../core/results/resultText';
import type { ObservationEvent, PageAction, PageActionResult, PickParams, PickResult, ScreenshotResult } from '../protocol/childMessages';
import type { ControlHandlers } from './controlHandlers';
import { describeRequest, maskAndCut } from './requestDetail';
import { deviceList } from './launchOptions';
import { measureMemory } from './memoryReport';
import { applyInput } from './personInput';
import { elementAtPoint, pickElement, pickRegion, refFromSnapshot } from './elementPicker';
import type { PageGlobals } from './pageGlobals';
import { PersonRecorder } from './personRecorder';
import { CdpShare } from './cdp/cdpShare';
import type { DebuggerPauses } from './cdp/debuggerPauses';
import type { InnerSessionRegistry } from './innerSessionRegistry';
import type { Checkpoints } from './timeTravel/checkpoints';
import { failedLoadMessage } from './netErrorWords';
import { buildHar } from './harExport';
import { writeFile } from 'fs/promises';
import { NO_TIMEOUT_MS } from './callPath/innerSession';
import { untilDrawnAtSize } from './drawnAtSize';
import { NAVIGATE, NAVIGATE_BACK, RESIZE, SNAPSHOT, TABS } from '../core/tools/upstreamTools';

export function controlRequests(
  config: ChildConfig,
  sessions: InnerSessionRegistry,
  checkpoints: Checkpoints,
  mask: SecretMask,
  /** An observation to the host (masked on its way, as every one). */
  observation: (event: ObservationEvent) => void,
  log: (line: string) => void,
  /** Pages paused in a debugger on the managed CDP endpoint. */
  pauses: DebuggerPauses,
): ControlHandlers {
  // The person's input, one event after another as they made it: a key must not overtake the click that focused its field.
  let inputQueue: Promise<void> = Promise.resolve();
  /** The person's actions while they have control, as Playwright code (for exported tests). */
  const personRecorder = new PersonRecorder();
  const currentPage = async () => (await sessions.running())?.observer?.currentPage;
  const cdpShare = new CdpShare(config.launch.engine, pauses);

  return {
    liveView: params => sessions.setLiveView(params),
    preserveNetworkLog: params => sessions.setPreserveNetworkLog(params.on),
    watchContext: params => sessions.watch(params.sessionId),
    input: params => {
      inputQueue = inputQueue
        .then(async () => {
          await checkpoints.settled();
          const page = await currentPage();
          if (!page) return;
          const { event } = params;
          // What the person clicks, read before the click reaches it, for Activity's row (not for a move or a key).
          if (event.kind === 'mouse' && event.action === 'down') {
            const target = await elementAtPoint(page, event.x, event.y, config.viewport).catch(() => undefined);
            if (target) observation({ kind: 'personClicked', ...target });
          }
          await applyInput(page, event, config.viewport);
        })
        .catch(error => log(`Input not applied: ${(error as Error).message}`));
    },
    closeSession: async params => {
      await sessions.closeClient(params.sessionId, 'its MCP client left');
    },
    screenshot: async (): Promise<ScreenshotResult> => {
      const page = await currentPage();
      if (!page) throw new Error('The browser has no page open.');
      const data = await page.screenshot({ type: 'png', timeout: 10000 });
      const title = await page.title().catch(() => '');
      return { data: data.toString('base64'), mimeType: 'image/png', url: mask.text(page.url()), title: mask.text(title) };
    },
    storageState: async () => {
      const session = await sessions.running();
      if (!session?.browser) throw new Error('No browser is running: open the site and log in first.');
      return { state: JSON.stringify(await session.browser.context.storageState()) };
    },
    recordPerson: async params => {
      if (params.action === 'start') {
        // In the input queue, so that the person's first click waits for the recorder rather than slipping past it;
        // and in the browser's turn, after the checkpoint being taken: its storage read opens a passing tab, and a
        // recorder that starts while that tab closes fails, and Playwright keeps that failure for the context's life.
        const started = inputQueue.then(() =>
          checkpoints.inTurn(async () => {
            const session = await sessions.running();
            if (session?.browser) await personRecorder.start(session.browser.context);
          }),
        );
        inputQueue = started.catch(() => undefined);
        await started;
        return { code: [] };
      }
      // The person's last input first, then the recorder's word on it (its events trail the input by a moment).
      await inputQueue;
      await new Promise(resolve => setTimeout(resolve, 250));
      const { code, origins } = await personRecorder.stop();
      const url = (await currentPage())?.url();
      // What the person typed may be a secret's value: masked like every other text (a placeholder the page wrote made inert).
      return mask.deep({ code, ...(url ? { url } : {}), origins: origins.slice(0, 200) });
    },
    checkpoint: async () => {
      // After the person's input that is still queued (it waits for their recorder to start): it is what this checkpoint is of.
      await inputQueue;
      const facts = await checkpoints.now();
      if (!facts) throw new Error('No checkpoint: no browser runs, or time travel is off.');
      return mask.deep(facts);
    },
    restoreCheckpoint: async params => mask.deep(await checkpoints.restore(params)),
    memory: async params => measureMemory(params.heapSnapshotPath),
    cdpEndpoint: async params => cdpShare.prepare(await sessions.running(), params.challenge),
    cdpChallengeDone: async () => cdpShare.challengeDone(await sessions.running()),
    pageAction: async (params): Promise<PageActionResult> => mask.deep(await checkpoints.inTurn(() => pageAction(params.pageAction))),
    // Add to Chat puts what the picker reports onto the chat input: masked like every other text.
    pick: async params => mask.deep(await pick(params)),
    deviceList: async () => ({ devices: deviceList() }),
    networkConditions: async params => {
      const observer = (await sessions.running())?.observer;
      if (!observer) throw new Error('No browser runs: start one, then set its network.');
      // The panel sets the network; what the agent emulates besides (CPU, media) stays.
      return observer.network.set({
        ...observer.network.conditions,
        throttling: params.throttling,
        custom: params.custom,
        cacheDisabled: params.cacheDisabled,
      });
    },
    har: async params => {
      const observer = (await sessions.running())?.observer;
      if (!observer) throw new Error('No browser runs: there are no requests to save.');
      // Only what the panel lists now: a request the person cleared, or of a page the list started again after, stays out.
      const wanted = new Set(params.ids);
      const listed = observer.listedRequests().filter(({ entry }) => wanted.has(entry.id));
      const holdsSecret = (bytes: Buffer) => [bytes.toString('latin1'), bytes.toString('utf8')].some(text => mask.text(text) !== text);
      // Masked as every other output, inside the build (what is measured against the file's budget is what is
      // written): a secret's value in a URL, a header or a body leaves as its placeholder.
      const built = await buildHar(listed, params.version, value => mask.deep(value), holdsSecret);
      const har = JSON.stringify(built.har);
      if (params.file && built.entries) await writeFile(params.file, har, { encoding: 'utf8', mode: 0o600 });
      // The notice's one figure counts every part left out: a body, or a request written as its stub.
      return { har: params.file ? '' : har, entries: built.entries, omittedBodies: built.omittedBodies + built.cutEntries };
    },
    requestDetail: async params => {
      const observer = (await sessions.running())?.observer;
      const listed = observer?.listedRequest(params.id);
      if (!listed) throw new Error('That request is no longer kept: the browser restarted, or it scrolled out of the list.');
      if (params.ahead && !(await observer!.readAheadAllowed(params.id)))
        throw new Error('Not read ahead: it is still loading, failed, or its body is not bounded.');
      return maskAndCut(await describeRequest(listed, params), text => mask.text(text), params.bodyChars);
    },
  };

  /** The panel's picker: the element under the point, or a dragged region's picture. */
  async function pick(params: PickParams): Promise<PickResult> {
    const session = await sessions.running();
    const page = session?.observer?.currentPage;
    if (!session || !page) return {};
    if (params.phase === 'region') return { region: await pickRegion(page, params, config.viewport) };
    const element = await pickElement(page, params, config.viewport);
    if (!element || params.phase !== 'choose') return { element };
    // The ref the agent's element tools take, from upstream's own snapshot of the page.
    const snapshot = (await session.client.callTool({ name: SNAPSHOT, arguments: {} }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
    const ref = refFromSnapshot(resultText(snapshot), element);
    return { element: ref ? { ...element, ref } : element };
  }

  /**
   * The panel's navigation bar and tab strip. Through upstream's own tools where it has them, so its
   * idea of the current tab and page stays right; forward, reload and stop on the page itself.
   */
  async function pageAction(action: PageAction): Promise<PageActionResult> {
    const session = await sessions.watchedSession();
    const inner = async (name: string, args: Record<string, unknown>, done: string): Promise<PageActionResult> => {
      const result = (await session.client.callTool({ name, arguments: args }, undefined, { timeout: NO_TIMEOUT_MS })) as CallToolResult;
      if (!result.isError) session.observer?.noteToolCall(name, args, resultText(result));
      if (!result.isError) return { ok: true, message: done };
      const error = withoutErrorHeading(resultText(result)).split('\n')[0];
      // A failed load in words ("Could not open …: the server refused the connection"), not the tool's internals.
      const failedLoad = name === NAVIGATE && typeof args.url === 'string' ? failedLoadMessage(args.url, error) : undefined;
      return { ok: false, message: failedLoad ?? error.replace(/^Error:\s*/, '') };
    };
    const page = session.observer?.currentPage;
    try {
      switch (action.action) {
        case 'navigate':
          return await inner(NAVIGATE, { url: action.url }, `Opened ${action.url}`);
        case 'back':
          return await inner(NAVIGATE_BACK, {}, 'Went back');
        case 'newTab':
          return await inner(TABS, { action: 'new' }, 'Opened a new tab');
        case 'resize': {
          const size = { width: action.width, height: action.height };
          const resize = async (): Promise<PageActionResult> => {
            const resized = await inner(RESIZE, size, `Resized the page to ${size.width}×${size.height}`);
            if (!resized.ok || !page) return resized;
            // In the browser's turn (pageAction below), so the next call, the person's input and the next checkpoint all
            // wait until the page is at its new size and has drawn itself at it: the model's next snapshot has the new layout.
            return await untilDrawnAtSize(page, size).then(
              () => resized,
              (error: Error) => ({ ok: false, message: `Resized the page to ${size.width}×${size.height}, but ${error.message.split('\n')[0]}` }),
            );
          };
          // With no live-view still taken across it: one that began at the old size would put that size back.
          return await (session.observer ? session.observer.changingSize(resize) : resize());
        }
        case 'selectTab':
        case 'closeTab': {
          const index = session.observer?.tabIndex(action.tabId) ?? -1;
          if (index < 0) return { ok: false, message: 'That tab is gone.' };
          const select = action.action === 'selectTab';
          const done = select ? `Switched to tab ${index + 1}` : `Closed tab ${index + 1}`;
          return { ...(await inner(TABS, { action: select ? 'select' : 'close', index }, done)), tabIndex: index };
        }
      }
      if (!page) return { ok: false, message: 'No page is open.' };
      if (action.action === 'forward') await page.goForward({ timeout: config.mcp.timeouts.navigation });
      else if (action.action === 'reload') await page.reload({ timeout: config.mcp.timeouts.navigation });
      else await page.evaluate(() => (globalThis as unknown as PageGlobals).stop());
      return { ok: true, message: action.action === 'forward' ? 'Went forward' : action.action === 'reload' ? 'Reloaded the page' : 'Stopped loading' };
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      const url = page?.url();
      return {
        ok: false,
        message: (action.action === 'reload' || action.action === 'forward') && url ? (failedLoadMessage(url, message) ?? message) : message,
      };
    }
  }
}
