/**
 * browser_tabs in an exported test: a new tab is a new page of the test's context, or of the context of the name
 * the agent gave (`isolatedContext`, opened from the test's browser as upstream opens it), at the address it was
 * opened with; a closed one is closed; select and list write nothing.
 */
import type { StepWriting } from './stepWriting';

/** A tab as upstream lists it. */
export interface ListedTab {
  index: number;
  current: boolean;
  title: string;
  url: string;
}

// `- N: (current) [title](url)`; a named context's tab ends with its name (0.0.86): ` [isolatedContext: name]`.
const TAB_LINE = /^- (\d+):\s*(\(current\)\s*)?\[(.*)\]\((.*)\)(?: \[isolatedContext: [^\n]*\])?\s*$/;

/**
 * A tab list as upstream prints it (a browser_tabs Result, an answer's Open tabs), read whole or not at all: every
 * line a tab, numbered 0, 1, … in order, at most one current. Anything else (a line posing as a tab, a tab's line
 * broken in two) is no list: what reads it (which tab the agent works in, for the secrets' site check, the panel
 * and the export) then knows nothing rather than something wrong.
 */
export function tabListOf(body: string): ListedTab[] | undefined {
  const tabs: ListedTab[] = [];
  for (const line of body.split('\n').map(l => l.trim())) {
    if (!line) continue;
    const match = TAB_LINE.exec(line);
    if (!match || Number(match[1]) !== tabs.length) return undefined;
    tabs.push({ index: tabs.length, current: Boolean(match[2]), title: match[3], url: match[4] });
  }
  return tabs.length && tabs.filter(tab => tab.current).length <= 1 ? tabs : undefined;
}

/** The named context browser_tabs arguments open a tab in (`new` with `isolatedContext`, upstream's "default" being none). */
export function namedContextOf(args: Record<string, unknown> | undefined): string | undefined {
  const wanted = args?.action === 'new' ? args.isolatedContext : undefined;
  return typeof wanted === 'string' && wanted !== '' && wanted !== 'default' ? wanted : undefined;
}

/**
 * A context's name upstream prints as it was given, at the end of its tab's line in every tab list. A line break
 * (or any control character) in it would start a line of its own, which can pose as another tab, even the current
 * one: the bridge reads that list to know which tab the agent works in (the secrets' site check, the panel, the
 * export). So a name is one line of printable text, or the call does not run.
 */
export function checkTabsArgs(args: Record<string, unknown>): string | undefined {
  const name = args.isolatedContext;
  if (typeof name !== 'string') return undefined;
  if (/[\p{Cc}\p{Zl}\p{Zp}\u0085]/u.test(name))
    return 'browser_tabs: isolatedContext must be a name on one line, without control characters or line breaks. Nothing ran.';
  // Kept whole where the bridge keeps it (time travel's checkpoints, the panel): a name cut there would name another context.
  if (name.length > MAX_CONTEXT_NAME)
    return `browser_tabs: isolatedContext is at most ${MAX_CONTEXT_NAME} characters (this one has ${name.length}). Nothing ran.`;
  return undefined;
}

/** The longest isolatedContext name browser_tabs takes. */
export const MAX_CONTEXT_NAME = 100;

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
