import type { BrowserContext, CDPSession, Page } from 'playwright';
import type { CheckpointStorage } from '../../protocol/childMessages';
import type { PageGlobals } from '../pageGlobals';

/** DevTools events that say a page wrote its storage: local and session storage of its frames, IndexedDB of its origins. */
const STORAGE_EVENTS = [
  'DOMStorage.domStorageItemAdded', 'DOMStorage.domStorageItemRemoved', 'DOMStorage.domStorageItemUpdated', 'DOMStorage.domStorageItemsCleared',
  'Storage.indexedDBContentUpdated', 'Storage.indexedDBListUpdated',
] as const;

/**
 * The context's storage for checkpoints, captured only after a step that changed it: a whole capture
 * (Playwright's storage state with IndexedDB) took 17-20 ms here against an 80-100 ms click, far over the
 * 5 % a step may cost. On Chromium, DevTools events say when a page wrote local, session or IndexedDB
 * storage (no script in the page, nothing it can see); cookies are compared (about 1.4 ms). Other engines
 * have no such events: every step that may have changed the page captures.
 */
export class StorageChanges {
  /** Set by a storage event (and at first: nothing was captured yet). */
  private written = true;
  private cookies = '';
  /** A tab whose storage could not be watched: every capture is whole from then on. */
  private unwatched = false;
  private readonly sessions = new Map<Page, Promise<CDPSession | undefined>>();
  private readonly onPage = (page: Page) => void this.watch(page);

  constructor(private readonly context: BrowserContext, private readonly chromium: boolean, private readonly log: (line: string) => void) {
    if (!chromium) return;
    context.on('page', this.onPage);
    for (const page of context.pages()) void this.watch(page);
  }

  /** The storage as JSON when it changed since the last capture (undefined: as it was). */
  async captureIfChanged(page: Page | undefined): Promise<string | undefined> {
    // A round trip to the browser first: storage events the step caused arrive before its answer.
    const cookies = JSON.stringify(await this.context.cookies());
    if (this.chromium && !this.unwatched && !this.written && cookies === this.cookies) return undefined;
    this.written = false;
    this.cookies = cookies;
    const cdp = page ? await this.sessions.get(page) : undefined;
    const json = JSON.stringify(await captureStorage(this.context, page, cdp));
    // A page that stores more than a checkpoint may keep is not kept at all (the step says it cannot be restored).
    return json.length > MAX_STORAGE_CHARS ? JSON.stringify({ tooLarge: json.length }) : json;
  }

  /** After a restore the next capture is whole. */
  forget(): void {
    this.written = true;
    this.cookies = '';
  }

  private async watch(page: Page): Promise<void> {
    if (this.sessions.has(page)) return;
    const session = this.context.newCDPSession(page).then(async cdp => {
      for (const event of STORAGE_EVENTS) cdp.on(event, () => { this.written = true; });
      await cdp.send('DOMStorage.enable');
      return cdp;
    }).catch(error => {
      // A page closing as it opens: it writes nothing more. Any other failure: capture every step.
      if (!page.isClosed()) {
        this.log(`Checkpoints: storage changes of a tab cannot be watched (${(error as Error).message.split('\n')[0]}); its storage is captured after every step.`);
        this.unwatched = true;
      }
      return undefined;
    });
    this.sessions.set(page, session);
    const tracked = new Set<string>();
    const track = (url: string) => {
      const origin = originOf(url);
      if (!origin || tracked.has(origin)) return;
      tracked.add(origin);
      void session.then(cdp => cdp?.send('Storage.trackIndexedDBForOrigin', { origin })).catch(() => undefined);
    };
    track(page.url());
    page.on('framenavigated', frame => track(frame.url()));
    page.once('close', () => this.sessions.delete(page));
  }

}

/** A checkpoint's storage beyond this many characters is not kept (16 M characters: 32 MB in the host). */
export const MAX_STORAGE_CHARS = 16 * 1024 * 1024;

/**
 * Playwright's storage state with IndexedDB (read in Playwright's own isolated world), and the tab's
 * sessionStorage, which Playwright's leaves out: on Chromium through DevTools (nothing runs in the page, so
 * the page can neither stall nor fake the read, and the origin is the one asked for); elsewhere with one
 * evaluation that reads the origin and the items together.
 */
export async function captureStorage(context: BrowserContext, page: Page | undefined, cdp?: CDPSession): Promise<CheckpointStorage> {
  const [state, session] = await Promise.all([
    context.storageState({ indexedDB: true }),
    page ? sessionStorageOf(page, cdp) : Promise.resolve(undefined),
  ]);
  return { state: state as CheckpointStorage['state'], ...(session?.items.length ? { session } : {}) };
}

async function sessionStorageOf(page: Page, cdp: CDPSession | undefined): Promise<CheckpointStorage['session']> {
  const origin = originOf(page.url());
  if (!origin) return undefined;
  let items: unknown[] = [];
  if (cdp) {
    const answer = await cdp.send('DOMStorage.getDOMStorageItems', { storageId: { securityOrigin: origin, isLocalStorage: false } }).catch(() => ({ entries: [] }));
    items = answer.entries;
  } else {
    // A page may refuse (an opaque origin, a sandboxed frame): then it has none to keep.
    const read = await page.evaluate(() => {
      const { sessionStorage, location } = globalThis as unknown as PageGlobals;
      return { origin: location.origin, items: Object.entries(sessionStorage) };
    }).catch(() => undefined);
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
