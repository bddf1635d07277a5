/**
 * The steps of the window's context since the browser last started, kept for exporting them as a
 * Playwright test: every call that ended, from chat's tools, the MCP door and the panel, and what the person
 * did while they had control (recorded as code), with what upstream's answer
 * said (the code it ran, the address, the tabs, a dialog or chooser left open, the snapshot). Calls of
 * `perClient` MCP sessions drive contexts of their own and are not the window's steps.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Event } from '../emitter';
import { detached, errorLineOf, keptArgs, keptBytes, keptLine, MAX_JOURNAL_BYTES } from '../egress/byteBounds';
import type { BridgeStatus } from '../supervision/supervisor';
import { PERSON_ACTIONS, PERSON_PAGE_ACTION, type ToolCallRecord } from '../supervision/activityLog';
import { AnswerSections, answerOf } from './answerSections';

export interface JournalStep {
  /** 1 for the first step since the browser started. */
  index: number;
  /** The call's id in the activity list (ToolCallRecord.id). */
  callId?: number;
  tool: string;
  /**
   * What it was given, up to MAX_KEPT_ARGS_BYTES (egress/byteBounds.ts); a failed step keeps only
   * REFUSED_ARGS_BYTES of it. Larger values are cut, with a marker that says how much.
   */
  args: Record<string, unknown>;
  /** True when `args` was cut to its bound: a test must not repeat the step from them. */
  argsCut?: boolean;
  ok: boolean;
  /** A failed step's reason, in one line (it keeps no answer: an exported test leaves it out). */
  error?: string;
  /** When it ended (ms since the epoch). */
  at: number;
  answer: AnswerSections;
  /** The origins of the pages and frames the step was on, as the child saw them; absent when it did not say. */
  origins?: string[];
}

/** Enough for a long session; the oldest go first, counted. */
const MAX_STEPS = 2000;
/**
 * Snapshots kept inline, in characters: a long session must not keep every page it read. The oldest lose
 * theirs first (an export then checks less at its end, nothing else changes).
 */
const MAX_SNAPSHOT_CHARS = 4_000_000;

export class StepJournal {
  private readonly kept: JournalStep[] = [];
  private next = 1;
  private generation = 0;
  private snapshotChars = 0;
  /** What each kept step costs without its snapshot (by keptBytes), in the order of `kept`. */
  private sizes: number[] = [];
  private bytes = 0;
  /** Steps dropped to keep MAX_STEPS and MAX_JOURNAL_BYTES. */
  dropped = 0;

  private readonly subscriptions: { dispose(): void }[];

  constructor(
    source: { onToolCall: Event<ToolCallRecord>; onDidChangeStatus: Event<BridgeStatus> },
    /** True while MCP sessions get contexts of their own (isolation `perClient`). */
    private readonly clientsIsolated: () => boolean,
  ) {
    this.subscriptions = [
      source.onToolCall(record => this.onCall(record)),
      source.onDidChangeStatus(status => {
        // A new browser: what was done in the last one is not its history.
        if (status.generation !== this.generation) {
          this.generation = status.generation;
          this.clear();
        }
      }),
    ];
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  get steps(): readonly JournalStep[] {
    return this.kept;
  }

  /** What the kept steps cost without their snapshots, by keptBytes: at most MAX_JOURNAL_BYTES (the newest step may exceed it alone). */
  get keptBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.kept.length = 0;
    this.next = 1;
    this.dropped = 0;
    this.snapshotChars = 0;
    this.sizes = [];
    this.bytes = 0;
  }

  /**
   * Records a call that ended (the supervisor fires each call twice: when it starts and when it ends). A
   * failed one (refused, or an error from the browser) keeps a short record: its tool, a few hundred bytes of
   * its arguments and its error line; an exported test leaves it out anyway.
   */
  add(
    tool: string,
    args: Record<string, unknown> | undefined,
    result: CallToolResult | undefined,
    at = Date.now(),
    callId?: number,
    origins?: string[],
    error?: string,
  ): JournalStep {
    const ok = Boolean(result) && !result?.isError;
    const kept = keptArgs(args, !ok);
    // A copy of its own: the journal gives up old snapshots to keep its budget, and the answer read is shared.
    const step: JournalStep = {
      index: this.next++,
      tool: keptLine(tool),
      args: kept.value,
      ok,
      at,
      answer: ok ? ownAnswer(answerOf(result)) : { code: [] },
      ...(kept.cut ? { argsCut: true } : {}),
      ...(ok ? {} : { error: error !== undefined ? keptLine(error) : errorLineOf(result) }),
      ...(callId !== undefined ? { callId } : {}),
      ...(origins ? { origins } : {}),
    };
    const { snapshot: _snapshot, ...answer } = step.answer;
    const size = keptBytes({ ...step, answer });
    this.kept.push(step);
    this.sizes.push(size);
    this.bytes += size;
    this.snapshotChars += step.answer.snapshot?.length ?? 0;
    // The oldest go first, counted, until both the count and the bytes fit; the newest stays.
    while (this.kept.length > 1 && (this.kept.length > MAX_STEPS || this.bytes > MAX_JOURNAL_BYTES)) {
      this.snapshotChars -= this.kept.shift()?.answer.snapshot?.length ?? 0;
      this.bytes -= this.sizes.shift() ?? 0;
      this.dropped++;
    }
    for (let i = 0; this.snapshotChars > MAX_SNAPSHOT_CHARS && i < this.kept.length - 1; i++) {
      const answer = this.kept[i].answer;
      if (answer.snapshot === undefined) continue;
      this.snapshotChars -= answer.snapshot.length;
      delete answer.snapshot;
    }
    return step;
  }

  private onCall(record: ToolCallRecord): void {
    // The person's clicks are listed one by one; what they did goes in once, as code, when they hand back.
    // The panel's own calls (a snapshot for the picker) are the bridge's, not the session's.
    // So are the person's navigations from the panel while an agent had the browser: the test repeats them.
    if (
      record.outcome === undefined ||
      record.door === 'panel' ||
      (record.door === 'person' && record.name !== PERSON_ACTIONS && record.name !== PERSON_PAGE_ACTION)
    )
      return;
    if (record.mcpSession !== undefined && this.clientsIsolated()) return;
    // A page action has no answer of its own: its outcome says whether it happened.
    const result = record.name === PERSON_PAGE_ACTION && record.outcome === 'ok' ? { content: [] } : record.result;
    this.add(record.name, record.args, result, record.startedAt + (record.durationMs ?? 0), record.id, record.origins, record.error);
  }
}

/**
 * A copy of an answer's parts for the journal to keep (and give up: its snapshot, for the budget). Its short
 * parts as strings of their own: read out of the result's text, each was a view that kept the whole text alive,
 * also after the snapshot went. The snapshot stays such a view (it is most of that text).
 */
function ownAnswer(answer: AnswerSections): AnswerSections {
  return {
    ...answer,
    code: answer.code.map(detached),
    ...(answer.pageUrl !== undefined ? { pageUrl: detached(answer.pageUrl) } : {}),
    ...(answer.tabs ? { tabs: answer.tabs.map(tab => ({ ...tab, title: detached(tab.title), url: detached(tab.url) })) } : {}),
    ...(answer.snapshotFile !== undefined ? { snapshotFile: detached(answer.snapshotFile) } : {}),
  };
}
