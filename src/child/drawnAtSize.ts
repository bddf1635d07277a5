/**
 * The person's resize is done when the page is at the new size: its innerWidth and innerHeight are the chosen
 * size and it has drawn a frame at it (so its resize handlers ran). Waited for as a condition, not for a while:
 * Playwright's resize returns once the browser took the new size, and the page takes it in a later frame, which
 * on a loaded machine, or on a page that holds its frames (a view transition waiting for its data), comes
 * seconds on. A wait that ended by a deadline let the model's next snapshot read the old layout.
 */
import type { Page } from 'playwright';
import { withDeadline } from '../core/supervision/deadline';
import type { PageGlobals } from './pageGlobals';

/** A page that has not drawn itself at its new size in this long is stuck, not slow: the resize says so in words. */
export const DRAWN_AT_SIZE_BOUND_MS = 30000;

type Size = { width: number; height: number };

/**
 * Resolves once the page has drawn a frame at `size`, or is gone; rejects in words once `boundMs` pass (a page
 * whose script never lets go, a dialog left open). A navigation meanwhile: its new document is waited for.
 */
export async function untilDrawnAtSize(page: Page, size: Size, boundMs = DRAWN_AT_SIZE_BOUND_MS): Promise<void> {
  const words = `the page has not drawn itself at ${size.width}×${size.height} within ${boundMs / 1000} s`;
  const until = Date.now() + boundMs;
  while (!page.isClosed()) {
    try {
      const outcome = await withDeadline(page.evaluate(drawnAtSize, { ...size, boundMs: until - Date.now() }), Math.max(0, until - Date.now()), words);
      if (outcome === 'timeout') throw new Error(words);
      return;
    } catch (error) {
      if (page.isClosed()) return;
      // Its document went (a navigation): the next one is laid out at the new size from its start, and drawn again.
      if (/Execution context was destroyed|navigat/i.test((error as Error).message) && Date.now() < until) continue;
      throw error;
    }
  }
}

/**
 * In the page: waits frame by frame until innerWidth and innerHeight are the size, then for the frame after: the
 * one at the size has been drawn, and a resize event its layout queued has been dispatched. (A mobile device's page
 * zoomed out to a layout wider than its screen reports that layout as innerWidth: there what it shows, its visual
 * viewport at its scale, is the size.) Gives up by its own clock, so an abandoned wait does not run a callback
 * every frame for the rest of the page's life.
 */
function drawnAtSize({ width, height, boundMs }: Size & { boundMs: number }): Promise<'drawn' | 'timeout'> {
  const page = globalThis as unknown as PageGlobals;
  const giveUpAt = Date.now() + boundMs;
  const { visualViewport: shown } = page;
  const atSize = () =>
    (page.innerWidth === width && page.innerHeight === height) ||
    (shown.scale !== 1 && Math.round(shown.width * shown.scale) === width && Math.round(shown.height * shown.scale) === height);
  return new Promise(resolve => {
    const nextFrame = () =>
      page.requestAnimationFrame(() => {
        if (atSize()) page.requestAnimationFrame(() => setTimeout(() => resolve('drawn'), 0));
        else if (Date.now() > giveUpAt) resolve('timeout');
        else nextFrame();
      });
    nextFrame();
  });
}
