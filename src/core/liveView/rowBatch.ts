/**
 * Rows for a panel, gathered for a moment and sent as one message a list: a page making hundreds of
 * requests a second would otherwise send the webview a message for each request, each answer and each
 * end, and every message through VS Code's webview channel costs more than the rows it carries.
 */
import type { HostToPanel } from '../../protocol/panelMessages';

type RowMessage = Extract<HostToPanel, { type: 'console' | 'network' | 'activity' }>;
type Row = RowMessage['rows'][number];

/** Long enough to gather a burst (a webview redrawn for every 40 ms batch spent its frames on it), short enough that a row still shows at once to the eye. */
export const ROW_BATCH_MS = 100;

export class RowBatch {
  private readonly pending = new Map<RowMessage['type'], { rows: Map<number, Row>; dropBefore: number }>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly send: (message: RowMessage) => void, private readonly delayMs = ROW_BATCH_MS) {}

  static isRowMessage(message: HostToPanel): message is RowMessage {
    return message.type === 'console' || message.type === 'network' || message.type === 'activity';
  }

  /** A row updated again before it went (a request answered, then finished) goes once, as it is last. */
  add(message: RowMessage): void {
    const list = this.pending.get(message.type) ?? { rows: new Map<number, Row>(), dropBefore: 0 };
    for (const row of message.rows) list.rows.set(row.seq, row);
    list.dropBefore = Math.max(list.dropBefore, message.dropBefore);
    this.pending.set(message.type, list);
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const [type, { rows, dropBefore }] of this.pending) {
      const kept = [...rows.values()].filter(row => row.seq >= dropBefore);
      this.send({ type, rows: kept, dropBefore } as RowMessage);
    }
    this.pending.clear();
  }

  /** A snapshot follows, which holds every row: nothing gathered is sent. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
