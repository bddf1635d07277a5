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
  /** The backend node id (the browser's own id of a node, the same in every world) of the node an expression yields, or undefined. */
  backendNodeId(expression: string): Promise<number | undefined>;
}

const WORLD_NAME = 'playwright-bridge-devtools';
/**
 * The world shares the page's main thread: a page that never yields would hold a script of ours for ever. Each
 * script gets this long (an audit of a large page takes a few seconds).
 */
const SCRIPT_DEADLINE_MS = 30_000;
/** A script of ours in the page, given up at its deadline. */
const inTime = <T>(work: Promise<T>): Promise<T> =>
  withDeadline(work, SCRIPT_DEADLINE_MS, `The page kept its main thread busy for ${SCRIPT_DEADLINE_MS / 1000} s: nothing could run in it.`);

export async function isolatedWorld(cdp: CDPSession): Promise<IsolatedWorld> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD_NAME, grantUniveralAccess: false });
  const failed = (where: string, details: { text?: string; exception?: { description?: string } }) =>
    new Error(`${where}: ${details.exception?.description?.split('\n')[0] ?? details.text ?? 'failed'}`);
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const { result, exceptionDetails } = await inTime(
        cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true }),
      );
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
        const { result, exceptionDetails } = await inTime(
          cdp.send('Runtime.callFunctionOn', {
            objectId,
            functionDeclaration: `function () { return (${functionDeclaration})(this); }`,
            returnByValue: true,
            awaitPromise: true,
          }),
        );
        if (exceptionDetails) throw failed('In the page', exceptionDetails);
        return result.value as T;
      } finally {
        await cdp.send('Runtime.releaseObject', { objectId }).catch(() => undefined);
      }
    },
    async backendNodeId(expression: string): Promise<number | undefined> {
      const { result } = await inTime(cdp.send('Runtime.evaluate', { expression, contextId: executionContextId, returnByValue: false }));
      if (!result.objectId) return undefined;
      try {
        const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
        return node.backendNodeId;
      } catch {
        return undefined;
      } finally {
        await cdp.send('Runtime.releaseObject', { objectId: result.objectId }).catch(() => undefined);
      }
    },
  };
}

/**
 * In-world source of a function that says what an element is: `tag#id.class "text"` and its viewport box. Runs in
 * the isolated world, so the page's overrides of these DOM methods do not reach it.
 */
export const DESCRIBE_ELEMENT = `function describeElement(element) {
  if (!element || element.nodeType !== 1) element = element && element.parentElement;
  if (!element) return undefined;
  const rect = element.getBoundingClientRect();
  const tag = element.tagName.toLowerCase();
  const id = element.id ? '#' + element.id : '';
  const text = (element.getAttribute('alt') || element.getAttribute('aria-label') || element.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 60);
  const src = element.getAttribute('src') ? ' src=' + element.getAttribute('src').slice(0, 120) : '';
  return {
    description: tag + id + src + (text ? ' "' + text + '"' : ''),
    box: { x: Math.round(rect.x), y: Math.round(rect.y), width: Math.round(rect.width), height: Math.round(rect.height) },
  };
}`;

export interface DescribedElement {
  description: string;
  box: { x: number; y: number; width: number; height: number };
}
