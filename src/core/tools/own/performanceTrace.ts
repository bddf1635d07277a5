/** bridge_performance_trace: a Chrome DevTools trace of the caller's tab while something happens (child/devtools/). */
import { z } from 'zod';
import { TraceDuringSchema } from '../../../protocol/devtoolsFacts';
import { defineOwnTool } from '../defineOwnTool';
import { short } from '../callWords';

export const PERFORMANCE_TRACE = defineOwnTool({
  name: 'bridge_performance_trace',
  title: 'Record a performance trace',
  description:
    'Playwright Bridge: records a Chrome DevTools performance trace of the current tab while something happens, and answers ' +
    "with its Core Web Vitals (LCP with its phases and element, CLS with the shifts' culprits, INP when there was an interaction) and " +
    "DevTools' insights (render-blocking requests, LCP request discovery, document latency, forced reflow, third parties, …), each with " +
    'what to change. during: "reload" (default: reloads the current page from a blank tab), "navigate" (opens url), "nextCall" (measures ' +
    'your next browser call, such as a click, for INP: its answer carries the trace), or "seconds". The whole trace is saved in the output ' +
    "folder and opens in Chrome DevTools' Performance panel. Chromium only.",
  input: z.object({
    during: TraceDuringSchema.optional().describe('What to record. Default: reload.'),
    url: z.string().optional().describe('For "navigate": the address to open while recording.'),
    seconds: z.number().min(1).max(60).optional().describe('For "seconds": how long to record (default 5).'),
    filename: z.string().optional().describe('File name for the trace (.json) in the output folder. Default: trace-<time>.json.'),
    insight: z
      .string()
      .max(60)
      .optional()
      .describe(
        "Records nothing: answers one insight of this session's last trace in detail, by its name there (CLSCulprits: each shift's time, " +
          'score, moved elements and cause; INPBreakdown: input delay, processing and presentation; LCPBreakdown: its phases and element; ' +
          'others: what they are about).',
      ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  // A trace reloads or navigates the page (its checkpoint follows); the trace step exports as a comment.
  traits: { handler: 'child', onPage: true, actsOnPage: true, observation: false, exportAs: 'comment', filename: 'writes' },
  says: a =>
    a.insight !== undefined
      ? `Reading the ${short(a.insight)} insight of the last trace`
      : a.during === 'navigate'
        ? `Recording a performance trace of opening ${short(a.url)}`
        : a.during === 'nextCall'
          ? 'Recording a performance trace of the next call'
          : a.during === 'seconds'
            ? `Recording a performance trace for ${short(a.seconds ?? 5)} s`
            : 'Recording a performance trace of a reload',
});
