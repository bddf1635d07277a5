/**
 * The panel's header, one row as a browser has it: back, forward, reload, the address, the page's size,
 * the actions (moved into the "more" menu when the row is too narrow, see overflowMenu.ts), and the
 * state badge; under it the failure detail, the session picker, and the tabs as chips when there are several.
 */
import type { PanelCommand, PanelState } from '../protocol/panelMessages';
import { $, el, post } from './dom';
import { showPlaceholder } from './frameView';
import { fitActions, startOverflowMenu } from './overflowMenu';
import { showSize, startSizePicker } from './sizePicker';
import { readAddress } from './addressText';
import { showNetworkState } from './networkControls';

/** What the picture area says while no page is open, by the browser's health (worked out in the host). */
const PLACEHOLDERS: Record<PanelState['health']['state'], string> = {
  notStarted: 'No browser yet. Type an address above, press Start Browser, or ask chat to open a page.',
  starting: 'Starting the browser…',
  restarting: 'Starting the browser…',
  ready: 'No page is open yet. Ask chat to open one, or press Start Browser.',
  failed: 'The browser did not start. See the message above.',
  stopped: 'The browser has stopped.',
};

let state: PanelState | undefined;

/** Who drives the browser now (the control button says the opposite). */
export function currentDriver(): PanelState['driver'] | undefined {
  return state?.driver;
}

export function renderState(next: PanelState): void {
  state = next;
  const { health } = next;
  const failed = health.state === 'failed';
  const label = health.state === 'ready' && !next.tabs.length ? `${health.label} (no page yet)` : health.label;
  const badge = $('state');
  badge.textContent = label;
  badge.dataset.state = health.state;
  // In a narrow header the badge is a coloured dot (panel.css): its tooltip starts with its words.
  badge.title = health.detail ? `${label}: ${health.detail}` : `${next.browser}: ${label}`;
  $('detail').textContent = failed ? (health.detail ?? '') : '';
  $('detail').hidden = !failed;

  // Several sessions (isolation perClient): the person picks whose browser the panel shows.
  const sessionRow = $('session-row');
  sessionRow.hidden = next.sessions.length < 2;
  const picker = $<HTMLSelectElement>('session');
  const options = next.sessions.map(session => {
    const option = document.createElement('option');
    option.value = session.id;
    option.textContent = session.label;
    option.selected = session.id === next.watching;
    return option;
  });
  if (document.activeElement !== picker) picker.replaceChildren(...options);

  const tabs = $('tabs');
  // One tab needs no strip (the address names it; New tab is in the menu): chips are for choosing among several.
  tabs.hidden = next.tabs.length < 2;
  tabs.replaceChildren(
    ...(next.tabs.length < 2 ? [] : next.tabs).map((tab, index) => {
      const chip = document.createElement('span');
      chip.className = `tab${tab.current ? ' current' : ''}`;
      chip.setAttribute('role', 'listitem');
      chip.tabIndex = 0;
      const name = tab.title || tab.url || `Tab ${index + 1}`;
      // A tab of a named context (the agent's isolatedContext) says which: its cookies and storage are that context's.
      const inContext = tab.context === undefined ? '' : `In the isolated context "${tab.context}" (its own cookies and storage)\n`;
      if (tab.context !== undefined) chip.append(el('span', 'tab-context', tab.context));
      chip.append(el('span', 'tab-title', name));
      chip.title = `${name}\n${tab.url}\n${inContext}Click to switch to this tab`;
      chip.setAttribute('aria-label', tab.context === undefined ? `Tab: ${name}` : `Tab: ${name}, isolated context ${tab.context}`);
      if (tab.current) chip.setAttribute('aria-current', 'page');
      const select = () => post({ type: 'pageAction', pageAction: { action: 'selectTab', tabId: tab.id } });
      chip.addEventListener('click', select);
      chip.addEventListener('keydown', event => {
        if (event.key === 'Enter' || event.key === ' ') select();
      });
      const close = el('button', 'close codicon codicon-close icon-button');
      close.title = 'Close this tab';
      close.setAttribute('aria-label', `Close ${name}`);
      close.addEventListener('click', event => {
        event.stopPropagation();
        post({ type: 'pageAction', pageAction: { action: 'closeTab', tabId: tab.id } });
      });
      chip.append(close);
      return chip;
    }),
    newTabChip(),
  );
  const current = next.tabs.find(t => t.current);
  // The address shows where the page is, except while the person is typing a new one; its tooltip names the page.
  liveAddress = { url: current?.url ?? '', title: current ? `${current.title}\n${current.url}` : '' };
  showAddress();
  showSize(current?.viewport);
  showNetworkState(next.network);
  // A failed load: the bridge's own page says what failed and why, over the browser's error page.
  $('load-error').hidden = !current?.loadError;
  $('load-error-url').textContent = current?.loadError ? current.url : '';
  $('load-error-reason').textContent = current?.loadError ? `The browser could not load it: ${current.loadError}.` : '';
  const control = $<HTMLButtonElement>('control');
  const driving = next.driver === 'person';
  control.setAttribute('aria-pressed', String(driving));
  control.title = driving ? "Hand the browser back: chat's waiting calls go on" : "Take control: chat's browser calls wait until you hand the browser back";
  control.setAttribute('aria-label', driving ? 'Hand back' : 'Take control');
  control.querySelector('.label')!.textContent = driving ? 'Hand back' : 'Take control';
  $('driving').hidden = !driving;
  $('debugger-paused').hidden = !next.debuggerPaused;

  // Before a page is open these have nothing to act on: shown, but off, saying why.
  for (const id of ['control', 'pick', 'save', 'new-tab', 'stop', 'back', 'forward', 'reload']) {
    const button = $<HTMLButtonElement>(id);
    const off = !current && !(id === 'new-tab' && health.state === 'ready');
    button.disabled = off;
    if (off) button.dataset.why = 'No page is open yet: ask chat to open one, or press Start Browser.';
    else delete button.dataset.why;
  }
  const startButton = $<HTMLButtonElement>('start');
  startButton.hidden = !(health.state === 'notStarted' || (health.state === 'ready' && !next.tabs.length) || failed);
  const pause = $<HTMLButtonElement>('pause');
  pause.setAttribute('aria-pressed', String(next.paused));
  pause.title = next.paused ? 'Resume the live view' : 'Pause the live view';
  pause.setAttribute('aria-label', pause.title);
  pause.querySelector('.codicon')!.className = `codicon ${next.paused ? 'codicon-debug-start' : 'codicon-debug-pause'}`;
  $('paused').hidden = !next.paused;
  $('fallback').hidden = next.frameSource !== 'screenshot';
  fitActions();
  // No page means no picture: a frame of a page that is gone (a restarted browser) must not stay.
  if (!current) showPlaceholder(PLACEHOLDERS[health.state]);
}

/** The live tab's address, and the past step's while time travel shows one (its picture is under it). */
let liveAddress = { url: '', title: '' };
let stepAddress: { url: string; title: string } | undefined;

function showAddress(): void {
  const address = $<HTMLInputElement>('address');
  const shown = stepAddress ?? liveAddress;
  if (document.activeElement !== address) address.value = shown.url;
  address.title = shown.title;
  address.classList.toggle('past', !!stepAddress);
}

/** Time travel: the address bar names the step's page while its picture shows (undefined: the live page again). */
export function showStepAddress(step: { url?: string; index: number } | undefined): void {
  stepAddress = step ? { url: step.url ?? '', title: `The page right after step ${step.index} (not the live page): Live goes back` } : undefined;
  showAddress();
}

/** Wires the toolbar, the navigation bar and the address field (once, when the panel starts). */
export function startHeader(): void {
  for (const [id, command] of [
    ['start', 'start'],
    ['restart', 'restart'],
    ['pause', 'togglePause'],
    ['save', 'saveScreenshot'],
  ] as [string, PanelCommand][]) {
    $(id).addEventListener('click', () => post({ type: 'command', command }));
  }
  $<HTMLSelectElement>('session').addEventListener('change', event => {
    post({ type: 'watchContext', sessionId: (event.target as HTMLSelectElement).value });
  });
  $('control').addEventListener('click', () => post({ type: 'command', command: currentDriver() === 'person' ? 'handBack' : 'takeControl' }));
  $('console-to-chat').addEventListener('click', () => post({ type: 'command', command: 'addConsoleErrorsToChat' }));
  for (const action of ['back', 'forward', 'reload', 'stop'] as const) {
    $(action).addEventListener('click', () => post({ type: 'pageAction', pageAction: { action } }));
  }
  $('new-tab').addEventListener('click', () => post({ type: 'pageAction', pageAction: { action: 'newTab' } }));
  // Try again: the address that failed, loaded anew (the browser's error page would reload itself, not it).
  $('load-error-retry').addEventListener('click', () => {
    const url = $('load-error-url').textContent;
    if (url) post({ type: 'pageAction', pageAction: { action: 'navigate', url } });
  });
  startOverflowMenu();
  startSizePicker();
  // A browser's keys, while the panel has focus: Ctrl/Cmd+L to the address, Alt+Left/Right back and forward.
  // Captured before the page's keyboard field sends them on to the page.
  window.addEventListener(
    'keydown',
    event => {
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'l') {
        event.preventDefault();
        event.stopImmediatePropagation();
        address.focus();
        address.select();
        return;
      }
      const typing = event.target instanceof HTMLInputElement || (event.target instanceof HTMLTextAreaElement && event.target.id !== 'keys');
      if (event.altKey && !mod && !typing && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
        event.preventDefault();
        event.stopImmediatePropagation();
        post({ type: 'pageAction', pageAction: { action: event.key === 'ArrowLeft' ? 'back' : 'forward' } });
      }
    },
    true,
  );
  const address = $<HTMLInputElement>('address');
  address.addEventListener('keydown', event => {
    if (event.key !== 'Enter') return;
    const read = readAddress(address.value);
    if (!read) return;
    if ('notAnAddress' in read) {
      // Said in place, the text kept: there is no search to send it to (the bridge's browser may well be offline).
      address.setCustomValidity(read.notAnAddress);
      address.reportValidity();
      return;
    }
    post({ type: 'pageAction', pageAction: { action: 'navigate', url: read.url } });
    address.blur();
  });
  address.addEventListener('input', () => address.setCustomValidity(''));
}

function newTabChip(): HTMLElement {
  const chip = el('button', 'tab tab-new icon-button', '+');
  chip.title = 'Open a new tab';
  chip.setAttribute('aria-label', 'Open a new tab');
  chip.addEventListener('click', () => post({ type: 'pageAction', pageAction: { action: 'newTab' } }));
  return chip;
}
