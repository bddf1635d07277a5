/**
 * What the child does with upstream's answer, in order, each a named step: the routes the agent set, the
 * observer's note and the checkpoint (time travel), the files the call wrote (masked, then counted against the
 * output budget), the inner session's end (a failed launch, browser_close), and the marks for the host.
 */
import * as path from 'path';
import { frameOriginsOf } from '../secretSites';
import { maskWrittenFiles } from '../secretFiles';
import { noteRoutes } from '../tools/browserRoute';
import { closedTheBrowser } from '../tools/browserClose';
import { toolRecord } from '../../core/tools/toolRegistry';
import type { ChildCallStep } from './childCall';
import { finishPendingTrace } from '../devtools/devtoolsTools';

/** A trace the agent started for its next call (bridge_performance_trace, during "nextCall") ends with this call. */
export const traceOfCall: ChildCallStep = {
  name: 'traceOfCall',
  async run(call, env) {
    if (!call.session.pendingTrace) return;
    const trace = await finishPendingTrace(call.session, call.name, call.startedAt, env.mask).catch(error => {
      env.log(`Performance trace of ${call.name}: ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    });
    if (trace) call.marks.traceOfCall = trace;
  },
};

/** A page was paused in a debugger while this call ran (a breakpoint its action reached): the call says for how long. */
export const pausedInDebugger: ChildCallStep = {
  name: 'pausedInDebugger',
  run(call, env) {
    const ms = env.pauses.pausedMsSince(call.startedAt);
    if (ms > 0) call.marks.pausedInDebugger = { ms: Math.round(ms), stillPaused: env.pauses.isPaused };
  },
};

export const recordRoutes: ChildCallStep = {
  name: 'recordRoutes',
  run(call) {
    if (!call.result!.isError) noteRoutes(call.session.routes, call.name, call.args);
  },
};

export const observeAndCheckpoint: ChildCallStep = {
  name: 'observeAndCheckpoint',
  async run(call, env, text) {
    const { observer } = call.session;
    if (!observer) return;
    if (call.result!.isError) return observer.noteFailedCall(call.name, call.args);
    observer.noteToolCall(call.name, call.args, text());
    // A tool the registry does not know (a page's own, say) may have changed the page: a checkpoint follows.
    if (toolRecord(call.name)?.actsOnPage === false) return;
    await observer.afterStateChange();
    if (!call.slot && call.session.storageChanges) call.marks.checkpoint = env.checkpointAfter(call.session);
  },
};

export const writtenFiles: ChildCallStep = {
  name: 'writtenFiles',
  async run(call, env, text) {
    // Before the budget records them: the files as kept are the masked ones.
    if (!env.mask.empty) await maskWrittenFiles(env.config.mcp.outputDir, text(), call.startedAt, env.mask, env.log);
    // Only files the call reported writing count as the bridge's (a file the person dropped in the folder is theirs).
    const named = typeof call.args?.filename === 'string' ? call.args.filename : '';
    // A trace the DevTools tools wrote is named in the call's marks, not in its answer's text (the child writes none).
    const traced = [call.marks.devtools?.kind === 'trace' ? call.marks.devtools.trace.file : undefined, call.marks.traceOfCall?.file]
      .filter((file): file is string => !!file)
      .map(file => path.join(env.config.mcp.outputDir, file));
    env.outputBudget.afterCall([text(), named, ...traced].join('\n'));
  },
};

export const endInnerSession: ChildCallStep = {
  name: 'endInnerSession',
  async run(call, env) {
    if (call.session.health.launchFailed) {
      // Upstream keeps the failed launch; a fresh session lets the next call try again
      // (after the person installed the browser or fixed the setting).
      await env.dropSession(call.session);
    } else if (closedTheBrowser(call.name, call.result!)) {
      call.session.health.closed();
      await env.dropSession(call.session);
    }
  },
};

export const markAnswer: ChildCallStep = {
  name: 'markAnswer',
  run(call, env, text) {
    // Chromium's own words do not say who blocked an address: the person did, on purpose (the host says so).
    if (call.result!.isError && env.hasOriginRules && /ERR_BLOCKED_BY_CLIENT/.test(text())) call.marks.originBlocked = true;
    if (!call.slot) call.marks.origins = frameOriginsOf(call.session.observer?.currentPage);
  },
};
