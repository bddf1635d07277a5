/**
 * The snapshot refs (`e12`) of elements a DevTools finding names, so the agent can act on them with the
 * ordinary tools (browser_click, browser_hover …). Playwright keeps an element's ref on the element as
 * long as its role and name stay, so the ref of an element's own snapshot is the one the agent's page
 * snapshot shows. An element snapshot replaces the page's list that refs are looked up in: the page's whole
 * snapshot is taken again at the end, so every ref the agent already holds still works.
 */
import type { Page } from 'playwright';
import type { DescribedElement } from './isolatedWorld';

const FIRST_REF = /\[ref=([a-z0-9]+)\]/;
/** The refs looked up per finding: one small snapshot each. */
const MAX_REFS = 40;

export class SnapshotRefs {
  private looked = 0;
  private touched = false;

  constructor(private readonly page: Page) {}

  /**
   * The ref of the element described, or undefined: not in the accessibility tree, over the bound, a wrapper of
   * an element with its box, or a ref whose element is not where the finding's element was (the page moved
   * nodes between the measure and the lookup). Checked by the box Playwright's own world reads for the ref.
   */
  async of(element: DescribedElement): Promise<string | undefined> {
    if (this.looked >= MAX_REFS || element.wrapsItsTwin) return undefined;
    this.looked++;
    this.touched = true;
    const snapshot = await this.page.locator(element.selector).first().ariaSnapshot({ mode: 'ai', depth: 1, timeout: 2000 }).catch(() => '');
    const ref = FIRST_REF.exec(snapshot)?.[1];
    if (!ref) return undefined;
    const box = await this.page.locator(`aria-ref=${ref}`).boundingBox({ timeout: 2000 }).catch(() => null);
    const same = box && ['x', 'y', 'width', 'height'].every(key => Math.abs(Math.round(box[key as keyof typeof box]) - element.box[key as keyof typeof element.box]) <= 1);
    return same ? ref : undefined;
  }

  /** Puts the page's own list of refs back (see above). */
  async done(): Promise<void> {
    if (this.touched) await this.page.ariaSnapshot({ mode: 'ai', timeout: 5000 }).catch(() => undefined);
  }
}
