/**
 * The activity list's records: every tool call from every door, and what the person did under their own door.
 * A record is reported when it starts and again, finished, with the same id, when it ends; the doors, the panel's
 * store and an exported test all read that one record. Thumbnails of results are made only while a consumer
 * shows them.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CheckpointFacts } from '../../protocol/childMessages';
import type { CallMarks } from '../../protocol/callMarks';
import type { DevtoolsCard } from '../../protocol/devtoolsFacts';
import type { CallOutcome, Door } from '../../protocol/panelMessages';
import { Emitter } from '../emitter';

/** The activity record of what the person did while they had control, as code (core/testExport takes it). */
export const PERSON_ACTIONS = 'person_actions';
/**
 * The activity record of a navigation the person made from the panel (address bar, back, forward, reload, a tab)
 * while an agent had the browser; its args are the panel's PageAction. While the person has control, Playwright's
 * recorder writes their navigations into PERSON_ACTIONS itself, so those are listed under another name.
 */
export const PERSON_PAGE_ACTION = 'person_page_action';

/**
 * One tool call, reported when it starts and again, finished, when it ends: the one record every
 * consumer reads (the doors get `result`, the activity list the rest).
 */
export interface ToolCallRecord {
  id: number;
  name: string;
  args: Record<string, unknown> | undefined;
  door: Door;
  /** The MCP session the call came through (with isolation `perClient` it drives that client's context). */
  mcpSession?: string;
  /** What the call does, in the words chat shows ("Get cookie: sid"). */
  title: string;
  startedAt: number;
  durationMs?: number;
  outcome?: CallOutcome;
  /** Finished once: notes added, terminal colours stripped, images fitted to model limits. */
  result?: CallToolResult;
  thumbnail?: string;
  /** Why it failed, in one line. */
  error?: string;
  /** Time travel: the checkpoint the child sends for this call (observation `checkpoint` with this seq). */
  checkpointSeq?: number;
  /** Time travel: the state a restore put the browser in (its own checkpoint, known at once). */
  checkpoint?: CheckpointFacts;
  /** The origins of the pages and frames the call was on, as the child saw them (an export grants secrets by them). */
  origins?: string[];
  /** A trace's or an audit's facts, for its card in Activity (the same facts the model's answer was worded from). */
  card?: DevtoolsCard;
}

/** The card a call's marks make in Activity: its trace or audit (a trace of this call, recorded by an earlier "nextCall"). */
export function cardOf(marks: CallMarks | undefined): { card?: DevtoolsCard } {
  const devtools = marks?.devtools;
  if (devtools?.kind === 'trace' || devtools?.kind === 'audit') return { card: devtools };
  return marks?.traceOfCall ? { card: { kind: 'trace', trace: marks.traceOfCall } } : {};
}

export class ActivityLog {
  private readonly emitter = new Emitter<ToolCallRecord>();
  private nextCallId = 1;
  /** How many consumers show thumbnails of results (the panel's store); none, none are made. */
  private thumbnailReaders = 0;
  /** Fires when a record starts and again when it ends (same id). */
  readonly onRecord = this.emitter.event;

  /** Lists something in the activity list now; the returned function lists how it ended. */
  begin(fields: Omit<ToolCallRecord, 'id' | 'startedAt'>): (end: Partial<ToolCallRecord>) => void {
    const record: ToolCallRecord = { ...fields, id: this.nextCallId++, startedAt: Date.now() };
    this.emitter.fire({ ...record });
    return end => this.emitter.fire({ ...record, durationMs: Date.now() - record.startedAt, ...end });
  }

  /** Whether a finished result should carry a thumbnail: only while someone shows them. */
  get thumbnails(): boolean {
    return this.thumbnailReaders > 0;
  }

  /** A consumer that shows result thumbnails (the panel's store) says so; dispose when it goes. */
  wantThumbnails(): { dispose(): void } {
    this.thumbnailReaders++;
    let disposed = false;
    return {
      dispose: () => {
        if (!disposed) {
          disposed = true;
          this.thumbnailReaders--;
        }
      },
    };
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
