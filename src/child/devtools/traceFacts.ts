/**
 * A recorded trace read by Chrome DevTools' own trace engine (`@paulirish/trace_engine`, the Performance
 * panel's model as published on npm, bundled into the child): the Web Vitals and the insights of the page's
 * navigation, as facts. The engine's API is not stable (its README says so), so what we read of it is named
 * here, in one small shape, and the pinned version is tested by test/real/devtoolsTools.test.ts.
 */
import type { TraceInsight } from '../../protocol/devtoolsFacts';
import { isDocsLink } from '../../protocol/devtoolsAdvice';
import type { TraceEvent } from './traceRecorder';
import { insightDetailsOf, type InsightDetails } from './insightDetail';

/** The parts of a trace engine insight we read (the rest of each model is the insight's own detail). */
interface InsightModel {
  state: 'pass' | 'fail' | 'warning' | 'informative';
  strings?: { title?: string };
  docs?: string;
  metricSavings?: Record<string, number | undefined>;
  wastedBytes?: number;
  relatedEvents?: unknown;
  checklist?: Record<string, { label: unknown; value: boolean }>;
  [detail: string]: unknown;
}
interface InsightSet {
  id: string;
  url: URL;
  navigation?: { ts?: number };
  bounds?: { min?: number };
  model: Record<string, InsightModel>;
  /** The insights whose computation threw, with what they threw (left out of `model`). */
  modelErrors?: Record<string, unknown>;
}
interface Engine {
  TraceModel: {
    Model: {
      createWithAllHandlers(): { parse(events: unknown[]): Promise<void>; parsedTrace(): { insights: Map<string, InsightSet> | null; data: unknown } | null };
    };
  };
  Insights: {
    /** Every insight the engine computes, by name. */
    Models: Record<string, unknown>;
    Common: {
      getLCP(set: InsightSet): { value: number; event: unknown } | null;
      getINP(set: InsightSet): { value: number; event: { type?: string } } | null;
      getCLS(set: InsightSet): { value: number };
    };
  };
}

let engine: Promise<Engine> | undefined;

/** The engine, loaded on the first trace (nothing of it is loaded while no one traces). */
function loadEngine(): Promise<Engine> {
  // DevTools' model expects a browser: DOMRect is the one global it needs in Node.
  (globalThis as { DOMRect?: unknown }).DOMRect ??= class DOMRect {
    readonly top: number;
    readonly left: number;
    readonly right: number;
    readonly bottom: number;
    constructor(
      readonly x = 0,
      readonly y = 0,
      readonly width = 0,
      readonly height = 0,
    ) {
      this.top = y;
      this.left = x;
      this.right = x + width;
      this.bottom = y + height;
    }
  };
  return (engine ??= import('@paulirish/trace_engine') as unknown as Promise<Engine>);
}

/** What the trace says of the page's main navigation (or of the whole trace when it has none). */
export interface ParsedTrace {
  lcp?: { ms: number; phases?: { ttfbMs: number; loadDelayMs?: number; loadDurationMs?: number; renderDelayMs: number }; nodeId?: number; url?: string };
  cls: { value: number; culprits: string[]; unsizedImageNodes: number[] };
  inp?: { ms: number; interaction?: string };
  insights: TraceInsight[];
  /** Insights the engine failed to compute on this trace, with its error: said, never left out silently. */
  notComputed: { name: string; why: string }[];
  /** Each insight in detail, for the agent's drill-down (bridge_performance_trace with `insight`). */
  details: InsightDetails;
}

const ms = (micro: number) => Math.round(micro / 1000);
const rangeMs = (part: unknown) => ms(Number((part as { range?: number } | undefined)?.range ?? 0));

/** The URLs of the requests an insight names (its related events that are requests), at most a few. */
function requestUrls(events: unknown, max = 5): string[] {
  const urls = new Set<string>();
  const list = Array.isArray(events) ? events : events instanceof Map ? [...events.keys()] : [];
  for (const event of list as { name?: string; args?: { data?: { url?: string } } }[]) {
    const url = event?.args?.data?.url;
    if (event?.name === 'SyntheticNetworkRequest' && url) urls.add(url);
    if (urls.size >= max) break;
  }
  return [...urls];
}

/** A string of DevTools' model: plain, or its i18n form `{ i18nId, values }` with `{PH1}` placeholders. */
function wordsOf(value: unknown): string {
  if (value && typeof value === 'object' && 'i18nId' in value) {
    const { i18nId, values } = value as { i18nId: string; values?: Record<string, unknown> };
    return String(i18nId).replace(/\{(\w+)\}/g, (all, key: string) => (values && key in values ? String(values[key]) : all));
  }
  return String(value ?? '');
}

/** One function that forced layout, as the engine adds it up: where it is, and its time in microseconds. */
interface ReflowSource {
  bottomUpData?: { functionName?: string; url?: string; lineNumber?: number };
  totalTime?: number;
}

/**
 * The functions that forced layout, longest first. Code without a URL is not the page's files: Playwright's own
 * checks before a click run so (as eval'd code does), so it is summed on one line of its own, not named as page code.
 */
function forcedReflowItems(sources: ReflowSource[]): string[] {
  const items: string[] = [];
  let withoutUrl = 0;
  for (const source of [...sources].sort((a, b) => (b.totalTime ?? 0) - (a.totalTime ?? 0))) {
    const where = source.bottomUpData;
    if (!where) items.push(`unattributed: ${ms(source.totalTime ?? 0)} ms forced reflow`);
    else if (!where.url) withoutUrl += source.totalTime ?? 0;
    else items.push(`${where.functionName || '(anonymous)'} ${where.url}:${(where.lineNumber ?? 0) + 1}: ${ms(source.totalTime ?? 0)} ms forced reflow`);
  }
  if (ms(withoutUrl)) items.push(`code without a URL (Playwright's own checks before an action, or eval'd code): ${ms(withoutUrl)} ms forced reflow`);
  return items.slice(0, 5);
}

/** What an insight is about, as short lines: what it failed of its checklist, its requests, its own detail. */
function itemsOf(name: string, model: InsightModel): string[] {
  const items: string[] = [];
  // DevTools words a check as what should hold and marks it passed or failed beside it: the mark is said in words.
  for (const entry of Object.values(model.checklist ?? {})) if (entry && entry.value === false) items.push(`Check failed: ${wordsOf(entry.label)}`);
  if (name === 'ThirdParties' && Array.isArray(model.entitySummaries)) {
    for (const summary of (model.entitySummaries as { entity?: { name?: string }; transferSize?: number; mainThreadTime?: number }[]).slice(0, 5)) {
      items.push(
        `${summary.entity?.name ?? 'unknown'}: ${Math.round((summary.transferSize ?? 0) / 1024)} KB, ${Math.round(summary.mainThreadTime ?? 0)} ms on the main thread`,
      );
    }
  } else if (name === 'ForcedReflow' && Array.isArray(model.aggregatedBottomUpData)) {
    items.push(...forcedReflowItems(model.aggregatedBottomUpData as ReflowSource[]));
  } else if (name === 'RenderBlocking' && Array.isArray(model.renderBlockingRequests)) {
    items.push(...requestUrls(model.renderBlockingRequests));
  } else if (name === 'Cache' && Array.isArray(model.requests)) {
    items.push(...requestUrls((model.requests as { request?: unknown }[]).map(entry => entry.request)));
  } else if (name !== 'CLSCulprits' && name !== 'LCPBreakdown' && name !== 'INPBreakdown') {
    items.push(...requestUrls(model.relatedEvents));
  }
  return items.slice(0, 10).map(item => item.slice(0, 300));
}

function savingsOf(model: InsightModel): { savingsMs?: number; savingsBytes?: number } {
  const timeSaved = Math.max(
    0,
    ...Object.values(model.metricSavings ?? {})
      .map(value => Number(value ?? 0))
      .filter(value => value > 0 && value < 1e6),
  );
  return { ...(timeSaved ? { savingsMs: Math.round(timeSaved) } : {}), ...(model.wastedBytes ? { savingsBytes: Math.round(model.wastedBytes) } : {}) };
}

/**
 * The trace read as DevTools reads it: the insight set of the page's last navigation in the trace (a reload
 * starts from about:blank, which has a set of its own), else the trace's only set.
 */
export async function parseTrace(events: TraceEvent[]): Promise<ParsedTrace> {
  const { TraceModel, Insights } = await loadEngine();
  const model = TraceModel.Model.createWithAllHandlers();
  await model.parse(events);
  const sets = [...(model.parsedTrace()?.insights?.values() ?? [])].filter(set => set.url?.href !== 'about:blank');
  const set = [...sets].reverse().find(candidate => candidate.navigation) ?? sets.at(-1);
  if (!set) return { cls: { value: 0, culprits: [], unsizedImageNodes: [] }, insights: [], notComputed: [], details: { names: [], of: () => undefined } };

  const lcp = Insights.Common.getLCP(set);
  const breakdown = set.model.LCPBreakdown as
    | (InsightModel & {
        subparts?: Record<string, unknown>;
        lcpEvent?: { args?: { data?: { nodeId?: number } } };
        lcpRequest?: { args?: { data?: { url?: string } } };
      })
    | undefined;
  const subparts = breakdown?.subparts;
  const inp = Insights.Common.getINP(set);
  const culpritModel = set.model.CLSCulprits as
    | (InsightModel & { worstCluster?: unknown; topCulpritsByCluster?: Map<unknown, { description: string; url?: string; backendNodeId?: number }[]> })
    | undefined;
  type Culprit = { description: unknown; url?: string; backendNodeId?: number };
  const culprits: Culprit[] = (culpritModel?.worstCluster ? culpritModel.topCulpritsByCluster?.get(culpritModel.worstCluster) : undefined) ?? [];
  // The engine's words for each (its i18n form, as every string of its model), once each: a shift per frame names one twice.
  const culpritWords = [...new Set(culprits.map(c => `${wordsOf(c.description)}${c.url ? ` ${c.url}` : ''}`))].slice(0, 10);
  // Each insight the engine has is in the set's models or its errors: one in neither was not computed either, and is said so.
  const notComputed = Object.keys(Insights.Models)
    .filter(name => !set.model[name])
    .map(name => {
      const error = set.modelErrors?.[name];
      return { name, why: error ? (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200) : 'the engine did not run it' };
    });

  const insights: TraceInsight[] = [];
  for (const [name, insight] of Object.entries(set.model) as [string, InsightModel | undefined][]) {
    // DevTools lists what did not pass (its trace summary does the same).
    if (!insight || !insight.state || insight.state === 'pass') continue;
    insights.push({
      name,
      title: wordsOf(insight.strings?.title ?? name),
      state: insight.state,
      ...savingsOf(insight),
      items: name === 'CLSCulprits' ? culpritWords : itemsOf(name, insight),
      ...(isDocsLink(insight.docs) ? { docs: insight.docs } : {}),
    });
  }
  return {
    ...(lcp
      ? {
          lcp: {
            ms: ms(lcp.value),
            ...(subparts
              ? {
                  phases: {
                    ttfbMs: rangeMs(subparts.ttfb),
                    ...(subparts.loadDelay !== undefined ? { loadDelayMs: rangeMs(subparts.loadDelay) } : {}),
                    ...(subparts.loadDuration !== undefined ? { loadDurationMs: rangeMs(subparts.loadDuration) } : {}),
                    renderDelayMs: rangeMs(subparts.renderDelay),
                  },
                }
              : {}),
            ...(breakdown?.lcpEvent?.args?.data?.nodeId !== undefined ? { nodeId: breakdown.lcpEvent.args.data.nodeId } : {}),
            ...(breakdown?.lcpRequest?.args?.data?.url ? { url: breakdown.lcpRequest.args.data.url } : {}),
          },
        }
      : {}),
    cls: {
      value: Math.round(Insights.Common.getCLS(set).value * 1000) / 1000,
      culprits: culpritWords,
      unsizedImageNodes: culprits.flatMap(c => (c.backendNodeId !== undefined ? [c.backendNodeId] : [])),
    },
    ...(inp ? { inp: { ms: ms(inp.value), ...(inp.event.type ? { interaction: inp.event.type } : {}) } } : {}),
    insights,
    notComputed,
    details: insightDetailsOf(
      set as unknown as Parameters<typeof insightDetailsOf>[0],
      Object.fromEntries(Object.entries(set.model).map(([name, model]) => [name, wordsOf(model?.strings?.title ?? name)])),
      Object.fromEntries(Object.entries(set.model).map(([name, model]) => [name, name === 'CLSCulprits' ? culpritWords : model ? itemsOf(name, model) : []])),
    ),
  };
}
