/**
 * Picking an element for chat from the panel: the element under the person's pointer is outlined in
 * the page itself (so the streamed picture shows it) and described as chat should read it.
 */
import type { Page } from 'playwright';
import type { PickedElement, PickParams } from '../protocol/childMessages';

const OVERLAY_ID = '__playwright_bridge_pick';

/** Runs in the page: outlines (hover), describes and un-outlines (choose), or only un-outlines (cancel). */
function inPage(args: { x: number; y: number; phase: 'hover' | 'choose' | 'cancel'; overlayId: string }) {
  const old = document.getElementById(args.overlayId);
  if (args.phase === 'cancel') {
    old?.remove();
    return undefined;
  }
  const element = document.elementFromPoint(args.x, args.y);
  if (!element) {
    old?.remove();
    return undefined;
  }
  if (args.phase === 'hover') {
    const box = element.getBoundingClientRect();
    const overlay = old ?? document.createElement('div');
    overlay.id = args.overlayId;
    overlay.setAttribute('style', `position:fixed;left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px;` +
      'outline:2px solid #1a73e8;background:rgba(26,115,232,0.15);pointer-events:none;z-index:2147483647;');
    if (!old) document.documentElement.appendChild(overlay);
  } else old?.remove();
  const tag = element.tagName.toLowerCase();
  const type = (element.getAttribute('type') ?? '').toLowerCase();
  const implicit: Record<string, string> = {
    a: 'link', button: 'button', select: 'combobox', textarea: 'textbox', img: 'img', nav: 'navigation', ul: 'list', ol: 'list', li: 'listitem',
    h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', p: 'paragraph', form: 'form', table: 'table',
  };
  const inputRole = type === 'checkbox' ? 'checkbox' : type === 'radio' ? 'radio' : ['button', 'submit', 'reset'].includes(type) ? 'button' : 'textbox';
  const role = element.getAttribute('role') ?? (tag === 'input' ? inputRole : implicit[tag] ?? 'generic');
  const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : undefined;
  const placeholder = (element as HTMLInputElement).placeholder;
  const name = (element.getAttribute('aria-label') ?? element.getAttribute('alt') ?? labelled ?? placeholder ?? element.textContent ?? '')
    .replace(/\s+/g, ' ').trim().slice(0, 100);
  const html = element.outerHTML.length > 2000 ? `${element.outerHTML.slice(0, 2000)}…` : element.outerHTML;
  return { role, name, tag, html, url: location.href };
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
    await page.evaluate(inPage, { x: 0, y: 0, phase: 'cancel' as const, overlayId: OVERLAY_ID });
    return undefined;
  }
  const size = page.viewportSize() ?? viewport;
  return page.evaluate(inPage, { x: params.x * size.width, y: params.y * size.height, phase: params.phase, overlayId: OVERLAY_ID });
}

/** The element's ref in upstream's snapshot: the one line naming its role and name, when there is exactly one. */
export function refFromSnapshot(snapshot: string, element: Pick<PickedElement, 'role' | 'name'>): string | undefined {
  const wanted = `${element.role} "${element.name}"`;
  const lines = snapshot.split('\n').filter(line => line.includes(wanted) && /\[ref=/.test(line));
  return lines.length === 1 ? /\[ref=([^\]]+)\]/.exec(lines[0])?.[1] : undefined;
}
