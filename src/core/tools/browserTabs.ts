/** browser_tabs in an exported test: a new tab is a new page of the test's context, a closed one is closed; select and list write nothing. */
import type { StepWriting } from './stepWriting';

export function writeTabs(step: StepWriting): void {
  const { action } = step.args;
  if (action === 'new') {
    const name = step.newPage();
    step.lines.push(`const ${name} = await context.newPage();`);
    step.tabs.push(name);
  } else if (action === 'close') {
    const index = typeof step.args.index === 'number' ? step.args.index : step.current;
    if (step.tabs[index]) step.lines.push(`await ${step.tabs[index]}.close();`);
    step.tabs = step.tabs.filter((_, k) => k !== index);
  } else if (action !== 'select') {
    step.leave('it only reads');
  }
}
