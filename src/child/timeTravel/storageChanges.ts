import type { BrowserContext, CDPSession, Page } from 'playwright';
import type { CheckpointStorage, CheckpointStorageTooLarge } from '../../protocol/childMessages';
import type { PageGlobals } from '../pageGlobals';
import { cancelRead, readTabStorage, type OriginStorage, type TabRead } from './storageReader';

/** DevTools events that say a page wrote its storage: local and session storage of its frames, IndexedDB of its origins. */
const STORAGE_EVENTS = [
  'DOMStorage.domStorageItemAdded',
  'DOMStorage.domStorageItemRemoved',
  'DOMStorage.domStorageItemUpdated',
  'DOMStorage.domStorageItemsCleared',
  'Storage.indexedDBContentUpdated',
  'Storage.indexedDBListUpdated',
] as const;

/** A checkpoint's storage beyond this many characters is not kept (16 M characters: 32 MB in the host). */
export const MAX_STORAGE_CHARS = 16 * 1024 * 1024;

/**
 * After its deadline a tab's read answers on its own (what it read, up to the limit, still has to come over);
 * the child stops waiting this much later, and tells it to stop in case its own timer could not run.
 */
const STOP_GRACE_MS = 750;

/**
 * A step whose storage is not kept: the host shows it as a step that cannot be restored (`tooLarge`, the
 * characters its storage has or was judged to have; 0 when no size is known), and `reason` says why.
 */
export type StorageNotKept = Required<CheckpointStorageTooLarge>;

/**
 * What the last read of an origin found: its storage (absent: none), its size, and the bytes the browser
 * counted for it then. `stale`: a step since may have changed it and was not read (the size still serves).
 */
interface KnownOrigin {
  storage?: OriginStorage;
  chars: number;
  usage: number;
  stale?: boolean;
}

/**
 * The context's storage for checkpoints, captured only after a step that changed it: a whole capture
 * (Playwright's storage state with IndexedDB) took 17-20 ms here against an 80-100 ms click, far over the
 * 5 % a step may cost. On Chromium, DevTools events say when a page wrote local, session or IndexedDB
 * storage (no script in the page, nothing it can see); cookies are compared (about 1.4 ms). Other engines
 * have no such events: every step that may have changed the page captures.
 *
 * A page may make its storage costly to read (tens of MB written on every click) or stall the read (a
 * database held open for an upgrade): the read must neither pile up nor stall the steps after it.
 * - One read at a time: while one is still running (its work, not only the wait for it), a step that changed
 *   the storage is not read and is marked as not restorable. Not "keeps the state before": that state is not
 *   what the step left (it changed the storage), and restoring it would bring back something else.
 * - The size first: on Chromium, before reading, DevTools' count of each origin's IndexedDB bytes
 *   (`Storage.getUsageAndQuota`, kept by the browser: a page can grow it only by storing), scaled by what the
 *   last read of that origin found per byte (a page that stores a lot the browser packs small is judged by
 *   what it held when read). Over `MAX_STORAGE_CHARS`: not read, not restorable.
 * - A deadline that ends the work: the tabs' origins are read by the checkpoint's own reader
 *   (storageReader.ts, in an isolated world), which stops itself at the limit and at the deadline, so nothing
 *   larger than a checkpoint keeps ever reaches the child and nothing keeps reading after it.
 *   Playwright's `storageState` (no timeout, no way to stop it) is used only where that reader cannot reach:
 *   an origin only a frame shows, one seen but never read, an engine other than Chromium. It still counts
 *   as the one read, until it ends.
 */
export class StorageChanges {
  /** Set by a storage event (and at first: nothing was captured yet). */
  private written = true;
  private cookies = '';
  /** A tab whose storage could not be watched: every capture is whole from then on. */
  private unwatched = false;
  private readonly sessions = new Map<Page, Promise<CDPSession | undefined>>();
  private readonly onPage = (page: Page) => void this.watch(page);
  /** Every web origin a frame of the context was on (Playwright's storage state covers them all). */
  private readonly seen = new Set<string>();
  /** Each origin's last read since the start or the last restore: origins no tab shows keep theirs. */
  private readonly known = new Map<string, KnownOrigin>();
  /** The read under way, until its work ends (not only the wait for it). */
  private reading: Promise<unknown> | undefined;
  private reads = 0;
  /** Bumped by a restore: a read from before it says nothing of the storage after it. */
  private epoch = 0;

  constructor(
    private readonly context: BrowserContext,
    private readonly chromium: boolean,
    private readonly log: (line: string) => void,
  ) {
    if (!chromium) return;
    context.on('page', this.onPage);
    for (const page of context.pages()) void this.watch(page);
  }

  /** Reads started and not yet ended (0 or 1). */
  get inFlight(): number {
    return this.reading ? 1 : 0;
  }

  /**
   * The storage as JSON when it changed since the last capture (undefined: as it was), or a `StorageNotKept`
   * when it cannot be kept. Never takes much longer than `deadlineMs` (plus a round trip for the cookies).
   */
  async captureIfChanged(page: Page | undefined, deadlineMs: number): Promise<string | undefined> {
    // A round trip to the browser first: storage events the step caused arrive before its answer.
    const cookies = await this.context.cookies();
    const cookiesJson = JSON.stringify(cookies);
    if (this.chromium && !this.unwatched && !this.written && cookiesJson === this.cookies) return undefined;
    if (this.reading) {
      // Still written: the first step after that read ends reads it whole.
      this.unread();
      return this.notKept(0, `the storage read of an earlier step is still running (reads in flight: ${this.inFlight}); no second one is started`);
    }
    this.written = false;
    this.cookies = cookiesJson;
    const epoch = this.epoch;
    const outcome = await this.capture(page, cookies, deadlineMs, epoch).catch((error: Error) => ({
      tooLarge: 0,
      reason: `the storage could not be read (${error.message.split('\n')[0]})`,
    }));
    if (typeof outcome !== 'string') {
      this.unread();
      return this.notKept(outcome.tooLarge, outcome.reason);
    }
    return outcome;
  }

  /**
   * A step that changed the storage went unread: the next capture reads it, and the last reads of the
   * origins the tabs show no longer stand for them (once no tab shows one, only a whole read may say what it holds).
   */
  private unread(): void {
    this.forgetChanges();
    for (const tab of this.context.pages()) {
      const known = this.known.get(originOf(tab.url()) ?? '');
      if (known) known.stale = true;
    }
  }

  /** After a restore the next capture is whole, and no origin's last read stands. */
  forget(): void {
    this.forgetChanges();
    this.known.clear();
    this.epoch++;
  }

  /** The next capture reads the storage (whatever the events say). */
  forgetChanges(): void {
    this.written = true;
    this.cookies = '';
  }

  /** A step's storage that is not kept, as the host takes it (the step cannot be restored), said in the log. */
  notKept(tooLarge: number, reason: string): string {
    this.log(`Checkpoint: ${reason}; this step cannot be restored.`);
    const kept: StorageNotKept = { tooLarge, reason };
    return JSON.stringify(kept);
  }

  private async capture(page: Page | undefined, cookies: unknown[], deadlineMs: number, epoch: number): Promise<string | StorageNotKept> {
    const pages = this.context.pages().filter(tab => !tab.isClosed());
    // Each origin a tab is on, read in one tab of it: the current one for its own (its sessionStorage is that tab's).
    const tabs = new Map<string, Page>();
    for (const tab of page && !page.isClosed() ? [page, ...pages] : pages) {
      const origin = originOf(tab.url());
      if (origin && !tabs.has(origin)) tabs.set(origin, tab);
    }
    const cdp = this.chromium ? await this.anySession(page, pages) : undefined;
    const sessions = new Map<Page, CDPSession | undefined>();
    for (const tab of tabs.values()) sessions.set(tab, this.chromium ? await this.sessions.get(tab) : undefined);
    const framed = pages.flatMap(tab => tab.frames().map(frame => originOf(frame.url()))).filter((origin): origin is string => !!origin);
    const own =
      !!cdp &&
      [...sessions.values()].every(Boolean) &&
      framed.every(origin => tabs.has(origin)) &&
      [...this.seen].every(origin => tabs.has(origin) || (this.known.has(origin) && !this.known.get(origin)!.stale));
    const toRead = own ? [...tabs.keys()] : [...new Set([...tabs.keys(), ...this.seen])];

    // The size before the read: DevTools' count, scaled by what the origin held per byte when last read.
    const usage = new Map<string, number>();
    if (cdp) {
      await Promise.all(
        toRead.map(async origin => {
          const answer = await cdp.send('Storage.getUsageAndQuota', { origin }).catch(() => undefined);
          usage.set(origin, answer?.usageBreakdown.filter(part => part.storageType === 'indexeddb').reduce((sum, part) => sum + part.usage, 0) ?? 0);
        }),
      );
      const carried = own ? [...this.known].filter(([origin]) => !tabs.has(origin)).reduce((sum, [, known]) => sum + known.chars, 0) : 0;
      const estimate = toRead.reduce((sum, origin) => sum + this.estimate(origin, usage.get(origin) ?? 0), carried);
      if (estimate > MAX_STORAGE_CHARS) {
        for (const origin of toRead) {
          const known = this.known.get(origin);
          if (known) known.stale = true;
        }
        return {
          tooLarge: estimate,
          reason: `not read: judged at ${mChars(estimate)} M characters from DevTools' count of its IndexedDB, more than the ${mChars(MAX_STORAGE_CHARS)} M a checkpoint keeps`,
        };
      }
    }

    const id = ++this.reads;
    const work: Promise<TabRead[] | CheckpointStorage> = own
      ? Promise.all(
          [...tabs].map(([origin, tab]) => readTabStorage(sessions.get(tab)!, { id, origin, limit: MAX_STORAGE_CHARS, deadlineMs, session: tab === page })),
        )
      : captureStorage(this.context, page, page && this.chromium ? await this.sessions.get(page) : undefined);
    const done = work.then(
      () => undefined,
      () => undefined,
    );
    this.reading = done;
    void done.then(() => {
      if (this.reading === done) this.reading = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>(resolve => {
      timer = setTimeout(() => resolve('late'), deadlineMs + STOP_GRACE_MS);
    });
    const answer = await Promise.race([work, late]).finally(() => clearTimeout(timer));
    if (answer === 'late') {
      // Our reader stops on its own at its deadline; told again in case its own timer could not run. Playwright's cannot be told.
      if (own) for (const tab of tabs.values()) void cancelRead(sessions.get(tab)!, id).catch(() => undefined);
      return {
        tooLarge: 0,
        reason: `the storage read did not end within ${deadlineMs / 1000} s (${own ? 'it was stopped' : "Playwright's read, which cannot be stopped, counts as the one read until it ends"})`,
      };
    }
    if (epoch !== this.epoch) return { tooLarge: 0, reason: 'the browser was restored while its storage was read' };
    return Array.isArray(answer) ? this.fromTabs(answer, [...tabs.keys()], cookies, usage, page) : this.fromPlaywright(answer, toRead, usage);
  }

  /** The storage from the checkpoint's own reads of the tabs' origins, with the last reads of the origins no tab shows. */
  private fromTabs(answers: TabRead[], origins: string[], cookies: unknown[], usage: Map<string, number>, page: Page | undefined): string | StorageNotKept {
    let session: CheckpointStorage['session'];
    for (const [i, answer] of answers.entries()) {
      const origin = origins[i];
      if (answer.kind === 'ended') return { tooLarge: 0, reason: `the storage read of ${origin} was stopped: ${answer.why}` };
      if (answer.kind === 'over') {
        this.known.set(origin, { chars: answer.chars, usage: usage.get(origin) ?? 0, stale: true });
        return {
          tooLarge: answer.chars,
          reason: `the read of ${origin} stopped past ${mChars(MAX_STORAGE_CHARS)} M characters, more than a checkpoint keeps (its later steps are judged by that size)`,
        };
      }
      const hasStorage = answer.origin.localStorage.length > 0 || answer.origin.indexedDB.length > 0;
      this.known.set(origin, { ...(hasStorage ? { storage: answer.origin } : {}), chars: answer.chars, usage: usage.get(origin) ?? 0 });
      if (answer.session?.length && page && originOf(page.url()) === origin) session = { origin, items: answer.session };
    }
    const state = { cookies, origins: [...this.known.values()].flatMap(known => (known.storage ? [known.storage] : [])) };
    return this.keptOrNot({ state, ...(session ? { session } : {}) });
  }

  /** Playwright's whole read: every origin it covered is known from it. */
  private fromPlaywright(storage: CheckpointStorage, read: string[], usage: Map<string, number>): string | StorageNotKept {
    const origins = new Map((storage.state.origins as OriginStorage[]).map(origin => [origin.origin, origin]));
    for (const origin of new Set([...read, ...origins.keys()])) {
      const found = origins.get(origin);
      this.known.set(origin, { ...(found ? { storage: found } : {}), chars: found ? JSON.stringify(found).length : 0, usage: usage.get(origin) ?? 0 });
    }
    return this.keptOrNot(storage);
  }

  private keptOrNot(storage: CheckpointStorage): string | StorageNotKept {
    const json = JSON.stringify(storage);
    // A page that stores more than a checkpoint may keep is not kept at all (the step says it cannot be restored).
    return json.length > MAX_STORAGE_CHARS
      ? {
          tooLarge: json.length,
          reason: `its storage has ${mChars(json.length)} M characters, more than the ${mChars(MAX_STORAGE_CHARS)} M a checkpoint keeps`,
        }
      : json;
  }

  /** An origin's characters judged from the browser's bytes for it: as many, or as many per byte as when it was last read. */
  private estimate(origin: string, usage: number): number {
    const known = this.known.get(origin);
    if (!known) return usage;
    return Math.max(usage, known.usage > 0 ? Math.round((known.chars * usage) / known.usage) : known.chars);
  }

  private async anySession(page: Page | undefined, pages: Page[]): Promise<CDPSession | undefined> {
    for (const tab of page ? [page, ...pages] : pages) {
      const cdp = await this.sessions.get(tab);
      if (cdp) return cdp;
    }
    return undefined;
  }

  private async watch(page: Page): Promise<void> {
    if (this.sessions.has(page)) return;
    const session = this.context
      .newCDPSession(page)
      .then(async cdp => {
        for (const event of STORAGE_EVENTS)
          cdp.on(event, () => {
            this.written = true;
          });
        await cdp.send('DOMStorage.enable');
        return cdp;
      })
      .catch(error => {
        // A page closing as it opens: it writes nothing more. Any other failure: capture every step.
        if (!page.isClosed()) {
          this.log(
            `Checkpoints: storage changes of a tab cannot be watched (${(error as Error).message.split('\n')[0]}); its storage is captured after every step.`,
          );
          this.unwatched = true;
        }
        return undefined;
      });
    this.sessions.set(page, session);
    const tracked = new Set<string>();
    const track = (url: string) => {
      const origin = originOf(url);
      if (!origin) return;
      this.seen.add(origin);
      if (tracked.has(origin)) return;
      tracked.add(origin);
      void session.then(cdp => cdp?.send('Storage.trackIndexedDBForOrigin', { origin })).catch(() => undefined);
    };
    track(page.url());
    page.on('framenavigated', frame => track(frame.url()));
    page.once('close', () => this.sessions.delete(page));
  }
}

const mChars = (chars: number) => (chars / 1048576).toFixed(1);

/**
 * Playwright's storage state with IndexedDB (read in Playwright's own isolated world), and the tab's
 * sessionStorage, which Playwright's leaves out: on Chromium through DevTools (nothing runs in the page, so
 * the page can neither stall nor fake the read, and the origin is the one asked for); elsewhere with one
 * evaluation that reads the origin and the items together.
 */
export async function captureStorage(context: BrowserContext, page: Page | undefined, cdp?: CDPSession): Promise<CheckpointStorage> {
  const [state, session] = await Promise.all([context.storageState({ indexedDB: true }), page ? sessionStorageOf(page, cdp) : Promise.resolve(undefined)]);
  return { state: state as CheckpointStorage['state'], ...(session?.items.length ? { session } : {}) };
}

async function sessionStorageOf(page: Page, cdp: CDPSession | undefined): Promise<CheckpointStorage['session']> {
  const origin = originOf(page.url());
  if (!origin) return undefined;
  let items: unknown[] = [];
  if (cdp) {
    const answer = await cdp
      .send('DOMStorage.getDOMStorageItems', { storageId: { securityOrigin: origin, isLocalStorage: false } })
      .catch(() => ({ entries: [] }));
    items = answer.entries;
  } else {
    // A page may refuse (an opaque origin, a sandboxed frame): then it has none to keep.
    const read = await page
      .evaluate(() => {
        const { sessionStorage, location } = globalThis as unknown as PageGlobals;
        return { origin: location.origin, items: Object.entries(sessionStorage) };
      })
      .catch(() => undefined);
    if (read?.origin === origin) items = read.items;
  }
  return { origin, items: items.filter((item): item is [string, string] => Array.isArray(item) && typeof item[0] === 'string' && typeof item[1] === 'string') };
}

/** scheme://host:port of a web address; undefined for about:, data: and the like. */
export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
