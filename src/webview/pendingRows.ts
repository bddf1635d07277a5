/**
 * Rows that came since the last frame, for a list to draw together once a frame (a burst of requests is
 * one layout, not hundreds): the next frame, or soon anyway when frames do not come (a hidden panel draws none).
 */
import type { MarkerRow } from '../protocol/panelMessages';

export class PendingRows<R extends { seq: number } | MarkerRow> {
  private rows: R[] = [];
  private dropBefore = 0;
  private scheduled = false;

  constructor(private readonly draw: () => void) {}

  add(rows: R[], dropBefore: number): void {
    this.rows.push(...rows);
    this.dropBefore = Math.max(this.dropBefore, dropBefore);
    if (this.scheduled) return;
    this.scheduled = true;
    const timer = setTimeout(() => this.draw(), 250);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      this.draw();
    });
  }

  /** What came, once (undefined when the list already drew it): each row as it is last. */
  take(): { rows: R[]; dropBefore: number } | undefined {
    if (!this.scheduled) return undefined;
    this.scheduled = false;
    const latest = new Map<number, R>();
    for (const row of this.rows) if (row.seq >= this.dropBefore) latest.set(row.seq, row);
    const taken = { rows: [...latest.values()], dropBefore: this.dropBefore };
    this.rows = [];
    this.dropBefore = 0;
    return taken;
  }

  /** A new list replaces the old: these rows are drawn now, whatever came before. */
  replace(rows: R[]): void {
    this.rows = [...rows];
    this.dropBefore = 0;
    this.scheduled = true;
  }
}
