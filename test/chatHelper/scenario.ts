/**
 * A chat scenario: per prompt, the tools the scripted model calls in order and the answer it gives
 * after the last result. Arguments and answers may use values from earlier results:
 *   {{base}}              the fixture site's URL
 *   {{ref:PATTERN}}       the [ref=…] of the first line matching PATTERN in the latest result that has refs
 *   {{last:PATTERN}}      group 1 of PATTERN in the latest tool result (answers only)
 *   {{step:N:PATTERN}}    group 1 of PATTERN in the result of this turn's step N (answers only)
 */
export interface ScenarioStep {
  tool: string;
  args: Record<string, unknown>;
}

export interface ScenarioTurn {
  prompt: string;
  /** Words that also ask for this turn when a person types the question their own way (lower case, any one). */
  asks?: string[];
  steps: ScenarioStep[];
  answer: string;
}

/**
 * The turn a prompt asks for: the one whose prompt it holds, else the first with one of its words; none for
 * anything else (the model then says what it can do rather than replay an earlier answer).
 */
export function turnFor(text: string, turns: ScenarioTurn[]): ScenarioTurn | undefined {
  const lower = text.toLowerCase();
  return turns.find(t => lower.includes(t.prompt.toLowerCase())) ?? turns.find(t => t.asks?.some(word => lower.includes(word)));
}

export const FORM_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Open the fixture form, sign the guest book as Ada and tell me what the page says.',
    steps: [
      { tool: 'browser_navigate', args: { url: '{{base}}/form' } },
      { tool: 'browser_snapshot', args: {} },
      { tool: 'browser_type', args: { element: 'Name field', target: '{{ref:textbox "Name"}}', text: 'Ada' } },
      { tool: 'browser_click', args: { element: 'Sign button', target: '{{ref:button "Sign"}}' } },
      { tool: 'browser_snapshot', args: {} },
    ],
    answer: 'The page says: {{last:(Thanks, [^!]+!)}}',
  },
  {
    prompt: 'Take a screenshot and list the console messages and network requests.',
    steps: [
      { tool: 'browser_take_screenshot', args: { type: 'png', scale: 'css' } },
      { tool: 'browser_console_messages', args: { level: 'info' } },
      { tool: 'browser_network_requests', args: { static: true } },
    ],
    answer: 'Screenshot taken. Console: {{step:1:(guest book signed by \\w+)}}. Network requests: {{step:2:((?:\\[[A-Z]+\\] \\S+ => \\[\\d+\\][^\\n]*\\n?)+)}}',
  },
];

/** "Why is this page slow?": a trace of a reload, the answer built from its vitals. */
export const TRACE_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Why is the hero page slow? Trace a reload.',
    asks: ['slow', 'performance', 'trace'],
    steps: [
      { tool: 'browser_navigate', args: { url: '{{base}}/perf/hero' } },
      { tool: 'bridge_performance_trace', args: { during: 'reload' } },
    ],
    answer: "Traced: {{last:(LCP \\d+ ms \\([a-z ]+\\))}}; {{last:(Render-blocking requests)}}. The card is in the Browser panel's Activity.",
  },
];

/** "Is this page accessible?": an audit of a page with planted violations, the answer built from its count. */
export const AUDIT_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Audit the accessibility lab page for accessibility problems.',
    asks: ['accessib', 'a11y', 'audit'],
    steps: [
      { tool: 'browser_navigate', args: { url: '{{base}}/a11y/planted' } },
      { tool: 'bridge_accessibility_audit', args: {} },
    ],
    answer:
      "Audited: {{last:(\\d+ rules? violated on \\d+ elements?)}}; the worst: {{last:\\n- (\\w+: [^\\n]+?) \\(}}. The card is in the Browser panel's Activity.",
  },
];

/** What `npm start -- --demo` plays, and answers when a person types one of these questions in the demo's chat. */
export const DEMO_SCENARIO: ScenarioTurn[] = [...FORM_SCENARIO, ...TRACE_SCENARIO, ...AUDIT_SCENARIO];

/** A turn whose only call needs the person's confirmation, to check that declining leaves the page alone. */
export const DECLINE_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Change the page title with JavaScript.',
    steps: [{ tool: 'browser_evaluate', args: { function: "() => { document.title = 'Changed by chat'; return document.title; }" } }],
    answer: 'Result: {{last:([^\\n]*)}}',
  },
];

/** A call that writes a named file: it must ask first at every door, and land in the bridge's output folder. */
export const FILE_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Save a snapshot of the page to inside.yml.',
    steps: [{ tool: 'browser_snapshot', args: { filename: 'inside.yml' } }],
    answer: 'Saved: {{last:([^\\n]*inside\\.yml[^\\n]*)}}',
  },
];

export function fill(template: string, context: { base: string; results: string[] }): string {
  return template.replace(/\{\{(\w+)(?::(.+?))?\}\}/g, (_all, kind: string, pattern?: string) => {
    if (kind === 'base') return context.base;
    if (kind === 'ref' && pattern) {
      for (const result of [...context.results].reverse()) {
        const line = result.split('\n').find(l => l.includes(pattern) && /\[ref=/.test(l));
        const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
        if (ref) return ref;
      }
      return `no-ref-for-${pattern}`;
    }
    if (kind === 'last' && pattern) {
      const last = context.results.at(-1) ?? '';
      return new RegExp(pattern).exec(last)?.[1] ?? '(not found)';
    }
    if (kind === 'step' && pattern) {
      const [, index, inner] = /^(\d+):(.*)$/.exec(pattern) ?? [];
      const result = context.results[Number(index)] ?? '';
      return new RegExp(inner ?? '').exec(result)?.[1] ?? '(not found)';
    }
    return _all;
  });
}

export function fillArgs(args: Record<string, unknown>, context: { base: string; results: string[] }): Record<string, unknown> {
  return JSON.parse(JSON.stringify(args), (_key, value) => (typeof value === 'string' ? fill(value, context) : value));
}

/** A short session on the export apps (test/fixtures/exportApps.ts) that the person then exports as a Playwright test. */
export const EXPORT_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Add "Buy milk" to the todo list.',
    steps: [
      { tool: 'browser_navigate', args: { url: '{{base}}/todo' } },
      { tool: 'browser_snapshot', args: {} },
      { tool: 'browser_type', args: { element: 'New todo field', target: '{{ref:textbox "What needs to be done?"}}', text: 'Buy milk' } },
      { tool: 'browser_click', args: { element: 'Add button', target: '{{ref:button "Add"}}' } },
      { tool: 'browser_snapshot', args: {} },
    ],
    answer: 'Added: {{last:listitem[^:]*: (Buy milk)}}',
  },
];

/** A form on the time travel apps (test/fixtures/timeTravelApps.ts) sent by chat; the person then goes back to before it was sent. */
export const TIME_TRAVEL_SCENARIO: ScenarioTurn[] = [
  {
    prompt: 'Send the visitor form as Grace.',
    steps: [
      { tool: 'browser_navigate', args: { url: '{{base}}/form' } },
      { tool: 'browser_snapshot', args: {} },
      { tool: 'browser_type', args: { element: 'Name field', target: '{{ref:textbox "Name"}}', text: 'Grace' } },
      { tool: 'browser_click', args: { element: 'Send button', target: '{{ref:button "Send"}}' } },
      { tool: 'browser_snapshot', args: {} },
    ],
    answer: 'Sent: {{last:heading "(Thank you, Grace)"}}',
  },
  {
    prompt: 'What does the page show now?',
    steps: [{ tool: 'browser_snapshot', args: {} }],
    answer: 'Page: {{last:(restored to step \\d+ \\([^)]*\\))}}; {{last:(textbox "Name" \\[ref=\\w+\\])}}',
  },
];
