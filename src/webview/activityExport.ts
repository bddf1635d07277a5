/**
 * Selection in the Activity pane, and Export as Playwright test: clicking a row selects it and shows that
 * step as it was (time travel); the arrow keys move to the step before or after; Shift+click selects a range
 * and Ctrl/Cmd+click adds or removes a row. The button exports every step since the browser started, or the
 * range selected (two rows or more); a line says how the last export went, and each row the test covers is
 * marked (passed, failed, not reached).
 */
import type { ActivityRow, ExportStatus, ExportVerdict } from '../protocol/panelMessages';
import { $, el, post } from './dom';

const selected = new Set<number>();
let lastClicked: number | undefined;
let marks = new Map<number, ExportVerdict>();

const VERDICT_ICONS: Record<ExportVerdict, string> = { passed: 'codicon-beaker', failed: 'codicon-beaker-stop', notReached: 'codicon-circle-slash' };
const VERDICT_WORDS: Record<ExportVerdict, string> = {
  passed: 'passed in the exported test',
  failed: 'failed in the exported test',
  notReached: 'not reached in the exported test',
};

/** One selected row is the step on show; a range for export takes two or more. */
const exportRange = () => selected.size >= 2;

function label(): void {
  const button = $('export-test');
  const text = exportRange() ? `Export ${selected.size} selected as test` : 'Export as test';
  button.querySelector('.label')!.textContent = text;
  button.title = exportRange()
    ? 'Write the selected steps (from the first to the last selected) as a Playwright test, and run it'
    : 'Write every step since the browser started as a Playwright test, and run it with Playwright Test';
}

/** Call ids of the activity rows in the list's order. */
function rowIds(): number[] {
  return [...$('activity-list').querySelectorAll<HTMLElement>('li.call')].map(item => Number(item.dataset.callId));
}

/** Called for each activity row as it is drawn: its selection and its mark. */
export function decorateActivityRow(item: HTMLElement, row: ActivityRow): void {
  item.dataset.callId = String(row.id);
  item.setAttribute('aria-selected', String(selected.has(row.id)));
  putMark(item, marks.get(row.id));
}

function putMark(item: HTMLElement, verdict: ExportVerdict | undefined): void {
  item.querySelector('.export-mark')?.remove();
  if (!verdict) return;
  const mark = el('span', `export-mark ${verdict} codicon ${VERDICT_ICONS[verdict]}`);
  mark.title = VERDICT_WORDS[verdict];
  mark.setAttribute('aria-label', VERDICT_WORDS[verdict]);
  item.querySelector('.call-head')?.prepend(mark);
}

function redrawMarks(): void {
  for (const item of $('activity-list').querySelectorAll<HTMLElement>('li.call')) putMark(item, marks.get(Number(item.dataset.callId)));
}

export function showExportStatus(status: ExportStatus): void {
  const line = $('export-status');
  line.textContent = status.text;
  line.className = `export-status ${status.state}`;
  marks = new Map(status.marks.map(m => [m.callId, m.verdict]));
  redrawMarks();
}

/** No export to speak of (a new browser, another session). */
export function clearExportStatus(): void {
  const line = $('export-status');
  line.textContent = '';
  line.className = 'export-status';
  marks = new Map();
  redrawMarks();
}

export function startActivityExport(): void {
  $('export-test').addEventListener('click', () => post({ type: 'exportTest', callIds: selectedRange() }));
  const list = $('activity-list');
  list.addEventListener('click', event => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('li.call');
    if (!item) return;
    const id = Number(item.dataset.callId);
    const ids = rowIds();
    if (event.shiftKey && lastClicked !== undefined && ids.includes(lastClicked)) {
      const [a, b] = [ids.indexOf(lastClicked), ids.indexOf(id)].sort((x, y) => x - y);
      for (const between of ids.slice(a, b + 1)) selected.add(between);
    } else if (event.ctrlKey || event.metaKey) {
      if (selected.has(id)) selected.delete(id);
      else selected.add(id);
    } else {
      selectOnly(id);
      return;
    }
    lastClicked = id;
    redrawSelection();
  });
  list.addEventListener('keydown', event => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    const ids = rowIds();
    const at = lastClicked === undefined ? -1 : ids.indexOf(lastClicked);
    const next = ids[at < 0 ? ids.length - 1 : Math.max(0, Math.min(ids.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (next !== undefined) selectOnly(next);
  });
  label();
}

/** The rows from the first selected to the last (two or more selected), or none: every step. For export and for a trace. */
/** Asks for the step listed as this activity row (the host answers with a `stepView`; null: the live page again). */
export function requestStep(callId: number | null): void {
  post({ type: 'showStep', callId });
}

export function selectedRange(): number[] {
  const ids = rowIds();
  const chosen = exportRange() ? ids.filter(id => selected.has(id)) : [];
  return chosen.length ? ids.slice(ids.indexOf(chosen[0]), ids.indexOf(chosen[chosen.length - 1]) + 1) : [];
}

/** One row selected: its step is shown as it was. */
function selectOnly(id: number): void {
  selected.clear();
  selected.add(id);
  lastClicked = id;
  redrawSelection();
  $('activity-list').querySelector<HTMLElement>(`li.call[data-call-id="${id}"]`)?.scrollIntoView({ block: 'nearest' });
  requestStep(id);
}

/** Back to live: the selection goes with the step shown. */
export function clearSelection(): void {
  selected.clear();
  lastClicked = undefined;
  redrawSelection();
}

function redrawSelection(): void {
  for (const row of $('activity-list').querySelectorAll<HTMLElement>('li.call'))
    row.setAttribute('aria-selected', String(selected.has(Number(row.dataset.callId))));
  label();
}

/** What the tests read: the export line and each marked row. */
export function exportReport(): { exportStatus: string; exportMarks: string[] } {
  const rows = [...$('activity-list').querySelectorAll<HTMLElement>('li.call')];
  return {
    exportStatus: $('export-status').textContent ?? '',
    exportMarks: rows
      .filter(r => r.querySelector('.export-mark'))
      .map(r => {
        const verdict = marks.get(Number(r.dataset.callId)) ?? '';
        return `${verdict}: ${r.querySelector('.call-title')?.textContent ?? ''}`;
      }),
  };
}
