import type { Page } from 'playwright';
import { capText, ENTRY_LIMITS } from '../../protocol/childMessages';
import { consoleLevelOf } from '../observationShapes';
import { EventBudget } from './eventBudget';
import type { NetworkLog } from './networkLog';
import type { ObserverOptions } from './observerOptions';

/** Console messages passed on per second; a page that floods gets a count instead. */
const MAX_CONSOLE_PER_SECOND = 100;

/** The context's console for the panel: each tab's messages and uncaught errors. */
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

  /** `network` lists what the browser fetched itself, known only from the console error its failure logs. */
  constructor(
    private readonly options: Pick<ObserverOptions, 'send'>,
    private readonly network: NetworkLog,
  ) {}

  attach(page: Page, pageId: string): void {
    page.on('console', message => {
      if (!this.budget.allow()) return;
      const location = message.location();
      this.network.noteBrowserRequest(message.type(), message.text(), location.url, pageId);
      this.options.send({
        kind: 'console',
        entry: {
          level: consoleLevelOf(message.type()),
          text: capText(message.text(), ENTRY_LIMITS.text),
          location: location.url ? `${capText(location.url, ENTRY_LIMITS.url)}:${location.lineNumber + 1}:${location.columnNumber + 1}` : undefined,
          pageId,
          time: Date.now(),
        },
      });
    });
    page.on('pageerror', error => {
      if (!this.budget.allow()) return;
      const text = capText(`Uncaught ${error.name}: ${error.message}`, ENTRY_LIMITS.text);
      this.options.send({ kind: 'console', entry: { level: 'error', text, pageId, time: Date.now() } });
    });
  }

  dispose(): void {
    this.budget.dispose();
  }
}
