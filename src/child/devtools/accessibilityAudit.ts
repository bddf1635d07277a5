/**
 * An accessibility audit of the agent's page (or one element of it) with axe-core, run in an isolated world
 * of the page's main frame (isolatedWorld.ts): the page's scripts cannot see axe, call it, or change what it
 * reports by replacing DOM methods, and nothing of it stays in the page. Violations only, by impact, each
 * element with its own snapshot ref or none (snapshotRefs.ts), its box for the panel's outline, and axe's fix.
 * Frames are not audited (axe would have to be injected into each).
 */
import { readFileSync } from 'fs';
import type { BrowserContext, Page } from 'playwright';
import type { AuditFacts, AuditViolation, Impact } from '../../protocol/devtoolsFacts';
import { DESCRIBE_ELEMENT, type DescribedElement, isolatedWorld } from './isolatedWorld';
import { SnapshotRefs } from './snapshotRefs';

/** axe-core's minified source: inlined into dist/child.js by esbuild.mjs; read from node_modules when the child runs unbundled. */
declare const BRIDGE_AXE_SOURCE: string | undefined;
let axeSource: string | undefined;
function axe(): string {
  return (axeSource ??= typeof BRIDGE_AXE_SOURCE === 'string' ? BRIDGE_AXE_SOURCE : readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
}

/** The axe version the bundle carries (its source's banner). */
export function axeVersion(): string {
  return /axe v([\d.]+)/.exec(axe().slice(0, 200))?.[1] ?? 'unknown';
}

const IMPACT_ORDER: Impact[] = ['critical', 'serious', 'moderate', 'minor'];
const NODES_PER_RULE = 20;

interface WorldViolation {
  id: string;
  impact: Impact | null;
  help: string;
  helpUrl: string;
  /** `element`: the element's place in the world's list of finding elements (FINDING_ELEMENTS). */
  nodes: (DescribedElement & { fix: string; target: unknown[]; element: number })[];
  count: number;
}

/** Our world's global list of the elements findings name (the page's scripts cannot see it), for their node ids. */
const FINDING_ELEMENTS = 'bridgeFindingElements';

/** In our world: axe's run on an element or the document (given), its violations with their elements described and kept. */
const RUN_AXE = `async function (context) {
  const describeElement = ${DESCRIBE_ELEMENT};
  // iframes: false: axe talks to frames over postMessage, which a hostile frame could answer with violations of its own.
  const results = await axe.run(context, { elementRef: true, resultTypes: ['violations'], iframes: false });
  const elements = globalThis.${FINDING_ELEMENTS} = [];
  return {
    passes: results.passes.length,
    incomplete: results.incomplete.length,
    violations: results.violations.map(v => ({
      id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, count: v.nodes.length,
      nodes: v.nodes.slice(0, ${NODES_PER_RULE}).map(n => ({ ...describeElement(n.element), fix: n.failureSummary || '', target: n.target, element: elements.push(n.element) - 1 })),
    })),
  };
}`;

type AxeRun = { violations: WorldViolation[]; passes: number; incomplete: number };

export async function auditPage(context: BrowserContext, page: Page, scope: { ref?: string }): Promise<Omit<AuditFacts, 'url'> | { refNotFound: string }> {
  const cdp = await context.newCDPSession(page);
  try {
    // The page's snapshot first: the refs of findings, and the element a scope's ref names, are read from it.
    const refs = await SnapshotRefs.take(page, cdp);
    // The element that carries the scope's ref itself, not one found again by its box (an overlay can have the box).
    const scopeNode = scope.ref ? await refs.nodeOf(scope.ref) : undefined;
    if (scope.ref && scopeNode === undefined) return { refNotFound: scope.ref };
    if (scope.ref)
      await page
        .locator(`aria-ref=${scope.ref}`)
        .scrollIntoViewIfNeeded({ timeout: 2000 })
        .catch(() => undefined);
    const world = await isolatedWorld(cdp);
    await world.evaluate(`${axe()};void 0`);
    const run = scopeNode === undefined ? await world.evaluate<AxeRun>(`(${RUN_AXE})(document)`) : await world.onNode<AxeRun>(scopeNode, RUN_AXE);
    if (!run) return { refNotFound: scope.ref ?? '' };
    const violations: AuditViolation[] = [];
    for (const v of run.violations.sort((a, b) => IMPACT_ORDER.indexOf(a.impact ?? 'minor') - IMPACT_ORDER.indexOf(b.impact ?? 'minor'))) {
      const nodes = [];
      for (const node of v.nodes) {
        const nodeId = await world.backendNodeId(`${FINDING_ELEMENTS}[${node.element}]`);
        const ref = nodeId === undefined ? undefined : await refs.of(nodeId);
        nodes.push({ description: node.description, ...(ref ? { ref } : {}), box: node.box, fix: node.fix.slice(0, 1000) });
      }
      violations.push({ rule: v.id, impact: v.impact ?? 'minor', help: v.help, helpUrl: v.helpUrl, nodes, more: v.count - nodes.length });
    }
    return { ...(scope.ref ? { scope: scope.ref } : {}), violations, passes: run.passes, incomplete: run.incomplete, engine: `axe-core ${axeVersion()}` };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}
