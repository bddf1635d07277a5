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
  return axeSource ??= typeof BRIDGE_AXE_SOURCE === 'string' ? BRIDGE_AXE_SOURCE : readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
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

/** The element a ref names, found again in our world: the topmost element at its centre with exactly its box. */
const ELEMENT_AT_BOX = (box: { x: number; y: number; width: number; height: number }) => `(() => {
  const box = ${JSON.stringify(box)};
  const same = rect => Math.abs(rect.x - box.x) < 1 && Math.abs(rect.y - box.y) < 1 && Math.abs(rect.width - box.width) < 1 && Math.abs(rect.height - box.height) < 1;
  return document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2).find(element => same(element.getBoundingClientRect()));
})()`;

export async function auditPage(context: BrowserContext, page: Page, scope: { ref?: string }): Promise<Omit<AuditFacts, 'url'> | { refNotFound: string }> {
  let within = 'document';
  if (scope.ref) {
    const locator = page.locator(`aria-ref=${scope.ref}`);
    await locator.scrollIntoViewIfNeeded({ timeout: 2000 }).catch(() => undefined);
    const box = await locator.boundingBox({ timeout: 2000 }).catch(() => null);
    if (!box) return { refNotFound: scope.ref };
    within = ELEMENT_AT_BOX(box);
  }
  const cdp = await context.newCDPSession(page);
  try {
    const world = await isolatedWorld(cdp);
    await world.evaluate(`${axe()};void 0`);
    const run = await world.evaluate<{ violations: WorldViolation[]; passes: number; incomplete: number } | { missing: true }>(`(async () => {
      const describeElement = ${DESCRIBE_ELEMENT};
      const context = ${within};
      if (!context) return { missing: true };
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
    })()`);
    if ('missing' in run) return { refNotFound: scope.ref ?? '' };
    const refs = await SnapshotRefs.take(page, cdp);
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
