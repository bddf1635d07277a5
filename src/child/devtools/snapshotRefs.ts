/**
 * The snapshot refs (`e12`) of elements a DevTools finding names, so the agent can act on them with the ordinary
 * tools (browser_click, browser_hover …). A ref is given only when Playwright's own lookup of it (`aria-ref=e12`,
 * what those tools run) finds the finding's node itself: the same node, not one with its box or its text.
 *
 * Playwright writes each ref on the element it numbers (`_ariaRef`), in its utility world: an isolated world of its
 * own that the page's scripts cannot reach, so cannot write in or lie to. The ref is read off the finding's node
 * there, the node found by the browser's own id for it; then Playwright's lookup of that ref must find one element.
 * Playwright never gives a number twice, so that element is the node. An element that owns a control
 * (`aria-owns`), controls or labels one, wraps one or lies over one with the same box has a ref of its own or
 * none: never the control's. The other way round, the element a ref the agent gives names (an audit's scope) is
 * the one that carries it there.
 *
 * The page's whole snapshot is taken first, as upstream's browser_snapshot takes it: each element in it carries its
 * current ref, and the refs the agent already holds still work after.
 */
import type { CDPSession, Page } from 'playwright';

/** Playwright's utility world of a frame: its name's start (a world id follows). */
const UTILITY_WORLD = '__playwright_utility_world_';
/** In Playwright's world: the ref it wrote on the element (`this`) when it took a snapshot. */
const OWN_REF = 'function () { const ref = this._ariaRef && this._ariaRef.ref; return typeof ref === "string" ? ref : undefined; }';
/** In Playwright's world: the element (in the document or an open shadow root) it wrote this ref on. */
const CARRIER = (ref: string) => `(() => {
  const ref = ${JSON.stringify(ref)};
  const within = root => {
    for (const element of root.querySelectorAll('*')) {
      if (element._ariaRef && element._ariaRef.ref === ref) return element;
      const inShadow = element.shadowRoot && within(element.shadowRoot);
      if (inShadow) return inShadow;
    }
  };
  return within(document);
})()`;
/** The refs looked up per finding, each a lookup in the page. */
const MAX_REFS = 40;

interface ExecutionContext {
  id: number;
  name: string;
  auxData?: { frameId?: string };
}

/** The id of Playwright's utility world in the page's main frame, or undefined when there is not exactly one. */
async function utilityWorld(cdp: CDPSession): Promise<number | undefined> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const worlds: number[] = [];
  // Enabling the runtime lists the worlds that exist now, before it answers.
  const listed = ({ context }: { context: ExecutionContext }) => {
    if (context.auxData?.frameId === frameTree.frame.id && context.name.startsWith(UTILITY_WORLD)) worlds.push(context.id);
  };
  cdp.on('Runtime.executionContextCreated', listed);
  try {
    await cdp.send('Runtime.enable');
  } finally {
    cdp.off('Runtime.executionContextCreated', listed);
    await cdp.send('Runtime.disable').catch(() => undefined);
  }
  return worlds.length === 1 ? worlds[0] : undefined;
}

export class SnapshotRefs {
  private looked = 0;

  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly world: number | undefined,
  ) {}

  /** Takes the page's snapshot and finds Playwright's world in it, over the page's CDP session. */
  static async take(page: Page, cdp: CDPSession): Promise<SnapshotRefs> {
    await page.ariaSnapshot({ mode: 'ai', timeout: 5000 }).catch(() => undefined);
    // The DOM agent resolves the page's nodes only once it has sent the document.
    await cdp.send('DOM.getDocument', { depth: 0 }).catch(() => undefined);
    return new SnapshotRefs(page, cdp, await utilityWorld(cdp).catch(() => undefined));
  }

  /**
   * The ref of the node with this backend node id (the browser's id of a node, the same in every world), or
   * undefined: not in the page's snapshot, not in its main frame, or over the bound.
   */
  async of(backendNodeId: number): Promise<string | undefined> {
    if (this.world === undefined || this.looked >= MAX_REFS) return undefined;
    this.looked++;
    const resolved = await this.cdp.send('DOM.resolveNode', { backendNodeId, executionContextId: this.world }).catch(() => undefined);
    const objectId = resolved?.object.objectId;
    if (!objectId) return undefined;
    try {
      const { result } = await this.cdp.send('Runtime.callFunctionOn', { objectId, functionDeclaration: OWN_REF, returnByValue: true });
      const ref = typeof result.value === 'string' ? result.value : undefined;
      return ref && (await this.found(ref)) ? ref : undefined;
    } finally {
      await this.cdp.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
    }
  }

  /** The backend node id of the element that carries this ref, or undefined: no element does, or its lookup finds none. */
  async nodeOf(ref: string): Promise<number | undefined> {
    if (this.world === undefined || !(await this.found(ref))) return undefined;
    const { result } = await this.cdp.send('Runtime.evaluate', { expression: CARRIER(ref), contextId: this.world, returnByValue: false });
    if (!result.objectId) return undefined;
    try {
      return (await this.cdp.send('DOM.describeNode', { objectId: result.objectId })).node.backendNodeId;
    } finally {
      await this.cdp.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => undefined);
    }
  }

  /**
   * Whether Playwright's lookup of the ref finds one element. A ref written by an earlier snapshot on a node this
   * one left out finds nothing: it is no ref to give or take.
   */
  private async found(ref: string): Promise<boolean> {
    return (
      (await this.page
        .locator(`aria-ref=${ref}`)
        .count()
        .catch(() => 0)) === 1
    );
  }
}
