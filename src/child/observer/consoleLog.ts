import type { JSHandle, Page } from 'playwright';
import { capText, type ConsoleEntry, ENTRY_LIMITS, type ObservationEvent, VALUE_PREVIEW_LIMITS, type ValuePreview } from '../../protocol/childMessages';
import { consoleLevelOf } from '../observationShapes';
import { EventBudget } from './eventBudget';
import { isTabLoad, type NetworkLog } from './networkLog';
import type { ObserverOptions } from './observerOptions';
import { ConsoleStacks, watchUncaughtErrors } from './uncaughtErrors';
import { formatConsoleCall } from './consoleFormat';
import { boundPreview, hasUnfoldable, previewInPage } from './valuePreview';

/** How long a message waits for its objects' previews (a page held by a dialog answers none): then it goes without. */
const PREVIEW_WAIT_MS = 1000;

/** The logged values' previews, read in the page in one call and bounded here; none if the page cannot answer in time. */
async function previewsOf(args: JSHandle[]): Promise<ValuePreview[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>(resolve => (timer = setTimeout(() => resolve(undefined), PREVIEW_WAIT_MS)));
  const read = args[0].evaluate(previewInPage, { values: args, limits: VALUE_PREVIEW_LIMITS }).catch(() => undefined);
  try {
    return boundPreview(await Promise.race([read, late]));
  } finally {
    clearTimeout(timer);
  }
}

/** Console messages passed on per second; a page that floods gets a count instead. */
const MAX_CONSOLE_PER_SECOND = 100;

/** The context's console for the panel: each tab's messages (with their objects' previews), uncaught errors, and new documents. */
export class ConsoleLog {
  private readonly budget = new EventBudget(MAX_CONSOLE_PER_SECOND, count =>
    this.options.send({
      kind: 'console',
      entry: {
        level: 'warning',
        text: `${count} console message${count === 1 ? ' was' : 's were'} not shown: the page logged more than ${MAX_CONSOLE_PER_SECOND} a second.`,
        pageId: '',
        time: Date.now(),
      },
    }),
  );

  /** What is being sent, in order (see inOrder). */
  private sending: Promise<void> = Promise.resolve();

  /** `network` lists what the browser fetched itself, known only from the console error its failure logs. */
  constructor(
    private readonly options: Pick<ObserverOptions, 'send' | 'engine'>,
    private readonly network: NetworkLog,
  ) {}

  attach(page: Page, pageId: string): void {
    const stacks = new ConsoleStacks();
    page.on('console', message => {
      if (!this.budget.allow()) return;
      const location = message.location();
      this.network.noteBrowserRequest(message.type(), message.text(), location.url, pageId);
      const entry: ConsoleEntry = {
        level: consoleLevelOf(message.type()),
        text: capText(message.text(), ENTRY_LIMITS.text),
        location: location.url ? `${capText(location.url, ENTRY_LIMITS.url)}:${location.lineNumber + 1}:${location.columnNumber + 1}` : undefined,
        pageId,
        time: Date.now(),
      };
      const args = message.args();
      // The objects' previews are read from the page now: the entry waits for them, the ones after it for the entry.
      const reading = args.length ? previewsOf(args) : Promise.resolve([]);
      this.inOrder(async () => {
        // As DevTools writes it: the first string's %s, %d, %f, %o and %c filled from the values after it.
        const previews = await reading;
        const formatted = formatConsoleCall(previews);
        // By now (the previews read) CDP has told the call's stack, if it has one (console.error, trace, assert).
        const stack = stacks.take(message.type(), entry.location);
        const text = formatted ? capText(formatted.text, ENTRY_LIMITS.text) : entry.text;
        const args = formatted?.args ?? previews;
        return { kind: 'console', entry: { ...entry, text, ...(stack ? { stack } : {}), ...(hasUnfoldable(args) ? { args } : {}) } };
      });
    });
    watchUncaughtErrors(
      page,
      this.options.engine === 'chromium',
      error => {
        if (!this.budget.allow()) return;
        this.inOrder(() => ({ kind: 'console', entry: { level: 'error', ...error, pageId, time: Date.now() } }));
      },
      stacks,
    );
    // A new document in the tab (its own load, then the commit; not a same-document change): DevTools' Console starts again.
    let newDocument = false;
    page.on('request', request => {
      if (isTabLoad(request, page) && !request.redirectedFrom()) newDocument = true;
    });
    page.on('framenavigated', frame => {
      if (frame !== page.mainFrame() || !newDocument) return;
      newDocument = false;
      const url = capText(frame.url(), ENTRY_LIMITS.url);
      this.inOrder(() => ({ kind: 'navigated', pageId, url }));
    });
  }

  /** Sends what `make` makes once everything before it is sent: console lines keep the page's order. */
  private inOrder(make: () => ObservationEvent | Promise<ObservationEvent>): void {
    this.sending = this.sending.then(make).then(
      event => this.options.send(event),
      () => undefined,
    );
  }

  dispose(): void {
    this.budget.dispose();
  }
}
