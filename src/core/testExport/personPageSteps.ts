/**
 * A navigation the person made from the panel while an agent had the browser (PERSON_PAGE_ACTION), as the
 * lines a test repeats it with: Playwright's codegen starts with the `goto`, and so does an export of a
 * session the person began from the address bar. What a test cannot repeat (stopping a load) is written as a
 * comment that says so, never dropped without a word.
 */
import { PageActionSchema } from '../../protocol/childMessages';
import type { StepWriting } from '../tools/stepWriting';
import { addressFor } from './pageCode';

/** Writes the person's page action into the test; returns the address the page went to when the action named one. */
export function writePersonPageStep(writing: StepWriting, baseURL: string | undefined): { url?: string } {
  const parsed = PageActionSchema.safeParse(writing.args);
  if (!parsed.success) {
    writing.leave('the panel action is not one the bridge knows');
    return {};
  }
  const action = parsed.data;
  const { page, lines } = writing;
  const tabIndex = typeof writing.args.tabIndex === 'number' ? writing.args.tabIndex : undefined;
  switch (action.action) {
    case 'navigate':
      lines.push(`await ${page}.goto(${addressFor(action.url, baseURL)});`);
      return { url: action.url };
    case 'back':
      lines.push(`await ${page}.goBack();`);
      return {};
    case 'forward':
      lines.push(`await ${page}.goForward();`);
      return {};
    case 'reload':
      lines.push(`await ${page}.reload();`);
      return {};
    case 'resize':
      lines.push(`await ${page}.setViewportSize({ width: ${action.width}, height: ${action.height} });`);
      return {};
    case 'newTab': {
      const opened = writing.newPage();
      lines.push(`const ${opened} = await context.newPage();`);
      writing.tabs = [...writing.tabs, opened];
      writing.current = writing.tabs.length - 1;
      return {};
    }
    case 'selectTab':
    case 'closeTab': {
      const tab = tabIndex !== undefined ? writing.tabs[tabIndex] : undefined;
      if (!tab) {
        lines.push(
          `// Playwright Bridge: you ${action.action === 'selectTab' ? 'switched to' : 'closed'} a tab here that this test does not have; not repeated.`,
        );
        return {};
      }
      if (action.action === 'selectTab') {
        lines.push(`await ${tab}.bringToFront();`);
        writing.current = tabIndex!;
      } else {
        lines.push(`await ${tab}.close();`);
        writing.tabs = writing.tabs.filter((_, i) => i !== tabIndex);
        writing.current = Math.max(0, Math.min(writing.current, writing.tabs.length - 1));
      }
      return {};
    }
    case 'stop':
      lines.push('// Playwright Bridge: you stopped the page loading here; a test cannot repeat that moment, so it goes on.');
      return {};
  }
}
