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
import type { DevtoolsAnswer, DevtoolsRefusal, Emulation, TraceFacts } from '../../protocol/devtoolsFacts';
import { CustomNetworkSchema } from '../../protocol/devtoolsFacts';
import type { InnerSession } from '../callPath/innerSession';
import { auditPage } from './accessibilityAudit';
import { beginTrace, finishTrace, traceAction, type TraceRequest } from './performanceTrace';
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

/** The emulation the arguments ask for, on top of what is on now; a field not given keeps its value. */
export function emulationAsked(now: Emulation, args: Record<string, unknown>): Emulation | { badArgs: string } {
  const next: Emulation = args.reset === true ? { throttling: 'none', cacheDisabled: now.cacheDisabled } : { ...now };
  if (args.network !== undefined) {
    if (!['none', 'offline', 'slow4g', 'fast4g', 'custom'].includes(String(args.network))) return { badArgs: `network must be none, offline, slow4g, fast4g or custom; got ${JSON.stringify(args.network)}` };
    next.throttling = args.network as Emulation['throttling'];
    delete next.custom;
    if (next.throttling === 'custom') {
      const custom = CustomNetworkSchema.safeParse({ downloadKbps: args.downloadKbps, uploadKbps: args.uploadKbps, latencyMs: args.latencyMs ?? 0 });
      if (!custom.success) return { badArgs: 'network "custom" needs downloadKbps and uploadKbps (above 0) and latencyMs (0 or more)' };
      next.custom = custom.data;
    }
  }
  if (args.cpuSlowdown !== undefined) {
    const rate = Number(args.cpuSlowdown);
    if (!Number.isFinite(rate) || rate < 1 || rate > 20) return { badArgs: `cpuSlowdown must be a number from 1 (no slowdown) to 20; got ${JSON.stringify(args.cpuSlowdown)}` };
    if (rate === 1) delete next.cpuSlowdown;
    else next.cpuSlowdown = rate;
  }
  for (const [key, allowed] of [['colorScheme', ['light', 'dark', 'no-preference']], ['reducedMotion', ['reduce', 'no-preference']]] as const) {
    const value = args[key];
    if (value === undefined) continue;
    if (value === 'none') delete next[key];
    else if ((allowed as readonly string[]).includes(String(value))) (next as Record<string, unknown>)[key] = value;
    else return { badArgs: `${key} must be ${allowed.join(', ')} or none; got ${JSON.stringify(value)}` };
  }
  return next;
}

function traceRequestOf(args: Record<string, unknown>): TraceRequest | { badArgs: string } {
  const during = (args.during ?? 'reload') as TraceRequest['during'];
  if (!['reload', 'navigate', 'nextCall', 'seconds'].includes(during)) return { badArgs: `during must be reload, navigate, nextCall or seconds; got ${JSON.stringify(args.during)}` };
  // http and https only: the trace opens the address itself, so a file: or data: address would pass by upstream's own
  // rules for them (a page's text could have the agent trace file:///home/…/.aws/credentials and read it back).
  if (during === 'navigate' && (typeof args.url !== 'string' || !/^https?:\/\//i.test(args.url))) {
    return { badArgs: 'during "navigate" needs url: an http or https address to open while recording' };
  }
  const seconds = args.seconds === undefined ? 5 : Number(args.seconds);
  if (during === 'seconds' && (!Number.isFinite(seconds) || seconds < 1 || seconds > 60)) return { badArgs: 'seconds must be from 1 to 60' };
  return { during, ...(typeof args.url === 'string' ? { url: args.url } : {}), seconds, ...(typeof args.filename === 'string' ? { filename: args.filename } : {}) };
}

/** Runs one of the DevTools tools for the call's session, answering with facts. */
export async function runDevtoolsTool(name: string, args: Record<string, unknown>, session: InnerSession, env: DevtoolsEnv): Promise<DevtoolsAnswer> {
  if (env.engine !== 'chromium') return refused({ why: 'engine', engine: env.engine });
  const context = session.browser?.context;
  const page = context && (await env.currentPage(session));
  const observer = session.observer;
  if (!context || !page || !observer) return refused({ why: 'noPage' });
  try {
    if (name === EMULATE_TOOL) {
      const wanted = emulationAsked(observer.network.conditions, args);
      if ('badArgs' in wanted) return refused({ why: 'badArgs', detail: wanted.badArgs });
      return { kind: 'emulation', emulation: await observer.network.set(wanted) };
    }
    if (name === ACCESSIBILITY_AUDIT_TOOL) {
      const ref = typeof args.ref === 'string' && args.ref.trim() ? args.ref.trim() : undefined;
      const audit = await auditPage(context, page, { ref });
      if ('refNotFound' in audit) return refused({ why: 'refNotFound', ref: audit.refNotFound });
      // Masked with the whole answer where it leaves (callRouter.ts), as every mark is.
      return { kind: 'audit', audit: { url: page.url(), ...audit } };
    }
    if (session.pendingTrace) return refused({ why: 'busy' });
    const request = traceRequestOf(args);
    if ('badArgs' in request) return refused({ why: 'badArgs', detail: request.badArgs });
    const target = { context, page, outputDir: env.outputDir, mask: env.mask, emulation: observer.network.conditions };
    if (request.during === 'nextCall') {
      const pending = await beginTrace(target, request);
      session.pendingTrace = pending;
      // A next call that never comes does not keep the browser tracing: after the longest trace it is dropped.
      const expire = setTimeout(() => {
        if (session.pendingTrace !== pending) return;
        session.pendingTrace = undefined;
        void pending.running.stop().catch(() => undefined).then(() => pending.running.close());
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
