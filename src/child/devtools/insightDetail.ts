/**
 * One insight of a trace in detail, as chrome-devtools-mcp's `performance_analyze_insight` gives it: each layout
 * shift's time, score, the elements it moved and what caused it (CLSCulprits); INP's input delay, processing and
 * presentation (INPBreakdown); LCP's phases (LCPBreakdown); for any other insight, what it is about. Read off the
 * engine's model of the session's last trace (traceFacts.ts keeps it); the elements are said in words with their
 * snapshot refs when the page still holds them.
 */

/** An insight's detail: lines of words, where `{node:<id>}` stands for an element the page is asked about at the end. */
export interface RawInsightDetail {
  name: string;
  title: string;
  lines: string[];
}

/** The details of a trace's insights, by name, and the names there are. */
export interface InsightDetails {
  names: string[];
  of(name: string): RawInsightDetail | undefined;
}

interface LayoutShift {
  ts: number;
  args?: { data?: { weighted_score_delta?: number; impacted_nodes?: { node_id?: number }[] } };
}
interface ShiftCauses {
  iframes?: { url?: string }[];
  unsizedImages?: { backendNodeId?: number }[];
  webFonts?: { args?: { data?: { url?: string } } }[];
  nonCompositedAnimations?: unknown[];
}

const ms = (micro: number) => Math.round(micro / 1000);

/** `{node:<id>}`: an element to be said in words (insightWords in devtoolsTools.ts). */
export const NODE_MARK = /\{node:(\d+)\}/g;

function clsLines(model: Record<string, unknown>, start: number): string[] {
  const clusters = (model.clusters as { events?: LayoutShift[]; clusterCumulativeScore?: number }[] | undefined) ?? [];
  const causes = model.shifts instanceof Map ? (model.shifts as Map<LayoutShift, ShiftCauses>) : new Map<LayoutShift, ShiftCauses>();
  const lines: string[] = [];
  for (const [index, cluster] of clusters.entries()) {
    const events = cluster.events ?? [];
    lines.push(
      `Cluster ${index + 1}: ${events.length} shift${events.length === 1 ? '' : 's'}, score ${Math.round((cluster.clusterCumulativeScore ?? 0) * 10000) / 10000}`,
    );
    for (const shift of events.slice(0, 15)) {
      const data = shift.args?.data;
      const moved = [...new Set((data?.impacted_nodes ?? []).flatMap(node => (node.node_id !== undefined ? [node.node_id] : [])))].slice(0, 5);
      const cause = causes.get(shift);
      const why = [
        ...(cause?.iframes ?? []).map(frame => `an injected iframe${frame.url ? ` ${frame.url}` : ''}`),
        ...(cause?.unsizedImages ?? []).map(image => `an unsized image${image.backendNodeId !== undefined ? ` {node:${image.backendNodeId}}` : ''}`),
        ...(cause?.webFonts ?? []).map(font => `a web font${font.args?.data?.url ? ` ${font.args.data.url}` : ''}`),
        ...((cause?.nonCompositedAnimations?.length ?? 0) ? ['an animation the compositor could not run'] : []),
      ];
      lines.push(
        `  Shift at ${ms(shift.ts - start)} ms, score ${Math.round((data?.weighted_score_delta ?? 0) * 10000) / 10000}` +
          `${moved.length ? `; moved ${moved.map(id => `{node:${id}}`).join(', ')}` : ''}` +
          `${why.length ? `; caused by ${why.join(', ')}` : '; no cause found (content added above it, or a size that changed)'}`,
      );
    }
  }
  return lines.length ? lines : ['No layout shifts in this trace.'];
}

function inpLines(model: Record<string, unknown>): string[] {
  const event = model.longestInteractionEvent as
    { type?: string; dur?: number; inputDelay?: number; mainThreadHandling?: number; presentationDelay?: number } | undefined;
  if (!event) return ['No interaction in this trace (record with during "nextCall" and click or type in that call).'];
  return [
    `The slowest interaction: a ${event.type ?? 'input'}, ${ms(event.dur ?? 0)} ms in all`,
    `  Input delay ${ms(event.inputDelay ?? 0)} ms: from the input to its handlers starting (other work held the main thread)`,
    `  Processing ${ms(event.mainThreadHandling ?? 0)} ms: the event handlers themselves`,
    `  Presentation delay ${ms(event.presentationDelay ?? 0)} ms: from the handlers' end to the next frame painted`,
  ];
}

function lcpLines(model: Record<string, unknown>): string[] {
  const subparts = model.subparts as Record<string, { range?: number } | undefined> | undefined;
  const event = model.lcpEvent as { args?: { data?: { nodeId?: number } } } | undefined;
  if (!subparts) return ['No LCP in this trace.'];
  const words: Record<string, string> = { ttfb: 'Time to first byte', loadDelay: 'Load delay', loadDuration: 'Load duration', renderDelay: 'Render delay' };
  return [
    ...(event?.args?.data?.nodeId !== undefined ? [`The LCP element: {node:${event.args.data.nodeId}}`] : []),
    ...Object.entries(words).flatMap(([key, label]) => (subparts[key] ? [`  ${label} ${ms(subparts[key]!.range ?? 0)} ms`] : [])),
  ];
}

/** The details of an insight set's insights; `items` are the lines the answer already gave for each. */
export function insightDetailsOf(
  set: { model: Record<string, Record<string, unknown> | undefined>; navigation?: { ts?: number }; bounds?: { min?: number } },
  titles: Record<string, string>,
  items: Record<string, string[]>,
): InsightDetails {
  const start = set.navigation?.ts ?? set.bounds?.min ?? 0;
  const names = Object.keys(set.model).filter(name => set.model[name]);
  return {
    names,
    of(name) {
      const model = set.model[name];
      if (!model) return undefined;
      const state = typeof model.state === 'string' ? model.state : 'unknown';
      const lines =
        name === 'CLSCulprits'
          ? clsLines(model, start)
          : name === 'INPBreakdown'
            ? inpLines(model)
            : name === 'LCPBreakdown'
              ? lcpLines(model)
              : items[name]?.length
                ? items[name]
                : ['Nothing more to say: it names no requests, scripts or elements.'];
      return { name, title: `${titles[name] ?? name} (${state === 'pass' ? 'passed' : state})`, lines: lines.slice(0, 60) };
    },
  };
}
