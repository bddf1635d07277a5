/**
 * The tests' view of the panel, in the test bundle only (dist/webview/panel-test.js; the build drops it
 * from panel.js, which the VSIX ships): what a person sees, read from the DOM, and what they would notice
 * at this size (controls cut off, toggles wrapping, the frame in bands).
 */
import type { PanelLayout, PanelReport } from '../protocol/panelMessages';
import { exportReport } from './activityExport';
import { timeTravelReport } from './timeTravel';
import { $, post } from './dom';
import { requestDetailReport } from './requestDetail';
import { fitActions } from './overflowMenu';
import { panelLists } from './lists';

/** Rows the header's visible controls take: the toolbar is one; tabs, notes and the session picker add theirs. */
function headerRows(): number {
  const controls = [...document.querySelectorAll<HTMLElement>('#bar > *, #actions > *')].filter(
    element => element.offsetParent !== null && element.id !== 'actions',
  );
  const boxes = controls.map(control => control.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  let rows = 0;
  let bottom = -Infinity;
  for (const box of boxes) {
    if (box.top >= bottom - 2) rows++;
    bottom = rows && box.top >= bottom - 2 ? box.bottom : Math.max(bottom, box.bottom);
  }
  return rows + [...document.querySelectorAll<HTMLElement>('header > :not(#bar):not(#more-menu)')].filter(element => element.offsetParent !== null).length;
}

export function answerDescribe(id: number): void {
  // As the next frame will paint it: a resize's ResizeObserver (which fits the header's row) runs before the
  // paint, but a message can come between the new layout and that callback.
  fitActions();
  post({ type: 'report', id, report: report() });
}

const visibleRows = (list: string, item: string, field: string) =>
  [...$(list).querySelectorAll<HTMLElement>(`${item}:not([hidden]) ${field}`)].map(element => element.textContent ?? '');

function frameDrawn(): boolean {
  const frame = $<HTMLImageElement>('frame');
  return !frame.hidden && frame.naturalWidth > 0;
}

function sizeOf(text: string | undefined): { width: number; height: number } | undefined {
  const [width, height] = (text ?? '').split('x').map(Number);
  return width && height ? { width, height } : undefined;
}

function report(): PanelReport {
  const frame = $<HTMLImageElement>('frame');
  const drawn = frameDrawn();
  return {
    frameDrawn: drawn,
    frameSize: drawn ? { width: frame.naturalWidth, height: frame.naturalHeight } : undefined,
    pictureOf: drawn ? sizeOf(frame.dataset.pageSize) : undefined,
    pictureBox: drawn ? { width: Math.round(frame.getBoundingClientRect().width), height: Math.round(frame.getBoundingClientRect().height) } : undefined,
    consoleTexts: visibleRows('console-list', 'li.console', '.text'),
    // Virtualized: what its filters show, drawn or not (a person scrolls to the rest).
    networkUrls: panelLists?.networkList.visibleTexts(row => ('url' in row ? row.url : '')) ?? [],
    activityTitles: visibleRows('activity-list', 'li.call', '.call-title'),
    activityErrors: visibleRows('activity-list', 'li.call', '.call-error'),
    activityCards: [...$('activity-list').querySelectorAll<HTMLElement>('li.call .card')].map(card =>
      [
        ...[...card.querySelectorAll('.vital')].map(vital => `${vital.textContent} (${vital.className.replace('vital ', '')})`),
        ...[...card.querySelectorAll('.card-line, li.finding')].map(line => line.textContent ?? ''),
      ].join('\n'),
    ),
    header: [
      $('state').textContent,
      $<HTMLInputElement>('address').value,
      $('address').title.split('\n')[0],
      ...($('network-note').hidden ? [] : [$('network-note').textContent]),
    ].join(' | '),
    layout: layout(),
    ...exportReport(),
    ...timeTravelReport(),
    requestDetail: requestDetailReport(),
    sizeLabel: $('size-current').textContent ?? '',
    loadError: $('load-error').hidden ? '' : [...$('load-error').querySelectorAll('h2, p')].map(part => part.textContent).join('\n'),
    addressMessage: $<HTMLInputElement>('address').validationMessage,
    headerRows: headerRows(),
  };
}

function layout(): PanelLayout {
  const width = document.documentElement.clientWidth;
  const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
  const selector =
    '#bar > :not(#actions), #actions > *, .pane:not([hidden]) .filters input, .pane:not([hidden]) .filters select, .pane:not([hidden]) .filters label';
  const controls = [...document.querySelectorAll<HTMLElement>(selector)].filter(visible);
  const cutControls = controls
    .filter(control => {
      const box = control.getBoundingClientRect();
      // A text field scrolls its own text (a long address): only its box counts.
      const scrolls = control instanceof HTMLInputElement && control.type !== 'checkbox';
      return box.right > width + 1 || (!scrolls && control.scrollWidth > control.clientWidth + 1);
    })
    .map(control => control.id || control.textContent?.trim() || control.className);
  const filter = [...document.querySelectorAll<HTMLInputElement>('.pane:not([hidden]) .filters input[type="search"]')].find(visible);
  const levelLabels = [...document.querySelectorAll<HTMLElement>('.levels label')].filter(visible);
  const levelTops = new Set(levelLabels.map(label => Math.round(label.getBoundingClientRect().top)));
  let frameBands = 0;
  if (frameDrawn()) {
    const box = $('view').getBoundingClientRect();
    const image = $('frame').getBoundingClientRect();
    frameBands = Math.round(Math.max(box.width - image.width, box.height - image.height));
  }
  const detail = $('request-detail');
  const list = $('network-list');
  const requestDetailPlace = detail.hidden
    ? 'closed'
    : visible(list) && list.getBoundingClientRect().width > 0 && detail.getBoundingClientRect().left >= list.getBoundingClientRect().right - 1
      ? 'beside'
      : 'over';
  return {
    width,
    cutControls,
    filterWidth: Math.round(filter?.getBoundingClientRect().width ?? 0),
    levelsOnOneLine: levelTops.size <= 1,
    frameBands,
    addressWidth: Math.round($('address').getBoundingClientRect().width),
    requestDetailPlace,
    requestTitleWidth: detail.hidden ? 0 : Math.round($('request-title').getBoundingClientRect().width),
  };
}

/**
 * Requests the panel has listed since it started, and when each first came (the bench reads them as
 * `window.panelRequestsListed` and `window.panelRequestsListedAt` to time a burst as the panel took it in).
 */
const listed = new Set<string>();
const listedAt: number[] = [];
export function countRequests(rows: { seq: number }[]): void {
  for (const row of rows) {
    if (!('id' in row) || typeof row.id !== 'string' || listed.has(row.id)) continue;
    listed.add(row.id);
    listedAt.push(performance.now());
  }
  Object.assign(window, { panelRequestsListed: listed.size, panelRequestsListedAt: listedAt });
}
