/**
 * What the bridge's DevTools tools found, as facts: a performance trace's Web Vitals and insights, an
 * accessibility audit's violations, the emulation in force. The child measures (child/devtools/), the host
 * words them for the model (core/pipeline/tools/devtoolsWords.ts) and the panel draws them as cards in
 * Activity (webview/devtoolsCards.ts): one shape for all three. Floor of the tree: imports nothing of ours.
 */
import { z } from 'zod';

/** Web Vitals' own thresholds: good, needs improvement, poor. */
export const RatingSchema = z.enum(['good', 'needs-improvement', 'poor']);
export type Rating = z.infer<typeof RatingSchema>;

/** An element the finding is about: its words (`button "Send"`), the snapshot ref the agent can act on when it has one, and its box. */
export const FindingElementSchema = z.object({
  description: z.string(),
  ref: z.string().optional(),
  /** Where it was on the page when measured, CSS pixels of the viewport: the panel outlines it in the picture. */
  box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
});
export type FindingElement = z.infer<typeof FindingElementSchema>;

/** The throttling of the network: none, offline, DevTools' slow or fast 4G, or the agent's own figures. */
export const ThrottlingSchema = z.enum(['none', 'offline', 'slow4g', 'fast4g', 'custom']);
export type Throttling = z.infer<typeof ThrottlingSchema>;

/** The agent's own network figures (throttling `custom`). */
export const CustomNetworkSchema = z.object({ downloadKbps: z.number().positive(), uploadKbps: z.number().positive(), latencyMs: z.number().min(0) });

/** prefers-color-scheme and prefers-reduced-motion, as the browser emulates them (none: the browser's own). */
export const ColorSchemeSchema = z.enum(['light', 'dark', 'no-preference']);
export const ReducedMotionSchema = z.enum(['reduce', 'no-preference']);

/**
 * What the browser emulates on a context: the network (the Network pane's throttling and Disable cache, or
 * the agent's bridge_emulate), CPU slowdown, colour scheme and reduced motion. Shown in the panel's header
 * while anything is on; gone with the context.
 */
export const EmulationSchema = z.object({
  throttling: ThrottlingSchema,
  custom: CustomNetworkSchema.optional(),
  cacheDisabled: z.boolean(),
  /** 1: the machine's own speed; 4 or 6 as DevTools offers, up to 20. */
  cpuSlowdown: z.number().min(1).max(20).optional(),
  colorScheme: ColorSchemeSchema.optional(),
  reducedMotion: ReducedMotionSchema.optional(),
});
export type Emulation = z.infer<typeof EmulationSchema>;

export const NO_EMULATION: Emulation = { throttling: 'none', cacheDisabled: false };

export const TraceInsightSchema = z.object({
  /** The trace engine's name (`RenderBlocking`, `LCPDiscovery`, …): the same names Chrome DevTools shows. */
  name: z.string(),
  /** Its title as DevTools words it. */
  title: z.string(),
  state: z.enum(['fail', 'warning', 'informative']),
  /** What it may save, as the trace engine estimates it. */
  savingsMs: z.number().optional(),
  savingsBytes: z.number().optional(),
  /** What it is about: requests, elements, scripts, at most a few. */
  items: z.array(z.string()).max(10),
  /** The insight's page in Chrome's documentation, as the trace engine names it (https only). */
  docs: z.string().url().startsWith('https://').optional(),
});
export type TraceInsight = z.infer<typeof TraceInsightSchema>;

/** What a trace records: the page's reload, a navigation, the agent's next call, or a number of seconds. */
export const TraceDuringSchema = z.enum(['reload', 'navigate', 'nextCall', 'seconds']);

export const TraceFactsSchema = z.object({
  /** The page traced (masked like every URL that leaves). */
  url: z.string(),
  /** What was measured: the page's reload, a navigation, the agent's next call, or a number of seconds. */
  during: TraceDuringSchema,
  /** The call measured, for `nextCall`. */
  measuredCall: z.string().optional(),
  /** How long the recorded action itself took, and how long recording and reading the trace added around it. */
  actionMs: z.number(),
  /** The trace file in the output folder (relative to it), openable in Chrome DevTools' Performance panel. */
  file: z.string().optional(),
  /** Why no file was kept: none of its events fit under the output folder's budget, or writing it failed. */
  noFile: z
    .discriminatedUnion('why', [z.object({ why: z.literal('budget'), limitBytes: z.number() }), z.object({ why: z.literal('write'), detail: z.string() })])
    .optional(),
  /** What the trace's file was cut of to keep it bounded as a whole (its metadata says the same): texts cut short, events left out. */
  cut: z.object({ textsCut: z.number(), eventsLeftOut: z.number(), limitBytes: z.number() }).optional(),
  /** The page kept the browser from handing the trace over: its scripts were paused this long until it did. */
  pausedScriptsMs: z.number().optional(),
  lcp: z
    .object({
      ms: z.number(),
      rating: RatingSchema,
      /** LCP's phases as DevTools names them: time to first byte, load delay, load duration, render delay. */
      phases: z.object({ ttfbMs: z.number(), loadDelayMs: z.number().optional(), loadDurationMs: z.number().optional(), renderDelayMs: z.number() }).optional(),
      element: FindingElementSchema.optional(),
      /** The resource the LCP element painted (an image), when it was one. */
      url: z.string().optional(),
    })
    .optional(),
  cls: z.object({ value: z.number(), rating: RatingSchema, culprits: z.array(z.string()).max(10) }),
  inp: z.object({ ms: z.number(), rating: RatingSchema, interaction: z.string().optional() }).optional(),
  insights: z.array(TraceInsightSchema),
  /** Insights DevTools' engine could not compute on this trace, each with its error: the answer says so. */
  notComputed: z.array(z.object({ name: z.string(), why: z.string() })).optional(),
  /** What the browser emulated while it was recorded (it shapes every figure). */
  emulation: EmulationSchema,
});
export type TraceFacts = z.infer<typeof TraceFactsSchema>;

export const ImpactSchema = z.enum(['critical', 'serious', 'moderate', 'minor']);
export type Impact = z.infer<typeof ImpactSchema>;

export const AuditViolationSchema = z.object({
  /** axe-core's rule id (`label`, `color-contrast`, `region`, `aria-allowed-attr`, …). */
  rule: z.string(),
  impact: ImpactSchema,
  /** What the rule asks, in axe's words, and where it explains it. */
  help: z.string(),
  helpUrl: z.string(),
  /** The elements that fail it (at most 20 per rule; `more` counts the rest), each with how to fix it. */
  nodes: z.array(FindingElementSchema.extend({ fix: z.string() })).max(20),
  more: z.number(),
});
export type AuditViolation = z.infer<typeof AuditViolationSchema>;

export const AuditFactsSchema = z.object({
  url: z.string(),
  /** The element audited (its ref), or the whole page. */
  scope: z.string().optional(),
  violations: z.array(AuditViolationSchema),
  /** How many rules passed, and how many axe could not decide (needs a person's look). */
  passes: z.number(),
  incomplete: z.number(),
  engine: z.string(),
});
export type AuditFacts = z.infer<typeof AuditFactsSchema>;

/** Why a DevTools tool did nothing. */
export const DevtoolsRefusalSchema = z.discriminatedUnion('why', [
  z.object({ why: z.literal('engine'), engine: z.string() }),
  z.object({ why: z.literal('noPage') }),
  z.object({ why: z.literal('busy') }),
  z.object({ why: z.literal('badArgs'), detail: z.string() }),
  z.object({ why: z.literal('refNotFound'), ref: z.string() }),
  z.object({ why: z.literal('failed'), detail: z.string() }),
]);
export type DevtoolsRefusal = z.infer<typeof DevtoolsRefusalSchema>;

/**
 * A DevTools tool's answer (and a trace the agent's next call finished, on that call's result): the card the
 * panel shows in Activity is built from the same facts.
 */
/** One insight of the last trace in detail (bridge_performance_trace with `insight`): its lines, elements with their refs. */
export const InsightDetailSchema = z.object({ name: z.string(), title: z.string(), lines: z.array(z.string()).max(60) });

export const DevtoolsAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('trace'), trace: TraceFactsSchema }),
  z.object({ kind: z.literal('insight'), insight: InsightDetailSchema }),
  z.object({ kind: z.literal('traceStarted') }),
  z.object({ kind: z.literal('audit'), audit: AuditFactsSchema }),
  z.object({ kind: z.literal('emulation'), emulation: EmulationSchema }),
  z.object({ kind: z.literal('refused'), refusal: DevtoolsRefusalSchema }),
]);
export type DevtoolsAnswer = z.infer<typeof DevtoolsAnswerSchema>;

/** A card in Activity: a trace's or an audit's facts. */
export const DevtoolsCardSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('trace'), trace: TraceFactsSchema }),
  z.object({ kind: z.literal('audit'), audit: AuditFactsSchema }),
]);
export type DevtoolsCard = z.infer<typeof DevtoolsCardSchema>;

/** Web Vitals' thresholds (web.dev): LCP 2.5 s / 4 s, CLS 0.1 / 0.25, INP 200 ms / 500 ms. */
export function rate(metric: 'lcp' | 'cls' | 'inp', value: number): Rating {
  const [good, poor] = metric === 'lcp' ? [2500, 4000] : metric === 'cls' ? [0.1, 0.25] : [200, 500];
  return value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
}
