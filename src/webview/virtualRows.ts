/**
 * The Network list, virtualized: every row is the same height (two lines: Name over its path), so only the rows in sight
 * (and a few around them) are in the DOM, however many the list holds. A burst of requests or a filter
 * keystroke then costs the rows on screen, not the 2,000 behind them. It keeps RowList's interface.
 */
import type { MarkerRow, NetworkRow } from '../protocol/panelMessages';
import { isMarker } from '../protocol/panelRows';
import { PendingRows } from './pendingRows';

type Row = NetworkRow | MarkerRow;

/** One row's height in CSS pixels (panel.css gives network rows exactly this). */
export const ROW_HEIGHT = 32;
/** Rows drawn past each edge of the view, so a scroll shows drawn rows before the next frame redraws. */
const OVERSCAN = 20;

export class VirtualRows<R extends Row> {
  private readonly rows = new Map<number, { row: R; text: string }>();
  /** The rows that pass the filters, in order. */
  private shown: { row: R; text: string }[] = [];
  /** The drawn rows' elements, by seq: a row still in sight keeps its element (and the focus in it). */
  private drawn = new Map<number, HTMLElement>();
  private readonly pending = new PendingRows<R>(() => this.flush());
  private drawScheduled = false;
  /** The view's height, kept by a ResizeObserver: reading it at each draw would force a layout. */
  private viewHeight = 0;
  /** Whether the person is at the end of the list: new rows then keep it there, as a log does. */
  private atEnd = true;
  /** The list jumps to its end once (a new list); after that the browser's scroll anchoring keeps it there. */
  private jumpToEnd = true;
  /** The highest seq held: a row with a lower new seq means the order must be restored. */
  private lastSeq = -Infinity;
  /** As tall as the rows above and below those drawn (padding on the scroller itself would set its own height). */
  private readonly above = spacer('spacer');
  private readonly below = spacer('spacer');
  /**
   * The list's last child and the only node the browser may anchor its scroll to (panel.css): while the
   * person is at the end, rows drawn above it keep the view at the end with no scroll (and no layout) from script.
   */
  private readonly anchor = spacer('anchor');

  /** The column the person sorts by (undefined: as the rows came, markers in place). */
  private order: ((a: R, b: R) => number) | undefined;

  constructor(
    private readonly container: HTMLElement,
    private readonly render: (row: R) => HTMLElement,
    private readonly searchText: (row: R) => string,
    private readonly filter: () => (row: R, text: string) => boolean,
    /** Told the rows shown after each change (the waterfall's range is theirs). */
    private readonly onShown: (rows: readonly R[]) => void = () => undefined,
  ) {
    container.classList.add('virtual');
    container.addEventListener(
      'scroll',
      () => {
        this.atEnd = container.scrollTop + container.clientHeight >= container.scrollHeight - ROW_HEIGHT;
        this.scheduleDraw();
      },
      { passive: true },
    );
    new ResizeObserver(entries => {
      this.viewHeight = entries[0].contentRect.height;
      this.scheduleDraw();
    }).observe(container);
  }

  upsert(rows: R[], dropBefore: number): void {
    this.pending.add(rows, dropBefore);
  }

  flush(): void {
    const taken = this.pending.take();
    if (!taken) return;
    const { rows, dropBefore } = taken;
    for (const seq of this.rows.keys()) {
      if (seq >= dropBefore) break;
      this.rows.delete(seq);
    }
    let reorder = false;
    for (const row of rows) {
      if (!this.rows.has(row.seq)) {
        reorder ||= row.seq < this.lastSeq;
        this.lastSeq = Math.max(this.lastSeq, row.seq);
      }
      this.rows.set(row.seq, { row, text: isMarker(row) ? '' : this.searchText(row).toLowerCase() });
      this.drawn.delete(row.seq);
    }
    if (reorder) {
      const sorted = [...this.rows.entries()].sort((a, b) => a[0] - b[0]);
      this.rows.clear();
      for (const [seq, entry] of sorted) this.rows.set(seq, entry);
    }
    this.refilter();
  }

  reset(rows: R[]): void {
    this.rows.clear();
    this.lastSeq = -Infinity;
    this.drawn.clear();
    this.pending.replace(rows);
    this.atEnd = true;
    this.jumpToEnd = true;
    this.flush();
  }

  /** The filters changed (or rows did): which rows show is worked out again, then the view is drawn. */
  refilter(): void {
    const visible = this.filter();
    const order = this.order;
    // Sorted, the markers (a navigation, a restart) have no place: they show only in arrival order.
    this.shown = [...this.rows.values()].filter(({ row, text }) => (isMarker(row) ? !order : visible(row, text)));
    if (order) this.shown.sort((a, b) => order(a.row, b.row) || a.row.seq - b.row.seq);
    this.onShown(this.shown.map(entry => entry.row));
    this.draw();
  }

  /** Sorts the rows shown by a column (undefined: back to arrival order). */
  sortBy(order: ((a: R, b: R) => number) | undefined): void {
    this.order = order;
    this.drawn.clear();
    this.refilter();
  }

  private scheduleDraw(): void {
    if (this.drawScheduled) return;
    this.drawScheduled = true;
    requestAnimationFrame(() => {
      this.drawScheduled = false;
      this.draw();
    });
  }

  /** Only the rows in sight, between two spacers as tall as the rows above and below them. */
  private draw(): void {
    const total = this.shown.length;
    const height = this.viewHeight || this.container.clientHeight;
    const top = this.atEnd ? Math.max(0, total * ROW_HEIGHT - height) : this.container.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(total, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    const next = new Map<number, HTMLElement>();
    const elements: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const { row } = this.shown[i];
      const element = this.drawn.get(row.seq) ?? this.render(row);
      next.set(row.seq, element);
      elements.push(element);
    }
    this.drawn = next;
    this.above.style.height = `${first * ROW_HEIGHT}px`;
    this.below.style.height = `${(total - last) * ROW_HEIGHT}px`;
    // Elements already in place stay (a focused row keeps its focus); the rest are put in order.
    const wanted = [this.above, ...elements, this.below, this.anchor];
    const current = this.container.children;
    if (current.length !== wanted.length || wanted.some((element, i) => current[i] !== element)) this.container.replaceChildren(...wanted);
    if (this.atEnd && this.jumpToEnd) {
      this.container.scrollTop = total * ROW_HEIGHT;
      this.jumpToEnd = false;
    }
  }

  /** Scrolls so the row with this seq is in sight (keyboard moves past the drawn rows). */
  reveal(seq: number): HTMLElement | undefined {
    const index = this.shown.findIndex(entry => entry.row.seq === seq);
    if (index < 0) return undefined;
    const top = index * ROW_HEIGHT;
    const height = this.viewHeight || this.container.clientHeight;
    if (top < this.container.scrollTop) this.container.scrollTop = top;
    else if (top + ROW_HEIGHT > this.container.scrollTop + height) this.container.scrollTop = top + ROW_HEIGHT - height;
    this.atEnd = index === this.shown.length - 1;
    this.draw();
    return this.drawn.get(seq);
  }

  /** The row after (or before) this one among those shown. */
  neighbour(seq: number | undefined, step: 1 | -1): R | undefined {
    if (!this.shown.length) return undefined;
    const index = seq === undefined ? -1 : this.shown.findIndex(entry => entry.row.seq === seq);
    const next = index < 0 ? (step > 0 ? 0 : this.shown.length - 1) : Math.min(this.shown.length - 1, Math.max(0, index + step));
    return this.shown[next].row;
  }

  all(): R[] {
    return [...this.rows.values()].map(entry => entry.row);
  }

  /** What the filters show (drawn or not): the tests' and a person's view of the list. */
  visibleTexts(pick: (row: R) => string): string[] {
    return this.shown.filter(entry => !isMarker(entry.row)).map(entry => pick(entry.row));
  }
}

function spacer(className: string): HTMLElement {
  const element = document.createElement('li');
  element.className = className;
  element.setAttribute('aria-hidden', 'true');
  return element;
}
