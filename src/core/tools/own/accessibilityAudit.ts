/** bridge_accessibility_audit: axe-core on the caller's tab, or one element of it, in a world of its own (child/devtools/). */
import { z } from 'zod';
import { defineOwnTool } from '../defineOwnTool';
import { elementOf } from '../callWords';

export const ACCESSIBILITY_AUDIT = defineOwnTool({
  name: 'bridge_accessibility_audit',
  title: 'Audit accessibility',
  description:
    'Playwright Bridge: audits the current tab (or one element of it, by its snapshot ref) for accessibility with axe-core, ' +
    'and answers with the violations by impact: each rule, the elements that fail it with their snapshot refs (act on them with the ' +
    'other tools), and how to fix each. axe runs in a world of its own that the page cannot see or change. The main frame only.',
  input: z.object({
    ref: z.string().optional().describe('Audit only this element and what is inside it: its ref from the page snapshot. Default: the whole page.'),
    element: z.string().optional().describe('What the element is, in words (for the person).'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  traits: { handler: 'child', onPage: true, actsOnPage: false, observation: true, exportAs: 'comment' },
  says: a => `Auditing accessibility of ${elementOf({ element: a.element, target: a.ref })}`,
});
