/**
 * browser_wait_for in an exported test: a wait for text is an assertion (Playwright waits for it); a fixed wait goes.
 * As upstream waits since 0.0.86: with both text and textGone, whichever happens first (the test polls for either),
 * and a time given with them is their timeout (at most 30 s, upstream's cap).
 */
import { quote } from '../testExport/pageCode';
import type { StepWriting } from './stepWriting';

/** Upstream's cap on browser_wait_for's time, in seconds. */
const MAX_WAIT_SECONDS = 30;

export function writeWaitFor(step: StepWriting): void {
  // A text cut to the journal's bound (egress/byteBounds.ts) would be waited for as cut.
  if (step.argsCut) return step.leave('its arguments were larger than the journal keeps');
  const { text, textGone, time } = step.args;
  const seconds = typeof time === 'number' && Number.isFinite(time) && time > 0 ? Math.min(time, MAX_WAIT_SECONDS) : undefined;
  const timeout = seconds === undefined ? '' : `{ timeout: ${Math.round(seconds * 1000)} }`;
  const appears = typeof text === 'string' ? `expect(${step.page}.getByText(${quote(text)}).first()).toBeVisible(${timeout})` : undefined;
  const goes = typeof textGone === 'string' ? `expect(${step.page}.getByText(${quote(textGone)})).toHaveCount(0${timeout ? `, ${timeout}` : ''})` : undefined;
  if (typeof text === 'string' && typeof textGone === 'string') {
    // One assertion polling for either: two raced assertions would leave the loser failing after the test went on.
    const either = `async () => (await ${step.page}.getByText(${quote(text)}).first().isVisible()) || (await ${step.page}.getByText(${quote(textGone)}).count()) === 0`;
    step.lines.push(`await expect.poll(${either}${timeout ? `, ${timeout}` : ''}).toBe(true);`);
  } else if (appears ?? goes) step.lines.push(`await ${appears ?? goes};`);
  else step.leave('a fixed wait: the test waits by its assertions');
}
