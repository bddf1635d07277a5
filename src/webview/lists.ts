/**
 * The panel's lists (console, network, activity) and the pane switcher. Rows are drawn once a frame
 * when they arrive or change. Network is virtualized (virtualRows.ts: one-line rows, only those in sight
 * drawn). Console and Activity rows vary in height: they sit in blocks of 100, a filter hides and shows
 * the rows already drawn, blocks out of sight are skipped whole (`content-visibility` in panel.css), and
 * a list the person is at the end of stays at its end as rows come (RowList.atEnd). Console rows are consoleList.ts's.
 */
import type { ActivityRow, ConsoleRow, MarkerRow, NetworkRow } from '../protocol/panelMessages';
import type { ConsoleLevel } from '../protocol/childMessages';
import { isMarker } from '../protocol/panelRows';
import { decorateActivityRow } from './activityExport';
import { cardElement } from './devtoolsCards';
import { $, el, vscode } from './dom';
import { openRequestId, startRequestDetail } from './requestDetail';
import { PendingRows } from './pendingRows';
import { VirtualRows } from './virtualRows';
import { startNetworkControls } from './networkControls';
import { consoleRowElement, showConsoleProblems, startConsoleControls } from './consoleList';
import { footerText, nameAndPath, shortInitiator, sizeWords, summarize } from './networkWords';
import { clockTime } from './clock';

/** The Network pane's type filter: Playwright's resource types in the classes DevTools shows. */
function typeClassOf(resourceType: string): string {
  if (resourceType === 'xhr' || resourceType === 'fetch' || resourceType === 'eventsource') return 'fetch';
  return ['document', 'script', 'stylesheet', 'image'].includes(resourceType) ? resourceType : 'other';
}

type Row = ConsoleRow | NetworkRow | ActivityRow | MarkerRow;

/** Rows a block holds (see RowList.lastBlock). */
const BLOCK_ROWS = 100;
/** How near the end (in CSS pixels) still counts as at the end: a fraction of a row, rounding. */
const STICK_SLACK_PX = 8;

export class RowList<R extends Row> {
  private readonly rows = new Map<number, { row: R; element: HTMLElement; text: string }>();
  private readonly pending = new PendingRows<R>(() => this.flush());
  /**
   * The list's last child, the only one the browser may anchor its scroll to (panel.css): a row that grows above
   * the view (unfolded, updated) does not move what the person reads.
   */
  private readonly anchor = el('li', 'anchor');
  /**
   * Whether the person is at the end: new rows then keep the list scrolled to its end, as DevTools' Console does;
   * scrolled up, it stays where they are. (Scroll anchoring alone does not: it never applies at scroll position 0.)
   */
  private atEnd = true;
  constructor(
    private readonly container: HTMLElement,
    private readonly render: (row: R) => HTMLElement,
    /** What the text filter searches in a row, lowercased once when the row is drawn (not at every keystroke). */
    private readonly searchText: (row: R) => string,
    /** The filters as they are now, read once: whether a row (with its search text) shows. */
    private readonly filter: () => (row: R, text: string) => boolean,
    private readonly onChange: () => void,
  ) {
    this.anchor.setAttribute('aria-hidden', 'true');
    container.append(this.anchor);
    container.addEventListener('scroll', () => (this.atEnd = container.scrollTop + container.clientHeight >= container.scrollHeight - STICK_SLACK_PX), {
      passive: true,
    });
  }

  upsert(rows: R[], dropBefore: number): void {
    this.pending.add(rows, dropBefore);
  }

  /** Draws the rows that came: a row updated several times meanwhile is drawn once, as it is last. */
  flush(): void {
    const taken = this.pending.take();
    if (!taken) return;
    const { rows, dropBefore } = taken;
    for (const [seq, { element }] of this.rows) {
      if (seq >= dropBefore) break;
      const block = element.parentElement?.parentElement;
      element.remove();
      if (block && !block.firstElementChild?.firstElementChild) block.remove();
      this.rows.delete(seq);
    }
    const visible = this.filter();
    for (const row of rows) {
      const element = this.render(row);
      element.setAttribute('role', 'listitem');
      const text = isMarker(row) ? '' : this.searchText(row).toLowerCase();
      element.hidden = !isMarker(row) && !visible(row, text);
      const known = this.rows.get(row.seq);
      if (known) known.element.replaceWith(element);
      else this.lastBlock().append(element);
      this.rows.set(row.seq, { row, element, text });
    }
    this.onChange();
    // One layout read a frame at most, and only while at the end.
    if (this.atEnd) this.container.scrollTop = this.container.scrollHeight;
  }

  reset(rows: R[]): void {
    this.rows.clear();
    this.pending.replace(rows);
    this.container.replaceChildren(this.anchor);
    // A new list starts at its end.
    this.atEnd = true;
    this.flush();
  }

  /**
   * The block new rows go into: rows sit in blocks of BLOCK_ROWS, and a block out of sight is skipped whole
   * (`content-visibility` in panel.css), its rows' styles too, when a filter hides or shows hundreds of rows.
   */
  private lastBlock(): HTMLElement {
    const last = this.anchor.previousElementSibling?.firstElementChild as HTMLElement | null | undefined;
    if (last && last.childElementCount < BLOCK_ROWS) return last;
    const block = el('li', 'block');
    block.setAttribute('role', 'none');
    const rows = el('ul', 'block-rows');
    rows.setAttribute('role', 'none');
    block.append(rows);
    this.container.insertBefore(block, this.anchor);
    return rows;
  }

  /** A filter changed: only rows whose visibility changes are touched. */
  refilter(): void {
    const visible = this.filter();
    for (const { row, element, text } of this.rows.values()) {
      const hidden = !isMarker(row) && !visible(row, text);
      if (element.hidden !== hidden) element.hidden = hidden;
    }
  }

  all(): R[] {
    return [...this.rows.values()].map(r => r.row);
  }

  visibleTexts(pick: (row: R) => string): string[] {
    return [...this.rows.values()].filter(r => !r.element.hidden && !isMarker(r.row)).map(r => pick(r.row));
  }
}

function markerElement(row: MarkerRow): HTMLElement {
  return el('li', 'marker', row.marker);
}

/** The list's own zero for the waterfall (its first request): bar positions stay small numbers CSS computes exactly. */
let waterfallOrigin: number | undefined;

/** A request's bar: its start and length in ms from the origin; the list's range (showWaterfallRange) scales it. */
function waterfallBar(row: NetworkRow): HTMLElement {
  waterfallOrigin ??= row.time;
  const cell = el('span', 'waterfall');
  const bar = el('i', '');
  bar.style.setProperty('--t0', String(Math.max(0, row.time - waterfallOrigin)));
  bar.style.setProperty('--dt', String(Math.max(0, row.durationMs ?? 0)));
  cell.append(bar);
  // Its tooltip is worded when the pointer comes (waterfallTitle): a burst redraws hundreds of bars a second.
  cell.dataset.time = String(row.time);
  if (row.durationMs !== undefined) cell.dataset.durationMs = String(row.durationMs);
  return cell;
}

/** A bar's tooltip, worded the first time the pointer is over it. */
function waterfallTitle(event: Event): void {
  const cell = (event.target as Element).closest<HTMLElement>('.waterfall');
  if (!cell || cell.title || !cell.dataset.time) return;
  const durationMs = cell.dataset.durationMs === undefined ? undefined : Number(cell.dataset.durationMs);
  cell.title = `Started ${clockTime(Number(cell.dataset.time))}; ${duration(durationMs)}`;
}

/** The waterfall spans the requests shown: from the first start to the last end (set once on the list, read by every bar). */
function showWaterfallRange(list: HTMLElement, rows: readonly (NetworkRow | MarkerRow)[]): void {
  let first = Infinity;
  let last = -Infinity;
  // The origin is the earliest request of the first rows shown, whatever order they are sorted in.
  if (waterfallOrigin === undefined) {
    for (const row of rows) if (!isMarker(row)) waterfallOrigin = Math.min(waterfallOrigin ?? Infinity, row.time);
  }
  for (const row of rows) {
    if (isMarker(row) || waterfallOrigin === undefined) continue;
    const start = row.time - waterfallOrigin;
    first = Math.min(first, start);
    last = Math.max(last, start + (row.durationMs ?? 0));
  }
  if (first === Infinity) return;
  // Set on the list, a change restyles every drawn row: the span grows in steps of a half (a burst of requests
  // changes it a few times, not at every frame), and only a new start (a cleared list) moves the origin.
  const min = Math.max(0, first);
  const needed = Math.max(1, last - min);
  const shownRange = waterfallRange;
  if (shownRange && shownRange.min === min && needed <= shownRange.span && needed > shownRange.span / 3) return;
  const span = Math.ceil(needed * 1.5);
  waterfallRange = { min, span };
  list.style.setProperty('--wf-min', String(min));
  list.style.setProperty('--wf-span', String(span));
}

let waterfallRange: { min: number; span: number } | undefined;

/** Name as DevTools' big rows show it: the file, and beneath it (dimmer) the host and path; the whole address in the tooltip. */
function nameCell(url: string): HTMLElement {
  const { name, path } = nameAndPath(url);
  const cell = el('span', 'name');
  cell.append(el('span', 'url', name), el('span', 'path', path));
  cell.title = url;
  return cell;
}

/** Size: what came over the wire, or "(memory cache)"/"(disk cache)"; beneath it the resource's own size. */
function sizeCell(row: NetworkRow): HTMLElement {
  const words = sizeWords(row);
  const cell = el('span', 'size');
  cell.append(el('span', 'transferred', words.transferred), el('span', 'resource', words.resource));
  cell.title = words.title;
  return cell;
}

/**
 * The footer under the list (requests, transferred, resources, DOMContentLoaded and load of the page), and
 * those two moments as the waterfall's blue and red lines, placed on the list like the range.
 */
function showNetworkSummary(rows: readonly (NetworkRow | MarkerRow)[]): void {
  const summary = summarize(rows);
  $('network-summary').textContent = footerText(summary);
  const list = $('network-list');
  let page: NetworkRow | undefined;
  for (const row of rows) if (!isMarker(row) && row.navigation) page = row;
  const at = (ms: number | undefined) => (page && ms !== undefined && waterfallOrigin !== undefined ? String(page.time - waterfallOrigin + ms) : '');
  for (const [name, ms] of [
    ['--wf-dcl', summary.domContentLoadedMs],
    ['--wf-load', summary.loadMs],
  ] as const) {
    if (at(ms)) list.style.setProperty(name, at(ms));
    else list.style.removeProperty(name);
  }
  list.classList.toggle('with-page-lines', !!at(summary.loadMs) || !!at(summary.domContentLoadedMs));
}

const duration = (ms?: number) => (ms === undefined ? '…' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

export interface PanelLists {
  consoleList: RowList<ConsoleRow | MarkerRow>;
  networkList: VirtualRows<NetworkRow | MarkerRow>;
  activityList: RowList<ActivityRow | MarkerRow>;
}

/** The lists once started (the tests' describe reads what their filters show, drawn or not). */
export let panelLists: PanelLists | undefined;

/** The text filter as typed, ready to test lowercased search texts with. */
function textFilter(id: string): (text: string) => boolean {
  const wanted = $<HTMLInputElement>(id).value.trim().toLowerCase();
  return wanted ? text => text.includes(wanted) : () => true;
}

/** The three lists, drawn into their panes, with their filters and the pane switcher wired (once). */
export function startLists(): PanelLists {
  // Console
  const levelsOn = new Set<ConsoleLevel>(['error', 'warning', 'info', 'debug']);
  const consoleList = new RowList<ConsoleRow | MarkerRow>(
    $('console-list'),
    row => (isMarker(row) ? markerElement(row) : consoleRowElement(row)),
    row => (isMarker(row) ? '' : `${row.text} ${row.location ?? ''}`),
    () => {
      const text = textFilter('console-filter');
      return (row, search) => !isMarker(row) && levelsOn.has(row.level) && text(search);
    },
    () => showConsoleProblems(consoleList.all()),
  );
  startConsoleControls();
  for (const level of levelsOn) {
    $<HTMLInputElement>(`level-${level}`).addEventListener('change', event => {
      if ((event.target as HTMLInputElement).checked) levelsOn.add(level);
      else levelsOn.delete(level);
      consoleList.refilter();
    });
  }
  $('console-filter').addEventListener('input', () => consoleList.refilter());

  // Network
  $('network-list').addEventListener('mouseover', waterfallTitle);
  const networkList = new VirtualRows<NetworkRow | MarkerRow>(
    $('network-list'),
    row => {
      if (isMarker(row)) return markerElement(row);
      const failed = !!row.failure || row.status >= 400;
      const item = el('li', `request${failed ? ' failed' : ''}${row.status === 0 && !row.failure ? ' pending' : ''}`);
      const initiator = el('span', 'initiator', shortInitiator(row.initiator));
      initiator.title = row.initiator ?? '';
      item.append(
        nameCell(row.url),
        el('span', 'method', row.method),
        el('span', 'status', row.failure ? 'failed' : row.status ? String(row.status) : '…'),
        el('span', 'type', row.resourceType),
        initiator,
        sizeCell(row),
        el('span', 'duration', duration(row.durationMs)),
        waterfallBar(row),
      );
      item.title = `${row.failure ? `${row.url}\n${row.failure}` : row.url}${row.initiator ? `\nInitiator: ${row.initiator}` : ''}\nClick (or Enter) for headers, cookies, bodies and timing`;
      item.dataset.requestId = row.id;
      item.dataset.seq = String(row.seq);
      item.tabIndex = -1;
      if (row.id === openRequestId()) item.setAttribute('aria-selected', 'true');
      return item;
    },
    row => (isMarker(row) ? '' : `${row.method} ${row.url} ${row.resourceType}`),
    () => {
      const statusClass = $<HTMLSelectElement>('status-filter').value;
      const typeClass = $<HTMLSelectElement>('type-filter').value;
      const text = textFilter('network-filter');
      return (row, search) => {
        if (isMarker(row)) return true;
        const klass = row.failure ? 'failed' : row.status ? `${Math.floor(row.status / 100)}xx` : 'pending';
        const statusMatches = statusClass === 'all' || statusClass === klass || (statusClass === 'failed' && row.status >= 400);
        return statusMatches && (typeClass === 'all' || typeClass === typeClassOf(row.resourceType)) && text(search);
      };
    },
    rows => {
      showWaterfallRange($('network-list'), rows);
      showNetworkSummary(rows);
    },
  );
  $('network-filter').addEventListener('input', () => networkList.refilter());
  $('status-filter').addEventListener('change', () => networkList.refilter());
  $('type-filter').addEventListener('change', () => networkList.refilter());
  startRequestDetail($('network-list'), networkList);
  startNetworkControls(networkList);

  // Activity
  const DOORS = { tool: 'chat tool', mcp: 'MCP', panel: 'panel', person: 'you' };
  const activityList = new RowList<ActivityRow | MarkerRow>(
    $('activity-list'),
    row => {
      if (isMarker(row)) return markerElement(row);
      const item = el('li', `call ${row.outcome ?? 'running'}`);
      const head = el('div', 'call-head');
      const icon = row.outcome === 'ok' ? 'codicon-pass' : row.outcome === undefined ? 'codicon-loading codicon-modifier-spin' : 'codicon-error';
      head.append(
        el('span', `codicon ${icon}`),
        el('span', 'call-title', row.title),
        el('span', 'door', DOORS[row.door]),
        el('span', 'duration', duration(row.durationMs)),
      );
      item.append(head);
      if (row.error) item.append(el('div', 'call-error', row.error));
      if (row.thumbnail) {
        const thumb = document.createElement('img');
        thumb.className = 'thumb';
        thumb.src = row.thumbnail;
        thumb.alt = `Image returned by ${row.tool}`;
        item.append(thumb);
      }
      const card = cardElement(row);
      if (card) item.append(card);
      item.title = `${row.tool} at ${clockTime(row.startedAt)}`;
      decorateActivityRow(item, row);
      return item;
    },
    () => '',
    () => () => true,
    () => undefined,
  );

  // Pane switcher (keyboard: arrow keys move between tabs, as a tablist should)
  const paneTabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  function selectPane(tab: HTMLButtonElement): void {
    for (const other of paneTabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute('aria-controls')!).hidden = !selected;
    }
    vscode.setState({ pane: tab.id });
  }
  for (const tab of paneTabs) {
    tab.addEventListener('click', () => selectPane(tab));
    tab.addEventListener('keydown', event => {
      const index = paneTabs.indexOf(tab);
      const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? paneTabs.length - 1 : 0;
      const next = step ? paneTabs[(index + step) % paneTabs.length] : undefined;
      if (next) {
        selectPane(next);
        next.focus();
      }
    });
  }
  const saved = vscode.getState() as { pane?: string } | undefined;
  selectPane(paneTabs.find(t => t.id === saved?.pane) ?? paneTabs[0]);
  panelLists = { consoleList, networkList, activityList };
  return panelLists;
}
