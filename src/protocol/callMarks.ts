/**
 * What the child knows about a tool call that only the child can know, sent as facts in the result's
 * `_meta` and never as sentences: the host's call pipeline (core/pipeline) turns every mark into the
 * words the model reads, so a refusal or a note is worded in one place. The floor of the source tree:
 * imports nothing of ours.
 */
import { z } from 'zod';
import { DevtoolsAnswerSchema, TraceFactsSchema } from './devtoolsFacts';

/** `_meta` key of a tools/call result from the child: the marks below. */
export const CALL_MARKS_META = 'playwrightBridge/marks';

/** Why a secret was not typed (or a clipboard chord not pressed): checked in the child, on the page itself. */
export const SecretRefusalSchema = z.discriminatedUnion('why', [
  /** While secrets are set the agent may not copy, cut or paste (a typed value could be carried off). */
  z.object({ why: z.literal('clipboardChord'), key: z.string() }),
  /** The agent routes requests: a page may not come from the site it names. */
  z.object({ why: z.literal('routed'), secret: z.string() }),
  z.object({ why: z.literal('noSites'), secret: z.string() }),
  /** The field was given as a selector, which could match in another tab or frame. */
  z.object({ why: z.literal('notARef'), secret: z.string() }),
  z.object({ why: z.literal('noPage'), secret: z.string() }),
  z.object({ why: z.literal('pageOrigin'), secret: z.string(), sites: z.array(z.string()), page: z.string() }),
  z.object({ why: z.literal('fieldNotFound'), secret: z.string(), target: z.string() }),
  /** `frame` absent: a frame of no origin (about:blank or data:). */
  z.object({ why: z.literal('frameOrigin'), secret: z.string(), sites: z.array(z.string()), frame: z.string().optional() }),
]);
export type SecretRefusal = z.infer<typeof SecretRefusalSchema>;

/** One line of the session list (bridge_session_list). */
export const SessionSummarySchema = z.object({
  id: z.string(),
  client: z.string().optional(),
  tabs: z.array(z.object({ url: z.string(), title: z.string() })),
  idleSeconds: z.number(),
  yours: z.boolean(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** What a caller may see: the sessions shown to it, and how many others there are that it may not see. */
export const SessionListingSchema = z.object({ sessions: z.array(SessionSummarySchema), others: z.number() });
export type SessionListing = z.infer<typeof SessionListingSchema>;

export const IsolationKindSchema = z.enum(['shared', 'perClient']);

/** What bridge_session_close did, or why it did nothing. */
export const SessionCloseOutcomeSchema = z.discriminatedUnion('outcome', [
  /** `given`: what was passed instead of an id (absent when nothing was). */
  z.object({ outcome: z.literal('badId'), given: z.unknown().optional() }),
  z.object({ outcome: z.literal('shared') }),
  /** An MCP client named a session that is not its own (or does not exist: the same answer, so it reveals nothing). */
  z.object({ outcome: z.literal('notYours') }),
  z.object({ outcome: z.literal('ownNotOpen') }),
  z.object({ outcome: z.literal('ownClosed') }),
  z.object({ outcome: z.literal('window') }),
  z.object({ outcome: z.literal('noMatch'), given: z.string(), matches: z.number() }),
  z.object({ outcome: z.literal('closed'), id: z.string() }),
]);
export type SessionCloseOutcome = z.infer<typeof SessionCloseOutcomeSchema>;

/**
 * The bridge's own session tools answer with facts (`sessionList` for bridge_session_list, `sessionClose` for
 * bridge_session_close); core/pipeline/tools/bridgeSessionTools.ts words them.
 */
export const BridgeToolAnswerSchema = z.discriminatedUnion('answer', [
  z.object({ answer: z.literal('sessionList'), isolation: IsolationKindSchema, listing: SessionListingSchema, caller: z.string().optional() }),
  z.object({ answer: z.literal('sessionClose'), close: SessionCloseOutcomeSchema }),
]);
export type BridgeToolAnswer = z.infer<typeof BridgeToolAnswerSchema>;

export const CallMarksSchema = z.object({
  /** A page was paused in a debugger (the person's, on the managed CDP endpoint) this long while the call ran; still paused at its end or not. */
  pausedInDebugger: z.object({ ms: z.number(), stillPaused: z.boolean() }).optional(),
  /** The browser went away before this call (why, as the child's log says it): the call ran in a fresh one. */
  lostBefore: z.string().optional(),
  /** The browser went away during this call; `reconnects`: a connected browser (the next call connects again). */
  lostDuring: z.object({ reason: z.string(), reconnects: z.boolean() }).optional(),
  /** Nothing was typed or pressed: a secret's site rule (the result has no content of its own). */
  secretRefused: SecretRefusalSchema.optional(),
  /** Upstream's failure was Chromium's ERR_BLOCKED_BY_CLIENT under the person's origin rules. */
  originBlocked: z.literal(true).optional(),
  /**
   * Time travel: the step may have changed the page, and its checkpoint follows as the observation
   * `checkpoint` with this `seq`, taken right after the result went (in the agent's pause, not the call's time).
   */
  checkpoint: z.object({ seq: z.number() }).optional(),
  /**
   * The origins of the current page and every frame in it after the call (the window's context): an exported
   * test gives a secret to its run only if every page and frame its steps were on is one of the secret's sites.
   */
  origins: z.array(z.string()).max(100).optional(),
  /** A bridge tool's answer, for the host to word. */
  bridgeTool: BridgeToolAnswerSchema.optional(),
  /**
   * A DevTools tool's answer (a trace, an audit, the emulation, or why it did nothing). The host words it and
   * the panel shows a trace or an audit as a card.
   */
  devtools: DevtoolsAnswerSchema.optional(),
  /** The trace a `nextCall` trace recorded of this call (any tool's): worded after its answer, a card on its row. */
  traceOfCall: TraceFactsSchema.optional(),
});
export type CallMarks = z.infer<typeof CallMarksSchema>;

/** Where origin rules are set, in the words both the activity list and the model read. */
export const ORIGIN_RULES_NOTE = 'blocked by the origin rules (playwrightBridge.network.allowedOrigins / blockedOrigins)';
