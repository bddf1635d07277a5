/**
 * browser_tabs in an exported test: a new tab is a new page of the test's context, or of the context of the name
 * the agent gave (`isolatedContext`, opened from the test's browser as upstream opens it), at the address it was
 * opened with; a closed one is closed; select and list write nothing.
 */
import type { StepWriting } from './stepWriting';

/** The named context browser_tabs arguments open a tab in (`new` with `isolatedContext`, upstream's "default" being none). */
export function namedContextOf(args: Record<string, unknown> | undefined): string | undefined {
  const wanted = args?.action === 'new' ? args.isolatedContext : undefined;
  return typeof wanted === 'string' && wanted !== '' && wanted !== 'default' ? wanted : undefined;
}

export function writeTabs(step: StepWriting): void {
  const { action } = step.args;
  if (action === 'new') {
    const named = namedContextOf(step.args);
    const context = named === undefined ? 'context' : step.namedContext(named);
    const name = step.newPage(named === undefined ? undefined : context);
    step.lines.push(`const ${name} = await ${context}.newPage();`);
    if (typeof step.args.url === 'string' && step.args.url) step.lines.push(`await ${name}.goto(${step.address(step.args.url)});`);
    step.tabs.push(name);
  } else if (action === 'close') {
    const index = typeof step.args.index === 'number' ? step.args.index : step.current;
    if (step.tabs[index]) step.lines.push(`await ${step.tabs[index]}.close();`);
    step.tabs = step.tabs.filter((_, k) => k !== index);
  } else if (action !== 'select') {
    step.leave('it only reads');
  }
}
