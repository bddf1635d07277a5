/**
 * The snapshot refs (`e12`) of elements a DevTools finding names, so the agent can act on them with the
 * ordinary tools (browser_click, browser_hover …). Playwright keeps an element's ref on the element as
 * long as its role and name stay, so the ref of an element's own snapshot is the one the agent's page
 * snapshot shows. An element snapshot replaces the page's list that refs are looked up in: the page's whole
 * snapshot is taken again at the end, so every ref the agent already holds still works.
 */
import type { Page } from 'playwright';

const FIRST_REF = /\[ref=([a-z0-9]+)\]/;
/** The refs looked up per finding: one small snapshot each. */
export const MAX_REFS = 40;

export class SnapshotRefs {
  private looked = 0;
  private touched = false;

  constructor(private readonly page: Page) {}

  /** The ref of the element the selector finds, or undefined (not in the accessibility tree, or over the bound). */
  async of(selector: string): Promise<string | undefined> {
    if (this.looked >= MAX_REFS) return undefined;
    this.looked++;
    this.touched = true;
    const snapshot = await this.page.locator(selector).first().ariaSnapshot({ mode: 'ai', depth: 1, timeout: 2000 }).catch(() => '');
    return FIRST_REF.exec(snapshot)?.[1];
  }

  /** Puts the page's own list of refs back (see above). */
  async done(): Promise<void> {
    if (this.touched) await this.page.ariaSnapshot({ mode: 'ai', timeout: 5000 }).catch(() => undefined);
  }
}
