/**
 * The bridge's DevTools tools in the child: bridge_performance_trace, bridge_accessibility_audit and
 * bridge_emulate, each on the caller's own context (the window's, or under `perClient` its MCP client's)
 * and its current tab as upstream itself names it. They answer with facts (protocol/devtoolsFacts.ts); the
 * host words them. They run through the child's call path in upstream's place (callRouter.ts), so the
 * observer, checkpoints, the output budget and the marks treat them as any other call.
 */
import type { Page } from 'playwright';
import type { SecretMask } from '../../core/egress/secretMask';
import { ACCESSIBILITY_AUDIT_TOOL, EMULATE_TOOL } from '../../core/tools/ownTools';
import { ACCESSIBILITY_AUDIT } from '../../core/tools/own/accessibilityAudit';
import { EMULATE } from '../../core/tools/own/emulate';
import { PERFORMANCE_TRACE } from '../../core/tools/own/performanceTrace';
import type { DevtoolsAnswer, DevtoolsRefusal, Emulation, TraceFacts } from '../../protocol/devtoolsFacts';
import { CustomNetworkSchema } from '../../protocol/devtoolsFacts';
import type { InnerSession } from '../callPath/innerSession';
import { auditPage } from './accessibilityAudit';
import { beginTrace, finishTrace, traceAction, type LastTrace, type TraceRequest } from './performanceTrace';
import { NODE_MARK } from './insightDetail';
import { DESCRIBE_ELEMENT, type DescribedElement, isolatedWorld } from './isolatedWorld';
import { SnapshotRefs } from './snapshotRefs';
import { MAX_TRACE_MS } from './traceRecorder';

export interface DevtoolsEnv {
  engine: string;
  outputDir: string;
  mask: SecretMask;
  currentPage(session: InnerSession): Promise<Page | undefined>;
}

const refused = (refusal: DevtoolsRefusal): DevtoolsAnswer => ({ kind: 'refused', refusal });
/** After the agent's next call, the page settles this long before its trace ends (an interaction's paint is in by then). */
const NEXT_CALL_SETTLE_MS = 1000;

/**
 * The emulation the arguments ask for, on top of what is on now; a field not given keeps its value. Each argument is
 * typed by the tool's definition (core/tools/own/emulate.ts); what the arguments mean together is said here.
 */
export function emulationAsked(now: Emulation, given: Record<string, unknown>): Emulation | { badArgs: string } {
  const parsed = EMULATE.parse(given);
  if ('badArgs' in parsed) return parsed;
  const args = parsed.args;
  const next: Emulation = args.reset === true ? { throttling: 'none', cacheDisabled: now.cacheDisabled } : { ...now };
  if (args.network !== undefined) {
    next.throttling = args.network;
    delete next.custom;
    if (next.throttling === 'custom') {
      const custom = CustomNetworkSchema.safeParse({ downloadKbps: args.downloadKbps, uploadKbps: args.uploadKbps, latencyMs: args.latencyMs ?? 0 });
      if (!custom.success) return { badArgs: 'network "custom" needs downloadKbps and uploadKbps (above 0) and latencyMs (0 or more)' };
      next.custom = custom.data;
    }
  }
  if (args.cpuSlowdown !== undefined) {
    if (args.cpuSlowdown === 1) delete next.cpuSlowdown;
    else next.cpuSlowdown = args.cpuSlowdown;
  }
  if (args.colorScheme === 'none') delete next.colorScheme;
  else if (args.colorScheme !== undefined) next.colorScheme = args.colorScheme;
  if (args.reducedMotion === 'none') delete next.reducedMotion;
  else if (args.reducedMotion !== undefined) next.reducedMotion = args.reducedMotion;
  return next;
}

/** What to trace: each argument typed by the tool's definition (core/tools/own/performanceTrace.ts), what they mean together here. */
function traceRequestOf(given: Record<string, unknown>): TraceRequest | { badArgs: string } {
  const parsed = PERFORMANCE_TRACE.parse(given);
  if ('badArgs' in parsed) return parsed;
  const { during = 'reload', url, seconds = 5, filename } = parsed.args;
  // http and https only: the trace opens the address itself, so a file: or data: address would pass by upstream's own
  // rules for them (a page's text could have the agent trace file:///home/…/.aws/credentials and read it back).
  if (during === 'navigate' && (url === undefined || !/^https?:\/\//i.test(url))) {
    return { badArgs: 'during "navigate" needs url: an http or https address to open while recording' };
  }
  return { during, ...(url !== undefined ? { url } : {}), seconds, ...(filename !== undefined ? { filename } : {}) };
}

/**
 * One insight of the session's last trace in detail; its elements said in words with their refs when the page
 * still holds them (a node of a page since left is said as such).
 */
async function insightAnswer(last: LastTrace | undefined, name: string): Promise<DevtoolsAnswer> {
  if (!last)
    return refused({ why: 'badArgs', detail: 'insight needs a trace of this session first: record one (without insight), then ask for one of its insights' });
  const raw = last.details.of(name);
  if (!raw) return refused({ why: 'badArgs', detail: `the last trace has no insight "${name.slice(0, 60)}"; it has: ${last.details.names.join(', ')}` });
  const nodes = [...new Set(raw.lines.flatMap(line => [...line.matchAll(NODE_MARK)].map(match => Number(match[1]))))];
  const said = new Map<number, string>();
  if (nodes.length && !last.page.isClosed()) {
    const cdp = await last.page.context().newCDPSession(last.page);
    try {
      const world = await isolatedWorld(cdp);
      const refs = await SnapshotRefs.take(last.page, cdp);
      for (const node of nodes.slice(0, 20)) {
        const element = await world.onNode<DescribedElement>(node, DESCRIBE_ELEMENT).catch(() => undefined);
        if (!element) continue;
        const ref = await refs.of(node).catch(() => undefined);
        said.set(node, `${element.description}${ref ? ` [ref=${ref}]` : ''}`);
      }
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }
  const lines = raw.lines.map(line => line.replace(NODE_MARK, (_all, id: string) => said.get(Number(id)) ?? 'an element no longer on the page'));
  return { kind: 'insight', insight: { name: raw.name, title: raw.title, lines } };
}

/** Runs one of the DevTools tools for the call's session, answering with facts. */
export async function runDevtoolsTool(name: string, args: Record<string, unknown>, session: InnerSession, env: DevtoolsEnv): Promise<DevtoolsAnswer> {
  if (env.engine !== 'chromium') return refused({ why: 'engine', engine: env.engine });
  const page = session.browser && (await env.currentPage(session));
  const observer = session.observer;
  if (!page || !observer) return refused({ why: 'noPage' });
  // The current tab's own context: a named one (browser_tabs with isolatedContext) is audited and traced as it is.
  const context = page.context();
  try {
    if (name === EMULATE_TOOL) {
      const wanted = emulationAsked(observer.network.conditions, args);
      if ('badArgs' in wanted) return refused({ why: 'badArgs', detail: wanted.badArgs });
      return { kind: 'emulation', emulation: await observer.network.set(wanted) };
    }
    if (name === ACCESSIBILITY_AUDIT_TOOL) {
      const parsed = ACCESSIBILITY_AUDIT.parse(args);
      if ('badArgs' in parsed) return refused({ why: 'badArgs', detail: parsed.badArgs });
      const ref = parsed.args.ref?.trim() || undefined;
      const audit = await auditPage(context, page, { ref });
      if ('refNotFound' in audit) return refused({ why: 'refNotFound', ref: audit.refNotFound });
      // Masked with the whole answer where it leaves (callRouter.ts), as every mark is.
      return { kind: 'audit', audit: { url: page.url(), ...audit } };
    }
    const insight = PERFORMANCE_TRACE.parse(args);
    if (!('badArgs' in insight) && insight.args.insight !== undefined) return await insightAnswer(session.lastTrace, insight.args.insight);
    if (session.pendingTrace) return refused({ why: 'busy' });
    const request = traceRequestOf(args);
    if ('badArgs' in request) return refused({ why: 'badArgs', detail: request.badArgs });
    const target = {
      context,
      page,
      outputDir: env.outputDir,
      mask: env.mask,
      emulation: observer.network.conditions,
      keep: (last: LastTrace) => (session.lastTrace = last),
    };
    if (request.during === 'nextCall') {
      const pending = await beginTrace(target, request);
      session.pendingTrace = pending;
      // A next call that never comes does not keep the browser tracing: after the longest trace it is dropped.
      const expire = setTimeout(() => {
        if (session.pendingTrace !== pending) return;
        session.pendingTrace = undefined;
        void pending.running
          .stop()
          .catch(() => undefined)
          .then(() => pending.running.close());
      }, MAX_TRACE_MS);
      expire.unref?.();
      return { kind: 'traceStarted' };
    }
    return { kind: 'trace', trace: await traceAction(target, request) };
  } catch (error) {
    return refused({ why: 'failed', detail: (error as Error).message.split('\n')[0] });
  }
}

/**
 * After the call a `nextCall` trace waited for: the trace ends (after the page settles) and its facts ride on
 * that call's answer. Undefined when no trace waited, or for the trace tool's own call that started it.
 */
export async function finishPendingTrace(session: InnerSession, callName: string, startedAt: number, mask: SecretMask): Promise<TraceFacts | undefined> {
  const pending = session.pendingTrace;
  if (!pending || pending.startedAt >= startedAt) return undefined;
  session.pendingTrace = undefined;
  const actionMs = Date.now() - startedAt;
  await new Promise(resolve => setTimeout(resolve, NEXT_CALL_SETTLE_MS));
  return finishTrace(pending, actionMs, mask, callName);
}
