/**
 * A world of our own in a page's main frame, as DevTools' extensions and Playwright's own utility world have:
 * it shares the page's DOM but none of its JavaScript. Scripts we run there (axe-core, the element lookups)
 * are invisible to the page's scripts, and the page cannot replace the functions they call (its prototypes
 * and globals are its own world's). Made over the page's CDP session (no port); a fresh world per use, so
 * nothing of an earlier audit stays in the page.
 */
import type { CDPSession } from 'playwright';
import { withDeadline } from '../../core/supervision/deadline';

export interface IsolatedWorld {
  /** Runs an expression in the world and returns its value (awaited; by value). */
  evaluate<T>(expression: string): Promise<T>;
  /** Runs a function (given the element) in the world on an element it resolved by its backend node id (from a trace). */
  onNode<T>(backendNodeId: number, functionDeclaration: string): Promise<T | undefined>;
}

const WORLD_NAME = 'playwright-bridge-devtools';
/**
 * The world shares the page's main thread: a page that never yields would hold a script of ours for ever. Each
 * script gets this long (an audit of a large page takes a few seconds).
 */
const SCRIPT_DEADLINE_MS = 30_000;

export async function isolatedWorld(cdp: CDPSession): Promise<IsolatedWorld> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME, grantUniveralAccess: false });
  const failed = (where: string, details: { text?: string; exception?: { description?: string } }) =>
    new Error(`${where}: ${details.exception?.description?.split('\n')[0] ?? details.text ?? 'failed'}`);
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const { result, exceptionDetails } = await withDeadline(cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true }),
        SCRIPT_DEADLINE_MS, `The page kept its main thread busy for ${SCRIPT_DEADLINE_MS / 1000} s: nothing could run in it.`);
      if (exceptionDetails) throw failed('In the page', exceptionDetails);
      return result.value as T;
    },
    async onNode<T>(backendNodeId: number, functionDeclaration: string): Promise<T | undefined> {
      // The DOM agent knows the page's nodes only once it has sent the document.
      await cdp.send('DOM.getDocument', { depth: 0 });
      const resolved = await cdp.send('DOM.resolveNode', { backendNodeId, executionContextId }).catch(() => undefined);
      const objectId = resolved?.object.objectId;
      if (!objectId) return undefined;
      try {
        // The protocol calls it with the element as `this`: handed on as the function's argument.
        const { result, exceptionDetails } = await withDeadline(cdp.send('Runtime.callFunctionOn', {
          objectId, functionDeclaration: `function () { return (${functionDeclaration})(this); }`, returnByValue: true, awaitPromise: true,
        }), SCRIPT_DEADLINE_MS, `The page kept its main thread busy for ${SCRIPT_DEADLINE_MS / 1000} s: nothing could run in it.`);
        if (exceptionDetails) throw failed('In the page', exceptionDetails);
        return result.value as T;
      } finally {
        await cdp.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
      }
    },
  };
}

/**
 * In-world source of a function that says what an element is: `tag#id.class "text"`, its viewport box, and
 * a CSS selector that finds it (for its snapshot ref). Runs in the isolated world, so the page's overrides
 * of these DOM methods do not reach it.
 */
export const DESCRIBE_ELEMENT = `function describeElement(element) {
  if (!element || element.nodeType !== 1) element = element && element.parentElement;
  if (!element) return undefined;
  const rect = element.getBoundingClientRect();
  const tag = element.tagName.toLowerCase();
  const id = element.id ? '#' + element.id : '';
  const text = (element.getAttribute('alt') || element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  const src = element.getAttribute('src') ? ' src=' + element.getAttribute('src').slice(0, 120) : '';
  const path = [];
  for (let node = element; node && node.nodeType === 1 && node !== document.documentElement; node = node.parentElement) {
    if (node.id && document.querySelectorAll('#' + CSS.escape(node.id)).length === 1) { path.unshift('#' + CSS.escape(node.id)); break; }
    const parent = node.parentElement;
    const index = parent ? Array.prototype.indexOf.call(parent.children, node) + 1 : 1;
    path.unshift(node.tagName.toLowerCase() + ':nth-child(' + index + ')');
  }
  if (!path.length) path.push('html');
  // A descendant with exactly its box: the element's own snapshot would start with that descendant's ref (a
  // wrapper outside the accessibility tree), which a page could use to point a finding at another control.
  const same = other => { const r = other.getBoundingClientRect(); return Math.abs(r.x - rect.x) < 1 && Math.abs(r.y - rect.y) < 1 && Math.abs(r.width - rect.width) < 1 && Math.abs(r.height - rect.height) < 1; };
  const wrapsItsTwin = Array.prototype.some.call(element.querySelectorAll('*'), same);
  return {
    wrapsItsTwin,
    description: tag + id + src + (text ? ' "' + text + '"' : ''),
    selector: path.join(' > '),
    box: { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) },
  };
}`;

export interface DescribedElement {
  description: string;
  /** A descendant has its very box: no ref is given for it (see DESCRIBE_ELEMENT). */
  wrapsItsTwin: boolean;
  selector: string;
  box: { x: number; y: number; width: number; height: number };
}
