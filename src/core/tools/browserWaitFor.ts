/** browser_wait_for in an exported test: a wait for text is an assertion (Playwright waits for it); a fixed wait goes. */
import { quote } from '../testExport/pageCode';
import type { StepWriting } from './stepWriting';

export function writeWaitFor(step: StepWriting): void {
  // A text cut to the journal's bound (egress/byteBounds.ts) would be waited for as cut.
  if (step.argsCut) return step.leave('its arguments were larger than the journal keeps');
  const { text, textGone } = step.args;
  if (typeof text === 'string') step.lines.push(`await expect(${step.page}.getByText(${quote(text)}).first()).toBeVisible();`);
  if (typeof textGone === 'string') step.lines.push(`await expect(${step.page}.getByText(${quote(textGone)})).toHaveCount(0);`);
  if (!step.lines.length) step.leave('a fixed wait: the test waits by its assertions');
}
