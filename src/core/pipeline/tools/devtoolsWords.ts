/**
 * The DevTools tools in words: the child answers bridge_performance_trace, bridge_accessibility_audit and
 * bridge_emulate with facts (protocol/devtoolsFacts.ts); this is where the model's sentences for them are
 * written, short enough to act on: the vitals with their ratings, then each finding with what to change.
 */
import type { AuditFacts, DevtoolsAnswer, DevtoolsRefusal, Emulation, Rating, TraceFacts, TraceInsight } from '../../../protocol/devtoolsFacts';
import { auditFixWords, insightAdvice, insightSavings } from '../../../protocol/devtoolsAdvice';

const RATING_WORDS: Record<Rating, string> = { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' };

function insightLine(insight: TraceInsight): string {
  const saves = insightSavings(insight);
  const items = insight.items.length ? `\n    ${insight.items.slice(0, 5).join('\n    ')}` : '';
  const whatToChange = insightAdvice(insight.name);
  const advice = whatToChange ? `\n    What to change: ${whatToChange}` : '';
  return `- ${insight.title} (${insight.name}, ${insight.state}${saves ? `; ${saves}` : ''})${items}${advice}`;
}

export function traceText(trace: TraceFacts): string {
  const what =
    trace.during === 'nextCall'
      ? `of ${trace.measuredCall ?? 'the call'}`
      : trace.during === 'seconds'
        ? 'of the seconds recorded'
        : `of the page's ${trace.during === 'reload' ? 'reload' : 'navigation'}`;
  const emulated = emulationParts(trace.emulation);
  const lines = [
    `Performance trace ${what} on ${trace.url} (${trace.actionMs} ms${emulated.length ? `; while emulating ${emulated.join(', ')}` : ''}).`,
    '',
    'Core Web Vitals (lab):',
  ];
  if (trace.lcp) {
    const phases = trace.lcp.phases;
    const phaseWords = phases
      ? ` — time to first byte ${phases.ttfbMs} ms${phases.loadDelayMs !== undefined ? `, load delay ${phases.loadDelayMs} ms` : ''}` +
        `${phases.loadDurationMs !== undefined ? `, load duration ${phases.loadDurationMs} ms` : ''}, render delay ${phases.renderDelayMs} ms`
      : '';
    const element = trace.lcp.element ? `; element ${trace.lcp.element.description}${trace.lcp.element.ref ? ` [ref=${trace.lcp.element.ref}]` : ''}` : '';
    lines.push(`- LCP ${trace.lcp.ms} ms (${RATING_WORDS[trace.lcp.rating]})${phaseWords}${element}${trace.lcp.url ? `; image ${trace.lcp.url}` : ''}`);
  } else {
    lines.push('- LCP: none in this trace (no page load was recorded, or nothing was painted).');
  }
  lines.push(`- CLS ${trace.cls.value} (${RATING_WORDS[trace.cls.rating]})${trace.cls.culprits.length ? ` — culprits: ${trace.cls.culprits.join('; ')}` : ''}`);
  lines.push(
    trace.inp
      ? `- INP ${trace.inp.ms} ms (${RATING_WORDS[trace.inp.rating]})${trace.inp.interaction ? `, a ${trace.inp.interaction}` : ''}`
      : '- INP: no interaction in this trace (record with during "nextCall" and click or type in that call).',
  );
  lines.push('', trace.insights.length ? "Insights (DevTools' names):" : 'Insights: none failed.');
  for (const insight of trace.insights) lines.push(insightLine(insight));
  if (trace.notComputed?.length) {
    lines.push(
      '',
      `Not computed (DevTools' trace engine failed on them, so whether they pass is unknown): ${trace.notComputed.map(n => `${n.name} (${n.why})`).join('; ')}.`,
    );
  }
  const file = traceFileWords(trace);
  if (file.length) lines.push('', ...file);
  return lines.join('\n');
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Where the trace's file is and what was cut of it, or why there is none: never a file that is not in the folder. */
function traceFileWords(trace: TraceFacts): string[] {
  const lines: string[] = [];
  if (trace.pausedScriptsMs) {
    lines.push(
      `The page kept the browser too busy to hand the trace over: its scripts were paused for ${Math.round(trace.pausedScriptsMs / 100) / 10} s until it did, ` +
        'so its timers that fell due meanwhile did not run.',
    );
  }
  const holds = 'It holds no screenshots, cookies or authorization headers; secrets are masked.';
  if (trace.file && !trace.cut) {
    lines.push(`The whole trace is in the output folder as ${trace.file}: load it in Chrome DevTools' Performance panel. ${holds}`);
  } else if (trace.file && trace.cut) {
    const cut = [
      trace.cut.textsCut ? `${counted(trace.cut.textsCut, 'long text the page wrote was', 'long texts the page wrote were')} cut short` : '',
      trace.cut.eventsLeftOut ? `${counted(trace.cut.eventsLeftOut, 'event was', 'events were')} left out` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    lines.push(
      `The trace is in the output folder as ${trace.file}: load it in Chrome DevTools' Performance panel. ${cut} to keep it bounded ` +
        `(within ${megabytes(trace.cut.limitBytes)}, under the output folder's budget); its metadata says so. ${holds}`,
    );
  } else if (trace.noFile?.why === 'budget') {
    lines.push(
      `No trace file was kept: not one of its events fits in ${megabytes(trace.noFile.limitBytes)}, the output folder's budget (playwrightBridge.outputMaxSizeMB).`,
    );
  } else if (trace.noFile?.why === 'write') {
    lines.push(`No trace file was written: ${trace.noFile.detail}`);
  }
  return lines;
}

export function auditText(audit: AuditFacts): string {
  const scope = audit.scope ? `element ${audit.scope}` : 'the page';
  if (!audit.violations.length) {
    return `Accessibility audit of ${scope} on ${audit.url} (${audit.engine}): no violations. ${audit.passes} rules passed; ${audit.incomplete} need a person's look (axe could not decide).`;
  }
  const count = audit.violations.reduce((sum, v) => sum + v.nodes.length + v.more, 0);
  const lines = [
    `Accessibility audit of ${scope} on ${audit.url} (${audit.engine}): ${audit.violations.length} rule${audit.violations.length === 1 ? '' : 's'} violated on ${count} element${count === 1 ? '' : 's'}, by impact:`,
  ];
  for (const v of audit.violations) {
    lines.push('', `- ${v.impact}: ${v.help} (${v.rule}, ${v.helpUrl})`);
    for (const node of v.nodes) {
      const fix = auditFixWords(node.fix);
      lines.push(`  - ${node.ref ? `[ref=${node.ref}] ` : ''}${node.description}${fix ? ` — fix: ${fix.slice(0, 300)}` : ''}`);
    }
    if (v.more) lines.push(`  - and ${v.more} more element${v.more === 1 ? '' : 's'}`);
  }
  lines.push('', `${audit.passes} rules passed; ${audit.incomplete} need a person's look. Frames were not audited.`);
  return lines.join('\n');
}

/** What the browser emulates, one phrase each (empty: nothing). */
function emulationParts(emulation: Emulation): string[] {
  const on: string[] = [];
  if (emulation.throttling === 'offline') on.push('network offline');
  if (emulation.throttling === 'slow4g') on.push("network slow 4G (DevTools' preset)");
  if (emulation.throttling === 'fast4g') on.push("network fast 4G (DevTools' preset)");
  if (emulation.throttling === 'custom' && emulation.custom)
    on.push(`network ${emulation.custom.downloadKbps} kbit/s down, ${emulation.custom.uploadKbps} kbit/s up, ${emulation.custom.latencyMs} ms latency`);
  if (emulation.cacheDisabled) on.push("cache disabled (the person's Network pane)");
  if ((emulation.cpuSlowdown ?? 1) > 1) on.push(`CPU ${emulation.cpuSlowdown}× slower`);
  if (emulation.colorScheme) on.push(`prefers-color-scheme: ${emulation.colorScheme}`);
  if (emulation.reducedMotion) on.push(`prefers-reduced-motion: ${emulation.reducedMotion}`);
  return on;
}

export function emulationText(emulation: Emulation): string {
  const on = emulationParts(emulation);
  return on.length
    ? `The browser now emulates: ${on.join('; ')}. It stays on for this session until changed or reset (reset: true).`
    : "The browser emulates nothing now: network, CPU and media are the machine's own.";
}

function refusalText(refusal: DevtoolsRefusal, tool: string): string {
  switch (refusal.why) {
    case 'engine':
      return `${tool} needs Chromium's DevTools protocol; this browser is ${refusal.engine}. Set playwrightBridge.browser to chromium, chrome or msedge to use it. Nothing was done.`;
    case 'noPage':
      return `${tool} works on the current tab, and no page is open yet: open one with browser_navigate first.`;
    case 'busy':
      return 'A performance trace is already waiting for your next call (during "nextCall"): make that call first; its answer carries the trace.';
    case 'badArgs':
      return `Invalid arguments for tool "${tool}": ${refusal.detail}. Nothing was done.`;
    case 'refNotFound':
      return `No element with ref "${refusal.ref}" is on the page now (or it is not visible): take a new snapshot and use a ref from it.`;
    case 'failed':
      return `${tool} failed: ${refusal.detail}`;
  }
}

/** A DevTools tool's answer as the model reads it; `refused` when it did nothing. */
export function devtoolsText(answer: DevtoolsAnswer, tool: string): { text: string; refused: boolean } {
  switch (answer.kind) {
    case 'trace':
      return { text: traceText(answer.trace), refused: false };
    case 'insight':
      return { text: [`${answer.insight.title}, ${answer.insight.name}, in the last trace:`, ...answer.insight.lines].join('\n'), refused: false };
    case 'traceStarted':
      return {
        text: 'Recording a performance trace: make your next browser call now (a click, typing, a navigation). Its answer ends with the trace.',
        refused: false,
      };
    case 'audit':
      return { text: auditText(answer.audit), refused: false };
    case 'emulation':
      return { text: emulationText(answer.emulation), refused: false };
    case 'refused':
      return { text: refusalText(answer.refusal, tool), refused: true };
  }
}
