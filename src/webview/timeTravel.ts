/**
 * Time travel in the panel: Activity is a timeline. Clicking a step (or moving with the arrow keys) shows
 * it as it was: its picture over the live one (which keeps streaming underneath), a banner "Step k of n,
 * 14:02:11" with Back to live and Continue from here, and the step's console lines, requests and snapshot
 * under the list, which stays in view with the step selected. Save trace writes the session as a Playwright trace.
 */
import type { StepView } from '../protocol/panelMessages';
import { showStepAddress } from './header';
import { $, el, post } from './dom';
import { requestStep, selectedRange } from './activityExport';
import { clockTime } from './clock';

let shown: StepView | undefined;

export function showStep(view: StepView | null, problem: string | undefined): void {
  shown = view ?? undefined;
  const banner = $('step-banner');
  const picture = $<HTMLImageElement>('step-frame');
  const detail = $('step-detail');
  $('step-problem').textContent = problem ?? '';
  $('step-problem').hidden = !problem;
  showStepAddress(view ? { url: view.url, index: view.index } : undefined);
  if (!view) {
    banner.hidden = true;
    picture.hidden = true;
    picture.removeAttribute('src');
    detail.hidden = true;
    $('view').classList.remove('past');
    return;
  }
  $('view').classList.add('past');
  const from = view.frameFrom !== undefined ? ` (picture from step ${view.frameFrom})` : view.frame ? '' : ' (no picture was drawn)';
  $('step-text').textContent = `Step ${view.index} of ${view.total}, ${clockTime(view.at)}: ${view.title}${from}`;
  $<HTMLButtonElement>('step-restore').disabled = !view.restorable;
  $('step-restore').title = view.restorable
    ? 'Put the browser back to how it was right after this step (its storage, address and size, in a fresh tab); chat is told at its next call'
    : (view.notRestorable ?? 'This step cannot be restored');
  banner.hidden = false;
  detail.hidden = false;
  // The details took part of the pane: the step shown stays in view in the list above them.
  $('activity-list').querySelector<HTMLElement>('li.call[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  // Why Continue from here is off is said in place, not only in a tooltip (a page whose storage was too large, say).
  $('step-where').textContent = [view.pageTitle, view.url, view.notRestorable].filter(Boolean).join(' — ') || 'No page';
  $('step-console').replaceChildren(
    ...(view.console.length
      ? view.console.map(row => el('li', `console ${row.level}`, `${row.level}: ${row.text}`))
      : [el('li', 'empty', 'No console messages in this step')]),
  );
  $('step-network').replaceChildren(
    ...(view.network.length
      ? view.network.map(row => el('li', 'request', `${row.method} ${row.failure ? 'failed' : row.status || '…'} ${row.url}`))
      : [el('li', 'empty', 'No requests in this step')]),
  );
  $('step-snapshot').textContent = view.snapshot ?? 'No snapshot was taken at this step.';
  const drawn = () => requestAnimationFrame(() => post({ type: 'stepDrawn', index: view.index }));
  if (view.frame) {
    picture.src = `data:image/jpeg;base64,${view.frame.data}`;
    picture.hidden = false;
    picture.decode().then(drawn, drawn);
  } else {
    picture.hidden = true;
    picture.removeAttribute('src');
    drawn();
  }
}

export function startTimeTravel(): void {
  $('step-live').addEventListener('click', () => requestStep(null));
  $('step-restore').addEventListener('click', () => {
    if (!shown) return;
    // Once: the host answers with live again, or with why it could not.
    $<HTMLButtonElement>('step-restore').disabled = true;
    post({ type: 'restoreStep', index: shown.index });
  });
  $('save-trace').addEventListener('click', () => post({ type: 'saveTrace', callIds: selectedRange() }));
  document.addEventListener('keydown', event => {
    if (event.key === 'Escape' && shown) requestStep(null);
  });
}

/**
 * What the tests read: the banner while a past step shows, its console lines, whether its picture is drawn, and
 * how many steps of the list a person sees beside the details, the one shown among them (0 when it is not).
 */
export function timeTravelReport(): { stepBanner: string; stepConsole: string[]; stepFrameShown: boolean; stepsInView: number } {
  const picture = $<HTMLImageElement>('step-frame');
  const list = $('activity-list').getBoundingClientRect();
  const inView = [...$('activity-list').querySelectorAll<HTMLElement>('li.call')].filter(row => {
    const box = row.getBoundingClientRect();
    return box.height > 0 && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
  });
  return {
    stepsInView: inView.some(row => row.getAttribute('aria-selected') === 'true') ? inView.length : 0,
    stepBanner: $('step-banner').hidden ? '' : ($('step-text').textContent ?? ''),
    stepConsole: $('step-detail').hidden ? [] : [...$('step-console').querySelectorAll('li.console')].map(item => item.textContent ?? ''),
    stepFrameShown: !picture.hidden && picture.naturalWidth > 0,
  };
}
