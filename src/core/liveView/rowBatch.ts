/**
 * Rows for a panel, gathered for a moment and sent as one message a list: a page making hundreds of
 * requests a second would otherwise send the webview a message for each request, each answer and each
 * end, and every message through VS Code's webview channel costs more than the rows it carries.
 */
import type { HostToPanel } from '../../protocol/panelMessages';
import { keptBytes, ROW_BATCH_MAX_BYTES, ROW_BATCH_MAX_ROWS } from '../egress/byteBounds';

type RowMessage = Extract<HostToPanel, { type: 'console' | 'network' | 'activity' }>;
type Row = RowMessage['rows'][number];

/** Long enough to gather a burst (a webview redrawn for every 40 ms batch spent its frames on it), short enough that a row still shows at once to the eye. */
export const ROW_BATCH_MS = 100;

/**
 * Rows wait at most ROW_BATCH_MS, and at most ROW_BATCH_MAX_ROWS rows or ROW_BATCH_MAX_BYTES of them
 * (egress/byteBounds.ts) in all lists together: past either, everything gathered goes at once.
 */
export class RowBatch {
  private readonly pending = new Map<RowMessage['type'], { rows: Map<number, Row>; sizes: Map<number, number>; dropBefore: number }>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private rows = 0;
  private bytes = 0;

  constructor(
    private readonly send: (message: RowMessage) => void,
    private readonly delayMs = ROW_BATCH_MS,
  ) {}

  static isRowMessage(message: HostToPanel): message is RowMessage {
    return message.type === 'console' || message.type === 'network' || message.type === 'activity';
  }

  /** A row updated again before it went (a request answered, then finished) goes once, as it is last. */
  add(message: RowMessage): void {
    const list = this.pending.get(message.type) ?? { rows: new Map<number, Row>(), sizes: new Map<number, number>(), dropBefore: 0 };
    for (const row of message.rows) {
      const size = keptBytes(row);
      const before = list.sizes.get(row.seq);
      if (before === undefined) this.rows++;
      this.bytes += size - (before ?? 0);
      list.rows.set(row.seq, row);
      list.sizes.set(row.seq, size);
    }
    list.dropBefore = Math.max(list.dropBefore, message.dropBefore);
    this.pending.set(message.type, list);
    if (this.rows >= ROW_BATCH_MAX_ROWS || this.bytes >= ROW_BATCH_MAX_BYTES) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = [...this.pending];
    this.pending.clear();
    this.rows = 0;
    this.bytes = 0;
    for (const [type, { rows, dropBefore }] of pending) {
      const kept = [...rows.values()].filter(row => row.seq >= dropBefore);
      this.send({ type, rows: kept, dropBefore } as RowMessage);
    }
  }

  /** A snapshot follows, which holds every row: nothing gathered is sent. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.rows = 0;
    this.bytes = 0;
  }
}
