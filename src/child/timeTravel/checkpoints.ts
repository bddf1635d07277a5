/**
 * Time travel's child side: a checkpoint after each step of the window's browser, and a restore to one. What
 * comes next in that browser (a call, the person's input, a restore) waits for the checkpoint being taken,
 * never longer than CHECKPOINT_DEADLINE_MS.
 */
import type { ChildConfig } from '../../core/childProcess/childConfig';
import { withDeadline } from '../../core/supervision/deadline';
import {
  capText,
  ENTRY_LIMITS,
  type CheckpointFacts,
  type ObservationEvent,
  type RestoreCheckpointParams,
  type RestoreCheckpointResult,
} from '../../protocol/childMessages';
import { bridgeTabsCall, type InnerSession } from '../callPath/innerSession';
import { restoreCheckpoint } from './restoreCheckpoint';
import { StorageChanges } from './storageChanges';
import type { BrowserContext, Page } from 'playwright';

/**
 * The longest the next step waits for a checkpoint (a page that keeps its state from being read, a browser that
 * does not answer): then the checkpoint goes without its storage, and the step says it cannot be restored.
 */
const CHECKPOINT_DEADLINE_MS = 2500;
/** A checkpoint's storage read ends its own work after this long (storageReader.ts); its answer may take a moment more to come over. */
const CHECKPOINT_READ_MS = 1000;

export class Checkpoints {
  /** The last checkpoint's number, and the one being taken (what comes next waits for it). */
  private seq = 0;
  private taking: Promise<void> = Promise.resolve();
  /** Each named context's storage (browser_tabs isolatedContext), watched from its first checkpoint on: that capture is whole. */
  private readonly namedStorage = new WeakMap<BrowserContext, StorageChanges>();
  /**
   * The context the last checkpoint was of. The host keeps a step that says nothing of its storage "as the step
   * before", so a step in another context than that one reads its own whole.
   */
  private lastContext: BrowserContext | undefined;

  constructor(
    private readonly config: ChildConfig,
    private readonly windowSession: () => Promise<InnerSession | undefined>,
    private readonly send: (event: ObservationEvent) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Resolves once the checkpoint being taken (or the restore, or the person's page action) is done. */
  settled(): Promise<void> {
    return this.taking;
  }

  /**
   * The person's page action (the panel's navigation bar, size picker, tabs) in the same turn: after the checkpoint
   * being taken, and before the agent's next call, which must see the page as the person left it (a resized page lays
   * itself out in its next frame, and the action waits for that frame).
   */
  inTurn<T>(work: () => Promise<T>): Promise<T> {
    const running = this.taking.then(work);
    this.taking = running.then(
      () => undefined,
      () => undefined,
    );
    return running;
  }

  /**
   * The step's checkpoint is taken as its result goes back (the first read is on its way before anything else
   * can run) and sent as an observation once ready. It costs the step nothing, only an agent that calls again
   * within those milliseconds. A read the page stalls is ended, and its step marked as not restorable.
   */
  after(session: InnerSession): { seq: number } {
    const seq = ++this.seq;
    const taken = this.facts(session).then(
      facts => {
        if (facts) this.send({ kind: 'checkpoint', seq, facts });
      },
      () => undefined,
    );
    // Beside what is still in its turn, not in its place: a call that ends while the person's resize waits for the
    // page to draw itself must not let the next call past that resize.
    this.taking = Promise.all([this.taking, taken]).then(() => undefined);
    return { seq };
  }

  /** The checkpoint of the window's browser as it is now (the person's step), after what is being taken. */
  async now(): Promise<CheckpointFacts | undefined> {
    await this.taking;
    const session = await this.windowSession();
    return session && this.facts(session);
  }

  /** The window's context put back to a checkpoint; the live view follows the fresh tab. */
  restore(params: RestoreCheckpointParams): Promise<RestoreCheckpointResult> {
    if (this.config.connection?.protocol === 'cdp') {
      throw new Error(
        'The browser is your own (reached over CDP): the bridge does not replace its cookies and storage. Use a browser the bridge launches to go back to a step.',
      );
    }
    // One at a time, and whatever comes next (a call, the person's input, a checkpoint) waits for it.
    const restoring = this.taking.then(() => this.restoreNow(params));
    this.taking = restoring.then(
      () => undefined,
      () => undefined,
    );
    return restoring;
  }

  private async restoreNow(params: RestoreCheckpointParams): Promise<RestoreCheckpointResult> {
    const session = await this.windowSession();
    if (!session?.browser || !session.storageChanges) throw new Error('No browser runs (or time travel is off): there is nothing to put back.');
    const context = await this.contextToRestore(session, params.context);
    // The stream stays stopped throughout, as for a capture: the person sees the step's page once it is there,
    // and the tab work does not compete with the encoder for the same cores.
    let page: Page;
    try {
      page = await session.observer!.duringCall(() => restoreCheckpoint(context, params, this.config.mcp.timeouts.navigation, this.log), Infinity);
    } finally {
      // Restored or partly (the storage may be replaced while the page did not load): the next capture reads it whole.
      this.storageOf(session, context).forget();
      this.lastContext = context;
    }
    // Upstream makes a remaining tab current as the old ones close, which may be a named context's (they stay):
    // it is told the fresh tab is the one, so the agent, the panel and the bridge's tools are on the same tab.
    const selected = await bridgeTabsCall(session, { action: 'select', index: session.contexts?.pages().indexOf(page) ?? -1 });
    if (selected.failed) throw new Error(`The browser was restored, but its tab could not be made the agent's (${selected.failed}).`);
    session.observer?.follow(page);
    return { url: page.url(), title: await page.title().catch(() => '') };
  }

  /**
   * The context a checkpoint was of: the session's own, or a named one, opened again through upstream if it closed
   * since (upstream must know the context it works in; the restore then puts it back as the step left it).
   */
  private async contextToRestore(session: InnerSession, name: string | undefined): Promise<BrowserContext> {
    if (name === undefined) return session.browser!.context;
    const open = session.contexts?.named(name);
    if (open) return open;
    const opened = await bridgeTabsCall(session, { action: 'new', isolatedContext: name });
    const again = session.contexts?.named(name);
    if (!again) throw new Error(`the isolated context "${name}" could not be opened again (${opened.failed ?? opened.text.split('\n')[0]})`);
    return again;
  }

  /** A context's storage watch: the session's own (made with the session), or a named one's, made at its first use. */
  private storageOf(session: InnerSession, context: BrowserContext): StorageChanges {
    if (context === session.browser?.context && session.storageChanges) return session.storageChanges;
    let changes = this.namedStorage.get(context);
    if (!changes) {
      changes = new StorageChanges(context, this.config.launch.engine === 'chromium', this.log);
      this.namedStorage.set(context, changes);
    }
    return changes;
  }

  /**
   * Where the current tab is after a step (in which of the session's contexts), and that context's storage when it
   * changed: the child's part of a checkpoint (the host adds the picture, the snapshot, the console and the
   * requests). Never fails a step.
   */
  private async facts(session: InnerSession): Promise<CheckpointFacts | undefined> {
    const main = session.browser?.context;
    if (!session.storageChanges || !main || session.health.ended) return undefined;
    const page = session.observer?.currentPage;
    const context = page?.context() ?? main;
    const changes = this.storageOf(session, context);
    if (this.lastContext !== context) changes.forgetChanges();
    this.lastContext = context;
    const name = page && session.contexts?.contextName(page);
    // A context code opened is no tab of upstream's and none the bridge can open again: its step is not restorable.
    const unlisted = !!page && context !== main && name === undefined;
    if (unlisted) changes.forgetChanges();
    const read = Promise.all([
      page ? page.title().catch(() => '') : '',
      // One read at a time, its size judged before it is made, its work ended at its deadline (storageChanges.ts).
      unlisted
        ? changes.notKept(0, "its tab is in a context the agent's code opened, which is none of the tabs upstream lists")
        : changes.captureIfChanged(page, CHECKPOINT_READ_MS).catch(error => {
            this.log(`Checkpoint: the storage could not be read (${(error as Error).message.split('\n')[0]}); the next one reads it whole.`);
            changes.forgetChanges();
            return undefined;
          }),
    ]);
    // Everything after this step waits for its checkpoint: a page that stalls the reads must not stall the browser.
    // Past the bound the step is not restorable (not "as the step before": it may have changed the storage).
    const got = await withDeadline(read, CHECKPOINT_DEADLINE_MS, `the page did not let its state be read within ${CHECKPOINT_DEADLINE_MS / 1000} s`).catch(
      (error: Error) => {
        changes.forgetChanges();
        return ['', changes.notKept(0, error.message)] as const;
      },
    );
    const [title, storage] = got;
    const viewport = page?.viewportSize();
    return {
      url: capText(page?.url() ?? '', ENTRY_LIMITS.url),
      title: capText(title, ENTRY_LIMITS.title),
      ...(viewport ? { viewport } : {}),
      tabCount: session.contexts?.pages().length ?? 0,
      // Whole (browser_tabs takes a name of at most MAX_CONTEXT_NAME characters): a cut name would open another context.
      ...(name !== undefined ? { context: name } : {}),
      ...(storage ? { storage } : {}),
    };
  }
}
