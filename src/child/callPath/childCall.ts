/**
 * One tool call inside the child, as its steps see it (`runChildCall.ts` lists them in order). The host's
 * pipeline has already checked the call; what is left is what only the child can know, sent back as marks
 * on upstream's answer (protocol/callMarks.ts), never as words. A step reads the call, may end it with a
 * result of its own (`ended`), and adds marks; the answer's text is read once, by `text`.
 */
import type { DebuggerPauses } from '../cdp/debuggerPauses';
import type { Page } from 'playwright';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChildConfig } from '../../core/childProcess/childConfig';
import type { SecretMask } from '../../core/egress/secretMask';
import type { CallMarks } from '../../protocol/callMarks';
import type { ClientSlot } from '../clientSlots';
import type { OutputBudget } from '../outputBudget';
import type { SecretSites } from '../secretSites';
import type { InnerSession } from './innerSession';

export interface ChildCall {
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  readonly session: InnerSession;
  /** The MCP client's slot (isolation `perClient`); absent for the window's context. */
  readonly slot: ClientSlot<InnerSession> | undefined;
  /** Why the browser went away before this call, taken for it (the host words it). */
  readonly lostBefore: string | undefined;
  readonly startedAt: number;
  /** Sends the call to upstream (with the caller's signal and progress). */
  readonly forward: () => Promise<CallToolResult>;
  /** Upstream's answer, once `forwardToUpstream` has it. */
  result?: CallToolResult;
  /** A step's own answer, which ends the call (a secret refused, the browser lost during it). */
  ended?: CallToolResult;
  /** Run after upstream answered or failed: a step's hold on the page released (the secret's fenced frames). */
  release?: () => Promise<void>;
  /** What the child found, for the host. */
  marks: CallMarks;
}

/** What the steps need of the child beyond the call (callRouter.ts makes it). */
export interface ChildCallEnv {
  readonly config: ChildConfig;
  readonly mask: SecretMask;
  readonly sites: SecretSites;
  readonly outputBudget: OutputBudget;
  /** Origin rules are set (allowed or blocked origins): Chromium's block then is the person's. */
  readonly hasOriginRules: boolean;
  log(line: string): void;
  /** Upstream's current tab, as upstream itself lists it. */
  upstreamCurrentPage(session: InnerSession): Promise<Page | undefined>;
  dropSession(session: InnerSession): Promise<void>;
  /** Time travel: a checkpoint of the window's context after this call, taken as its answer goes back. */
  checkpointAfter(session: InnerSession): { seq: number };
  /** Pages paused in a debugger on the managed CDP endpoint. */
  readonly pauses: DebuggerPauses;
}

export interface ChildCallStep {
  readonly name: string;
  run(call: ChildCall, env: ChildCallEnv, text: () => string): void | Promise<void>;
}
