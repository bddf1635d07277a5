/**
 * The steps of the window's context since the browser last started, kept for exporting them as a
 * Playwright test: every call that ended, from chat's tools, the MCP door and the panel, and what the person
 * did while they had control (recorded as code), with what upstream's answer
 * said (the code it ran, the address, the tabs, a dialog or chooser left open, the snapshot). Calls of
 * `perClient` MCP sessions drive contexts of their own and are not the window's steps.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Event } from '../emitter';
import { PERSON_ACTIONS, type BridgeStatus, type ToolCallRecord } from '../supervision/supervisor';
import { AnswerSections, answerOf } from './answerSections';

export interface JournalStep {
  /** 1 for the first step since the browser started. */
  index: number;
  /** The call's id in the activity list (ToolCallRecord.id). */
  callId?: number;
  tool: string;
  args: Record<string, unknown>;
  ok: boolean;
  /** When it ended (ms since the epoch). */
  at: number;
  answer: AnswerSections;
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
  /** Steps dropped to keep MAX_STEPS. */
  dropped = 0;

  private readonly subscriptions: { dispose(): void }[];

  constructor(
    source: { onToolCall: Event<ToolCallRecord>; onDidChangeStatus: Event<BridgeStatus> },
    /** True while MCP sessions get contexts of their own (isolation `perClient`). */
    private readonly clientsIsolated: () => boolean,
  ) {
    this.subscriptions = [source.onToolCall(record => this.onCall(record)), source.onDidChangeStatus(status => {
      // A new browser: what was done in the last one is not its history.
      if (status.generation !== this.generation) {
        this.generation = status.generation;
        this.clear();
      }
    })];
  }

  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  get steps(): readonly JournalStep[] {
    return this.kept;
  }

  clear(): void {
    this.kept.length = 0;
    this.next = 1;
    this.dropped = 0;
    this.snapshotChars = 0;
  }

  /** Records a call that ended (the supervisor fires each call twice: when it starts and when it ends). */
  add(tool: string, args: Record<string, unknown> | undefined, result: CallToolResult | undefined, at = Date.now(), callId?: number): JournalStep {
    // A copy of its own: the journal gives up old snapshots to keep its budget, and the answer read is shared.
    const step: JournalStep = {
      index: this.next++, tool, args: args ?? {}, ok: Boolean(result) && !result?.isError, at, answer: { ...answerOf(result) }, ...(callId !== undefined ? { callId } : {}),
    };
    this.kept.push(step);
    this.snapshotChars += step.answer.snapshot?.length ?? 0;
    if (this.kept.length > MAX_STEPS) {
      this.snapshotChars -= this.kept.shift()?.answer.snapshot?.length ?? 0;
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
    if (record.outcome === undefined || record.door === 'panel' || (record.door === 'person' && record.name !== PERSON_ACTIONS)) return;
    if (record.mcpSession !== undefined && this.clientsIsolated()) return;
    this.add(record.name, record.args, record.result, record.startedAt + (record.durationMs ?? 0), record.id);
  }
}
