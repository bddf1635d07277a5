/**
 * A page's uncaught errors as DevTools' Console shows them: "Uncaught Error: boom", or "Uncaught (in promise)
 * Error: boom" for a rejection nobody handled, with the error's location and its stack. Chromium tells the two
 * apart only over CDP (Runtime.exceptionThrown's `text`); Playwright's `pageerror` is the same error without
 * that word, used for the other engines and when no CDP session can be had.
 */
import type { Page } from 'playwright';
import { capText, ENTRY_LIMITS } from '../../protocol/childMessages';

/** What an uncaught error adds to a console entry. */
export interface UncaughtError {
  text: string;
  stack?: string;
  location?: string;
}

/** The stack's longest text carried (its first lines are the ones read). */
const STACK_CHARS = 4000;

const STACK_LINE = /^\s+at\s/;
/** "at f (url:1:2)" or "at url:1:2": the url, line and column. */
const FRAME_PLACE = /^\s+at\s+(?:.*?\()?(.+?):(\d+):(\d+)\)?\s*$/;

/**
 * The entry of an uncaught error from its heading ("Uncaught", "Uncaught (in promise)") and its description
 * as V8 writes it (the error's stack: message lines, then "    at …" lines); the location from its first frame
 * when none is given.
 */
export function uncaughtError(heading: string, description: string, location?: string): UncaughtError {
  const lines = description.split('\n');
  const firstFrame = lines.findIndex(line => STACK_LINE.test(line));
  const message = (firstFrame < 0 ? lines : lines.slice(0, firstFrame)).join('\n');
  const frames = firstFrame < 0 ? [] : lines.slice(firstFrame);
  const place = frames.map(line => FRAME_PLACE.exec(line)).find(Boolean);
  const where = location ?? (place ? `${place[1]}:${place[2]}:${place[3]}` : undefined);
  return {
    text: capText(`${heading} ${message}`, ENTRY_LIMITS.text),
    ...(frames.length ? { stack: capText(frames.map(line => line.trim()).join('\n'), STACK_CHARS) } : {}),
    ...(where ? { location: capText(where, ENTRY_LIMITS.url + 20) } : {}),
  };
}

/** CDP's Runtime.exceptionThrown, the parts read. */
interface ExceptionThrown {
  exceptionDetails: {
    text: string;
    url?: string;
    lineNumber: number;
    columnNumber: number;
    exception?: { type: string; description?: string; value?: unknown };
    stackTrace?: { callFrames: { url: string; lineNumber: number; columnNumber: number }[] };
  };
}

/** The error as CDP reports it: its heading says whether it was a rejection. */
export function fromExceptionThrown({ exceptionDetails: details }: ExceptionThrown): UncaughtError {
  const exception = details.exception;
  const description =
    exception?.description ??
    (exception?.type === 'string' ? String(exception.value) : exception && 'value' in exception ? JSON.stringify(exception.value) : '');
  const frame =
    details.stackTrace?.callFrames.find(f => f.url) ??
    (details.url ? { url: details.url, lineNumber: details.lineNumber, columnNumber: details.columnNumber } : undefined);
  const location = frame ? `${frame.url}:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : undefined;
  return uncaughtError(details.text.trim() || 'Uncaught', description, location);
}

/**
 * Calls `report` with each uncaught error of the page, in the order they happen, and gives `stacks` the console
 * calls' stacks (the same session). Chromium: over a CDP session of
 * the page (its Runtime.enable also replays errors thrown before it attached); elsewhere, or if that fails,
 * Playwright's `pageerror`.
 */
/** CDP's Runtime.consoleAPICalled, the parts read. */
interface ConsoleApiCalled {
  type: string;
  stackTrace?: { callFrames: { functionName: string; url: string; lineNumber: number; columnNumber: number }[] };
}

/** The console calls whose stack DevTools shows under the message (folded): console.error, console.trace, console.assert. */
const STACKED_CALLS = new Set(['error', 'trace', 'assert']);

/**
 * The stacks of a page's console.error, console.trace and console.assert calls, as Chromium's CDP gives them
 * (Playwright's console message has none), looked up by the call's type and place: the message's own location
 * is its stack's first frame. Kept a moment only: a message takes the oldest stack of its type and place.
 */
export class ConsoleStacks {
  private readonly waiting = new Map<string, string[]>();

  noted(event: ConsoleApiCalled): void {
    const frames = event.stackTrace?.callFrames ?? [];
    if (!STACKED_CALLS.has(event.type) || !frames.length) return;
    const top = frames[0];
    const key = `${event.type} ${top.url}:${top.lineNumber + 1}:${top.columnNumber + 1}`;
    const stack = frames.map(f => `at ${f.functionName || '(anonymous)'} (${f.url}:${f.lineNumber + 1}:${f.columnNumber + 1})`).join('\n');
    const list = this.waiting.get(key) ?? [];
    list.push(capText(stack, STACK_CHARS));
    this.waiting.delete(key);
    this.waiting.set(key, list);
    // A page whose messages this never takes (a flood over the budget) keeps it small.
    if (this.waiting.size > 200) this.waiting.delete(this.waiting.keys().next().value!);
  }

  /** The stack of a console call of this type at this place (`url:line:column`, 1-based), if CDP gave one. */
  take(type: string, location: string | undefined): string | undefined {
    const key = `${type} ${location}`;
    const list = this.waiting.get(key);
    const stack = list?.shift();
    if (list && !list.length) this.waiting.delete(key);
    return stack;
  }
}

export function watchUncaughtErrors(page: Page, chromium: boolean, report: (error: UncaughtError) => void, stacks?: ConsoleStacks): void {
  let overCdp = false;
  page.on('pageerror', error => {
    if (overCdp) return;
    report(uncaughtError('Uncaught', error.stack?.includes(error.message) ? error.stack : `${error.name}: ${error.message}`));
  });
  if (!chromium) return;
  overCdp = true;
  void page
    .context()
    .newCDPSession(page)
    .then(async session => {
      session.on('Runtime.exceptionThrown', event => report(fromExceptionThrown(event as ExceptionThrown)));
      if (stacks) session.on('Runtime.consoleAPICalled', event => stacks.noted(event as ConsoleApiCalled));
      await session.send('Runtime.enable');
    })
    .catch(() => {
      // A page closed before it could be watched, or a browser that lends no CDP session: `pageerror` then.
      overCdp = false;
    });
}
