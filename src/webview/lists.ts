/**
 * The panel's lists (console, network, activity) and the pane switcher. Each row is drawn once when
 * it arrives or changes; a filter only hides and shows the rows already drawn.
 */
import type { ActivityRow, ConsoleRow, MarkerRow, NetworkRow } from '../protocol/panelMessages';
import type { ConsoleLevel } from '../protocol/childMessages';
import { isMarker } from '../protocol/panelRows';
import { decorateActivityRow } from './activityExport';
import { $, el, vscode } from './dom';

type Row = ConsoleRow | NetworkRow | ActivityRow | MarkerRow;

export class RowList<R extends Row> {
  private readonly rows = new Map<number, { row: R; element: HTMLElement }>();
  constructor(
    private readonly container: HTMLElement,
    private readonly render: (row: R) => HTMLElement,
    private readonly visible: (row: R) => boolean,
    private readonly onChange: () => void,
  ) {}

  upsert(rows: R[], dropBefore: number): void {
    for (const [seq, { element }] of this.rows) {
      if (seq < dropBefore) {
        element.remove();
        this.rows.delete(seq);
      }
    }
    const stick = this.container.scrollTop + this.container.clientHeight >= this.container.scrollHeight - 8;
    for (const row of rows) {
      const element = this.render(row);
      element.hidden = !isMarker(row) && !this.visible(row);
      const known = this.rows.get(row.seq);
      if (known) known.element.replaceWith(element);
      else this.container.append(element);
      this.rows.set(row.seq, { row, element });
    }
    if (stick) this.container.scrollTop = this.container.scrollHeight;
    this.onChange();
  }

  reset(rows: R[]): void {
    this.rows.clear();
    this.container.replaceChildren();
    this.upsert(rows, 0);
  }

  refilter(): void {
    for (const { row, element } of this.rows.values()) element.hidden = !isMarker(row) && !this.visible(row);
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

const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour12: false });
const bytes = (n?: number) => (n === undefined ? '' : n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`);
const duration = (ms?: number) => (ms === undefined ? '…' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

export interface PanelLists {
  consoleList: RowList<ConsoleRow | MarkerRow>;
  networkList: RowList<NetworkRow | MarkerRow>;
  activityList: RowList<ActivityRow | MarkerRow>;
}

function matches(filter: string, text: string): boolean {
  return !filter.trim() || text.toLowerCase().includes(filter.trim().toLowerCase());
}

/** The three lists, drawn into their panes, with their filters and the pane switcher wired (once). */
export function startLists(): PanelLists {
  // Console
  const levelsOn = new Set<ConsoleLevel>(['error', 'warning', 'info', 'debug']);
  const consoleList = new RowList<ConsoleRow | MarkerRow>($('console-list'), row => {
    if (isMarker(row)) return markerElement(row);
    const item = el('li', `console ${row.level}`);
    item.append(el('span', 'time', time(row.time)), el('span', 'level', row.level), el('span', 'text', row.text));
    if (row.location) item.append(el('span', 'location', row.location));
    return item;
  }, row => !isMarker(row) && levelsOn.has(row.level) && matches($<HTMLInputElement>('console-filter').value, `${row.text} ${row.location ?? ''}`), () => {
    const errors = consoleList.all().filter(r => !isMarker(r) && r.level === 'error').length;
    const badge = $('console-errors');
    badge.textContent = String(errors);
    badge.hidden = errors === 0;
    badge.setAttribute('aria-label', `${errors} errors`);
  });
  for (const level of levelsOn) {
    $<HTMLInputElement>(`level-${level}`).addEventListener('change', event => {
      if ((event.target as HTMLInputElement).checked) levelsOn.add(level);
      else levelsOn.delete(level);
      consoleList.refilter();
    });
  }
  $('console-filter').addEventListener('input', () => consoleList.refilter());

  // Network
  const networkList = new RowList<NetworkRow | MarkerRow>($('network-list'), row => {
    if (isMarker(row)) return markerElement(row);
    const failed = !!row.failure || row.status >= 400;
    const item = el('li', `request${failed ? ' failed' : ''}${row.status === 0 && !row.failure ? ' pending' : ''}`);
    item.append(
      el('span', 'method', row.method),
      el('span', 'status', row.failure ? 'failed' : row.status ? String(row.status) : '…'),
      el('span', 'url', row.url),
      el('span', 'type', row.resourceType),
      el('span', 'duration', duration(row.durationMs)),
      el('span', 'size', bytes(row.sizeBytes)),
    );
    item.title = row.failure ? `${row.url}\n${row.failure}` : row.url;
    return item;
  }, row => {
    if (isMarker(row)) return true;
    const statusClass = $<HTMLSelectElement>('status-filter').value;
    const klass = row.failure ? 'failed' : row.status ? `${Math.floor(row.status / 100)}xx` : 'pending';
    const statusMatches = statusClass === 'all' || statusClass === klass || (statusClass === 'failed' && row.status >= 400);
    return statusMatches && matches($<HTMLInputElement>('network-filter').value, `${row.method} ${row.url} ${row.resourceType}`);
  }, () => undefined);
  $('network-filter').addEventListener('input', () => networkList.refilter());
  $('status-filter').addEventListener('change', () => networkList.refilter());

  // Activity
  const DOORS = { tool: 'chat tool', mcp: 'MCP', panel: 'panel', person: 'you' };
  const activityList = new RowList<ActivityRow | MarkerRow>($('activity-list'), row => {
    if (isMarker(row)) return markerElement(row);
    const item = el('li', `call ${row.outcome ?? 'running'}`);
    const head = el('div', 'call-head');
    const icon = row.outcome === 'ok' ? 'codicon-pass' : row.outcome === undefined ? 'codicon-loading codicon-modifier-spin' : 'codicon-error';
    head.append(el('span', `codicon ${icon}`), el('span', 'call-title', row.title), el('span', 'door', DOORS[row.door]),
      el('span', 'duration', duration(row.durationMs)));
    item.append(head);
    if (row.error) item.append(el('div', 'call-error', row.error));
    if (row.thumbnail) {
      const thumb = document.createElement('img');
      thumb.className = 'thumb';
      thumb.src = row.thumbnail;
      thumb.alt = `Image returned by ${row.tool}`;
      item.append(thumb);
    }
    item.title = `${row.tool} at ${time(row.startedAt)}`;
    decorateActivityRow(item, row);
    return item;
  }, () => true, () => undefined);


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
  return { consoleList, networkList, activityList };
}
