/**
 * Picking an element for chat from the panel: the element under the person's pointer is outlined in
 * the page itself (so the streamed picture shows it) and described as chat should read it.
 *
 * The description is read in an isolated world of the page (Chromium: a CDP `Page.createIsolatedWorld`),
 * which shares the DOM but not the page's JavaScript: a page that overrides `getAttribute`,
 * `outerHTML` or `elementFromPoint` cannot change what is reported. Every field is cut to the caps of
 * the protocol's schema (PICKED_ELEMENT_LIMITS), so a huge attribute cannot flood chat.
 */
import type { CDPSession, Page } from 'playwright';
import { PICKED_ELEMENT_LIMITS, type PickedElement, type PickParams } from '../protocol/childMessages';
import type { PageGlobals } from './pageGlobals';

const OVERLAY_ID = '__playwright_bridge_pick';
/** The isolated world's name: Chromium keeps one world per name and frame, so repeated picks reuse it. */
const WORLD_NAME = 'playwright-bridge-picker';

type InPageArgs = { x: number; y: number; phase: 'hover' | 'choose' | 'cancel' | 'describe'; overlayId: string; limits: typeof PICKED_ELEMENT_LIMITS };

/** Runs in the page: outlines (hover), describes and un-outlines (choose), only un-outlines (cancel), or only describes (describe). */
function inPage(args: InPageArgs) {
  const { document, CSS, location } = globalThis as unknown as PageGlobals;
  const old = document.getElementById(args.overlayId);
  if (args.phase === 'cancel') {
    old?.remove();
    return undefined;
  }
  const hit = document.elementFromPoint(args.x, args.y);
  const element = args.phase === 'describe' ? (hit?.closest('a, button, input, select, textarea, summary, label, [role]') ?? hit) : hit;
  if (!element) {
    if (args.phase !== 'describe') old?.remove();
    return undefined;
  }
  if (args.phase === 'hover') {
    const box = element.getBoundingClientRect();
    const overlay = old ?? document.createElement('div');
    overlay.id = args.overlayId;
    overlay.setAttribute(
      'style',
      `position:fixed;left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px;` +
        'outline:2px solid #1a73e8;background:rgba(26,115,232,0.15);pointer-events:none;z-index:2147483647;',
    );
    if (!old) document.documentElement.appendChild(overlay);
  } else if (args.phase === 'choose') old?.remove(); // describe leaves a pick's outline alone
  const tag = element.tagName.toLowerCase();
  const type = (element.getAttribute('type') ?? '').toLowerCase();
  const implicit: Record<string, string> = {
    a: 'link',
    button: 'button',
    select: 'combobox',
    textarea: 'textbox',
    img: 'img',
    nav: 'navigation',
    ul: 'list',
    ol: 'list',
    li: 'listitem',
    h1: 'heading',
    h2: 'heading',
    h3: 'heading',
    h4: 'heading',
    h5: 'heading',
    h6: 'heading',
    p: 'paragraph',
    form: 'form',
    table: 'table',
  };
  const inputRole = type === 'checkbox' ? 'checkbox' : type === 'radio' ? 'radio' : ['button', 'submit', 'reset'].includes(type) ? 'button' : 'textbox';
  const role = element.getAttribute('role') ?? (tag === 'input' ? inputRole : (implicit[tag] ?? 'generic'));
  const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : undefined;
  const placeholder = element.placeholder;
  const name = (element.getAttribute('aria-label') ?? element.getAttribute('alt') ?? labelled ?? placeholder ?? element.textContent ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const { limits } = args;
  return {
    role: cut(role, limits.role),
    name: cut(name, limits.name),
    tag: cut(tag, limits.tag),
    html: cut(element.outerHTML, limits.html),
    url: cut(location.href, limits.url),
  };
}

/** One CDP session per page, for its isolated world; undefined where the engine has no CDP (Firefox, WebKit). */
const cdpSessions = new WeakMap<Page, Promise<CDPSession | undefined>>();

function cdpOf(page: Page): Promise<CDPSession | undefined> {
  let session = cdpSessions.get(page);
  if (!session) {
    session = page
      .context()
      .newCDPSession(page)
      .catch(() => undefined);
    cdpSessions.set(page, session);
  }
  return session;
}

/**
 * `inPage` in an isolated world of the page's main frame. Firefox and WebKit have no CDP: there it runs
 * in the page's world (what it reports could be swayed by the page's scripts; the caps still hold).
 */
async function runIsolated(page: Page, args: InPageArgs): Promise<PickedElement | undefined> {
  const cdp = await cdpOf(page);
  if (!cdp) return page.evaluate(inPage, args);
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME });
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: `(${inPage.toString()})(${JSON.stringify(args)})`,
    contextId: executionContextId,
    returnByValue: true,
  });
  if (exceptionDetails) throw new Error(`Picking failed in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as PickedElement | undefined;
}

/** A picture of the dragged rectangle (at least 4 CSS pixels a side), as the page shows it. */
export async function pickRegion(page: Page, params: Extract<PickParams, { phase: 'region' }>, viewport: { width: number; height: number }) {
  const size = page.viewportSize() ?? viewport;
  const x = Math.min(params.x0, params.x1) * size.width;
  const y = Math.min(params.y0, params.y1) * size.height;
  const width = Math.max(4, Math.abs(params.x1 - params.x0) * size.width);
  const height = Math.max(4, Math.abs(params.y1 - params.y0) * size.height);
  const png = await page.screenshot({ type: 'png', clip: { x, y, width, height }, timeout: 10000 });
  return { png: png.toString('base64'), url: page.url(), width: Math.round(width), height: Math.round(height) };
}

export async function pickElement(
  page: Page,
  params: Exclude<PickParams, { phase: 'region' }>,
  viewport: { width: number; height: number },
): Promise<PickedElement | undefined> {
  if (params.phase === 'cancel') {
    await runIsolated(page, { x: 0, y: 0, phase: 'cancel', overlayId: OVERLAY_ID, limits: PICKED_ELEMENT_LIMITS });
    return undefined;
  }
  const size = page.viewportSize() ?? viewport;
  return runIsolated(page, { x: params.x * size.width, y: params.y * size.height, phase: params.phase, overlayId: OVERLAY_ID, limits: PICKED_ELEMENT_LIMITS });
}

/**
 * The element under a point of the person's (fractions of the viewport), as Activity names it: read in the isolated
 * world before their click reaches it (a click that navigates leaves nothing to read after). The clickable ancestor
 * is named when the point is on its text (a button's label, a link's icon).
 */
export async function elementAtPoint(
  page: Page,
  x: number,
  y: number,
  viewport: { width: number; height: number },
): Promise<{ role: string; name: string } | undefined> {
  const size = page.viewportSize() ?? viewport;
  const element = await runIsolated(page, { x: x * size.width, y: y * size.height, phase: 'describe', overlayId: OVERLAY_ID, limits: PICKED_ELEMENT_LIMITS });
  return element ? { role: element.role, name: element.name } : undefined;
}

/** The element's ref in upstream's snapshot: the one line naming its role and name, when there is exactly one. */
export function refFromSnapshot(snapshot: string, element: Pick<PickedElement, 'role' | 'name'>): string | undefined {
  const wanted = `${element.role} "${element.name}"`;
  const lines = snapshot.split('\n').filter(line => line.includes(wanted) && /\[ref=/.test(line));
  return lines.length === 1 ? /\[ref=([^\]]+)\]/.exec(lines[0])?.[1] : undefined;
}
