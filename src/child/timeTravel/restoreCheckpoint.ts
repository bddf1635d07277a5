import type { BrowserContext, Page } from 'playwright';
import type { CheckpointStorage, RestoreCheckpointParams } from '../../protocol/childMessages';
import { originOf } from './storageChanges';
import { withDeadline } from '../../core/supervision/deadline';
import type { PageGlobals } from '../pageGlobals';

/**
 * Puts the context back to a checkpoint: its storage as it was (Playwright's setStorageState clears the
 * cookies, the cache, service workers and every known origin's local, session and IndexedDB storage first),
 * then one fresh tab, at the checkpoint's size, with the tab's sessionStorage, at its address; the other
 * tabs of the context close (a named context's stay; checkpoints.ts then tells upstream the fresh tab is current).
 * What cannot come back: the page's memory, its history, the server's state.
 */
const STORAGE_DEADLINE_MS = 30_000;

export async function restoreCheckpoint(
  context: BrowserContext,
  target: RestoreCheckpointParams,
  navigationTimeoutMs: number,
  log: (line: string) => void,
): Promise<Page> {
  const started = Date.now();
  const stages: string[] = [];
  const stage = (name: string) => stages.push(`${name} ${Date.now() - started} ms`);
  const saved: CheckpointStorage = target.storage ? (JSON.parse(target.storage) as CheckpointStorage) : { state: { cookies: [], origins: [] } };
  if (!saved.state) throw new Error("that step's storage was too large to keep");
  const before = context.pages();
  // The fresh tab first (upstream always has one to make current), then the old ones go: a page that keeps a
  // database open would hold up its deletion, and the restore with it.
  const page = await context.newPage();
  try {
    await Promise.all(before.map(old => old.close().catch(() => undefined)));
    stage('tabs closed');
    // Playwright waits on the page's databases without a limit: a service worker that holds one open would hold the restore.
    await withDeadline(
      context.setStorageState(saved.state as Parameters<BrowserContext['setStorageState']>[0]),
      STORAGE_DEADLINE_MS,
      `the site's storage could not be replaced within ${STORAGE_DEADLINE_MS / 1000} s (a service worker may hold its database open)`,
    );
    stage('storage');
    if (target.viewport) await page.setViewportSize(target.viewport);
    const origin = originOf(target.url);
    if (origin && saved.session?.origin === origin && saved.session.items.length) {
      await putSessionStorage(page, origin, saved.session.items);
      stage('session storage');
    }
    if (origin || target.url.startsWith('file:')) await page.goto(target.url, { timeout: navigationTimeoutMs });
    stage('page');
    log(`Time travel: restored in ${stages.join(', ')}`);
  } catch (error) {
    // The tabs it was to replace are gone or going: the fresh one stays, where it got to.
    throw new Error(`The browser was only partly restored (${(error as Error).message.split('\n')[0]}); it shows ${page.url()}.`, { cause: error });
  }
  return page;
}

/**
 * sessionStorage belongs to a tab and an origin, and only a document of that origin can write it: an
 * empty one is served in place of the origin's root (nothing reaches the site), written, then left.
 */
async function putSessionStorage(page: Page, origin: string, items: [string, string][]): Promise<void> {
  const root = `${origin}/`;
  const handler = (route: { fulfill(options: { body: string; contentType: string }): Promise<void> }) =>
    route.fulfill({ body: '<html></html>', contentType: 'text/html' });
  await page.route(root, handler);
  try {
    await page.goto(root);
    await page.evaluate(entries => {
      const { sessionStorage } = globalThis as unknown as PageGlobals;
      for (const [name, value] of entries) sessionStorage.setItem(name, value);
    }, items);
  } finally {
    await page.unroute(root, handler);
  }
}
