/**
 * The browser panel's webview: live frames of the page chat drives, its tabs, console, network
 * and tool activity. Talks to the extension only through the messages in protocol/panelMessages.
 */
import type {
  ActivityRow, ConsoleRow, HostToPanel, MarkerRow, NetworkRow, PanelCommand, PanelLayout, PanelReport, PanelState, PanelToHost,
} from '../protocol/panelMessages';
import type { ConsoleLevel } from '../protocol/childMessages';
import { isMarker } from '../protocol/panelRows';

declare function acquireVsCodeApi(): { postMessage(message: PanelToHost): void; getState(): unknown; setState(state: unknown): void };

const vscode = acquireVsCodeApi();
const post = (message: PanelToHost) => vscode.postMessage(message);
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

type Row = ConsoleRow | NetworkRow | ActivityRow | MarkerRow;

// ---- header, toolbar, state --------------------------------------------------------------------

const STATE_LABELS: Record<PanelState['bridge'], string> = {
  idle: 'Not started', starting: 'Starting…', ready: 'Ready', restarting: 'Restarting…', failed: 'Failed', disposed: 'Stopped',
};

let state: PanelState | undefined;

function renderState(next: PanelState): void {
  state = next;
  const browserFailed = next.browserState === 'failed';
  const label = browserFailed ? 'Browser failed to start' : next.bridge === 'ready' && !next.tabs.length ? 'Ready (no page yet)' : STATE_LABELS[next.bridge];
  const badge = $('state');
  badge.textContent = label;
  badge.dataset.state = browserFailed ? 'failed' : next.bridge;
  badge.title = next.detail ?? `${next.browser}: ${label}`;
  $('detail').textContent = next.bridge === 'failed' || browserFailed ? next.detail ?? '' : '';
  $('detail').hidden = !(next.bridge === 'failed' || browserFailed);

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
  // One tab is already named by the title line below: chips are for choosing among several; the
  // new-tab button is there whenever a page is.
  tabs.hidden = next.tabs.length === 0;
  tabs.replaceChildren(...(next.tabs.length < 2 ? [] : next.tabs).map((tab, index) => {
    const chip = document.createElement('span');
    chip.className = `tab${tab.current ? ' current' : ''}`;
    chip.textContent = tab.title || tab.url || `Tab ${index + 1}`;
    chip.title = `${tab.url}\nClick to switch to this tab`;
    chip.setAttribute('role', 'listitem');
    if (tab.current) chip.setAttribute('aria-current', 'page');
    chip.addEventListener('click', () => post({ type: 'pageAction', pageAction: { action: 'selectTab', tabId: tab.id } }));
    const close = el('button', 'close codicon codicon-close icon-button');
    close.title = 'Close this tab';
    close.setAttribute('aria-label', `Close ${chip.textContent}`);
    close.addEventListener('click', event => {
      event.stopPropagation();
      post({ type: 'pageAction', pageAction: { action: 'closeTab', tabId: tab.id } });
    });
    chip.append(close);
    return chip;
  }), newTabChip());
  const current = next.tabs.find(t => t.current);
  $('url').textContent = current?.url ?? '';
  // The address shows where the page is, except while the person is typing a new one.
  const address = $<HTMLInputElement>('address');
  if (document.activeElement !== address) address.value = current?.url ?? '';
  const control = $<HTMLButtonElement>('control');
  const driving = next.driver === 'person';
  control.setAttribute('aria-pressed', String(driving));
  control.title = driving ? 'Hand the browser back: chat\'s waiting calls go on' : 'Take control: chat\'s browser calls wait until you hand the browser back';
  control.setAttribute('aria-label', driving ? 'Hand back' : 'Take control');
  control.querySelector('.label')!.textContent = driving ? 'Hand back' : 'Take control';
  $('driving').hidden = !driving;
  $('title').textContent = current?.title ?? '';

  const startButton = $<HTMLButtonElement>('start');
  startButton.hidden = !(next.bridge === 'idle' || (next.bridge === 'ready' && !next.tabs.length) || next.bridge === 'failed');
  const pause = $<HTMLButtonElement>('pause');
  pause.setAttribute('aria-pressed', String(next.paused));
  pause.title = next.paused ? 'Resume the live view' : 'Pause the live view';
  pause.setAttribute('aria-label', pause.title);
  pause.querySelector('.codicon')!.className = `codicon ${next.paused ? 'codicon-debug-start' : 'codicon-debug-pause'}`;
  $('paused').hidden = !next.paused;
  $('fallback').hidden = next.frameSource !== 'screenshot';
  // No page means no picture: a frame of a page that is gone (a restarted browser) must not stay.
  if (!current) showPlaceholder(placeholderText(next));
}

function placeholderText(next: PanelState): string {
  if (next.browserState === 'failed' || next.bridge === 'failed') return 'The browser did not start. See the message above.';
  if (next.bridge === 'starting' || next.bridge === 'restarting' || next.browserState === 'launching') return 'Starting the browser…';
  if (next.bridge === 'ready') return 'No page is open yet. Ask chat to open one, or press Start Browser.';
  if (next.bridge === 'disposed') return 'The browser has stopped.';
  return 'The browser starts on the first tool call.';
}

for (const [id, command] of [['start', 'start'], ['restart', 'restart'], ['pause', 'togglePause'], ['save', 'saveScreenshot']] as [string, PanelCommand][]) {
  $(id).addEventListener('click', () => post({ type: 'command', command }));
}
$<HTMLSelectElement>('session').addEventListener('change', event => {
  post({ type: 'watchSession', sessionId: (event.target as HTMLSelectElement).value });
});
$('control').addEventListener('click', () => post({ type: 'command', command: state?.driver === 'person' ? 'handBack' : 'takeControl' }));
$('console-to-chat').addEventListener('click', () => post({ type: 'command', command: 'addConsoleErrorsToChat' }));

// ---- Add to Chat: point at an element, click to attach it ----------------------------------------

let picking = false;
let pickStart: { x: number; y: number; clientX: number; clientY: number } | undefined;
function setPicking(on: boolean): void {
  if (picking && !on) post({ type: 'pick', pick: { phase: 'cancel' } });
  picking = on;
  view.classList.toggle('picking', on);
  $('pick').setAttribute('aria-pressed', String(on));
  $('picking').hidden = !on;
}
$('pick').addEventListener('click', () => setPicking(!picking));
window.addEventListener('keydown', event => {
  if (picking && event.key === 'Escape') setPicking(false);
});

// ---- navigation bar and tabs -------------------------------------------------------------------

for (const action of ['back', 'forward', 'reload', 'stop'] as const) {
  $(action).addEventListener('click', () => post({ type: 'pageAction', pageAction: { action } }));
}
$<HTMLInputElement>('address').addEventListener('keydown', event => {
  if (event.key !== 'Enter') return;
  const url = addressToUrl((event.target as HTMLInputElement).value);
  if (url) post({ type: 'pageAction', pageAction: { action: 'navigate', url } });
  (event.target as HTMLInputElement).blur();
});

/** What the person typed, as a URL: a bare host gets a scheme (http for local ones). */
function addressToUrl(text: string): string | undefined {
  const typed = text.trim();
  if (!typed) return undefined;
  // "localhost:3000" is a host and port, not a scheme: a scheme is followed by // (or is about:, data:, file:).
  if (/^[a-z][\w+.-]*:\/\//i.test(typed) || /^(about|data|file):/i.test(typed)) return typed;
  return /^(localhost|127\.|\[::1\])/i.test(typed) ? `http://${typed}` : `https://${typed}`;
}

function newTabChip(): HTMLElement {
  const chip = el('button', 'tab tab-new icon-button', '+');
  chip.title = 'Open a new tab';
  chip.setAttribute('aria-label', 'Open a new tab');
  chip.addEventListener('click', () => post({ type: 'pageAction', pageAction: { action: 'newTab' } }));
  return chip;
}

// ---- live frame --------------------------------------------------------------------------------

const view = $('view');
const frameImage = $<HTMLImageElement>('frame');
let frameUrl: string | undefined;
let frameDrawn = false;

function showPlaceholder(text: string): void {
  frameDrawn = false;
  frameImage.hidden = true;
  frameImage.removeAttribute('src');
  if (frameUrl) URL.revokeObjectURL(frameUrl);
  frameUrl = undefined;
  const placeholder = $('placeholder');
  placeholder.textContent = text;
  placeholder.hidden = false;
}

async function drawFrame(message: Extract<HostToPanel, { type: 'frame' }>): Promise<void> {
  const bytes = Uint8Array.from(atob(message.data), c => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'image/jpeg' }));
  const next = new Image();
  next.src = url;
  try {
    await next.decode();
    frameImage.src = url;
    if (frameUrl) URL.revokeObjectURL(frameUrl);
    frameUrl = url;
    frameDrawn = true;
    frameImage.hidden = false;
    // The view takes the page's shape, so the frame fills it instead of sitting between empty bands.
    view.style.aspectRatio = `${message.width} / ${message.height}`;
    $('placeholder').hidden = true;
  } catch {
    URL.revokeObjectURL(url);
  } finally {
    // The host sends the next frame only after this: a slow panel gets fewer frames, never a queue.
    post({ type: 'frameDrawn', seq: message.seq });
  }
}

// ---- the person's mouse and keyboard on the page's picture ---------------------------------------

/** Where on the page an event is, as fractions of the picture (the page's viewport). */
function pagePoint(event: MouseEvent): { x: number; y: number } | undefined {
  if (!frameDrawn) return undefined;
  const box = frameImage.getBoundingClientRect();
  if (!box.width || !box.height) return undefined;
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  return { x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) };
}

const BUTTONS = ['left', 'middle', 'right'] as const;
/** Which button, and which click of a double or triple click, as the page should see it. */
const buttonOf = (event: MouseEvent) => ({ button: BUTTONS[event.button] ?? 'left', clickCount: Math.min(3, Math.max(1, event.detail || 1)) });
let movePending: { x: number; y: number } | undefined;
frameImage.addEventListener('mousedown', event => {
  const point = pagePoint(event);
  if (!point) return;
  event.preventDefault();
  if (picking) {
    // A click picks the element, a drag a region: decided when the button comes up.
    pickStart = { ...point, clientX: event.clientX, clientY: event.clientY };
    return;
  }
  keys.focus();
  post({ type: 'input', event: { kind: 'mouse', action: 'down', ...point, ...buttonOf(event) } });
});
frameImage.addEventListener('mouseup', event => {
  if (picking) {
    // The release of a pick click belongs to the pick, not to the page.
    const point = pagePoint(event);
    const start = pickStart;
    pickStart = undefined;
    $('region').hidden = true;
    if (!point || !start) return;
    const dragged = Math.hypot(event.clientX - start.clientX, event.clientY - start.clientY) > 6;
    post({ type: 'pick', pick: dragged ? { phase: 'region', x0: start.x, y0: start.y, x1: point.x, y1: point.y } : { phase: 'choose', ...point } });
    picking = false;
    setPicking(false);
    return;
  }
  const point = pagePoint(event);
  if (point) post({ type: 'input', event: { kind: 'mouse', action: 'up', ...point, ...buttonOf(event) } });
});
frameImage.addEventListener('mousemove', event => {
  // At most one move per animation frame: hovering must not flood the page.
  const point = pagePoint(event);
  if (!point) return;
  if (picking && pickStart) {
    // Dragging a region: draw it on the picture (the page is not told).
    const box = $('region');
    const viewBox = view.getBoundingClientRect();
    Object.assign(box.style, {
      left: `${Math.min(pickStart.clientX, event.clientX) - viewBox.left}px`, top: `${Math.min(pickStart.clientY, event.clientY) - viewBox.top}px`,
      width: `${Math.abs(event.clientX - pickStart.clientX)}px`, height: `${Math.abs(event.clientY - pickStart.clientY)}px`,
    });
    box.hidden = false;
    return;
  }
  if (!movePending) requestAnimationFrame(() => {
    if (movePending && picking) post({ type: 'pick', pick: { phase: 'hover', ...movePending } });
    else if (movePending) post({ type: 'input', event: { kind: 'mouse', action: 'move', ...movePending, button: 'left', clickCount: 1 } });
    movePending = undefined;
  });
  movePending = point;
});
frameImage.addEventListener('contextmenu', event => event.preventDefault());
frameImage.addEventListener('dragstart', event => event.preventDefault());
frameImage.addEventListener('wheel', event => {
  const point = pagePoint(event);
  if (!point) return;
  event.preventDefault();
  post({ type: 'input', event: { kind: 'wheel', ...point, deltaX: event.deltaX, deltaY: event.deltaY } });
}, { passive: false });

const MODIFIERS = [['altKey', 'Alt'], ['ctrlKey', 'Control'], ['metaKey', 'Meta'], ['shiftKey', 'Shift']] as const;
const sendKey = (action: 'down' | 'up') => (event: KeyboardEvent) => {
  // Keys belong to the page only while its picture has focus; an IME composition ends as text.
  if (document.activeElement !== keys || event.isComposing || !frameDrawn) return;
  const paste = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
  if (paste) return; // the paste event brings the text itself
  event.preventDefault();
  event.stopPropagation();
  post({ type: 'input', event: { kind: 'key', action, key: event.key, modifiers: MODIFIERS.filter(([flag]) => event[flag]).map(([, name]) => name) } });
};
const keys = $<HTMLTextAreaElement>('keys');
keys.addEventListener('keydown', sendKey('down'));
keys.addEventListener('keyup', sendKey('up'));
keys.addEventListener('compositionend', event => {
  if (event.data) post({ type: 'input', event: { kind: 'text', text: event.data.slice(0, 10000) } });
  keys.value = '';
});
keys.addEventListener('paste', event => {
  const text = event.clipboardData?.getData('text/plain');
  if (!text || !frameDrawn) return;
  event.preventDefault();
  post({ type: 'input', event: { kind: 'text', text: text.slice(0, 10000) } });
});

let resizeTimer: number | undefined;
new ResizeObserver(() => {
  clearTimeout(resizeTimer);
  const size = () => ({ width: view.clientWidth, height: view.clientHeight, devicePixelRatio: window.devicePixelRatio || 1 });
  resizeTimer = window.setTimeout(() => post({ type: 'resize', ...size() }), 100);
}).observe(view);

// ---- lists ------------------------------------------------------------------------------------

class RowList<R extends Row> {
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

function el(tag: string, className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function markerElement(row: MarkerRow): HTMLElement {
  return el('li', 'marker', row.marker);
}

const time = (ms: number) => new Date(ms).toLocaleTimeString(undefined, { hour12: false });
const bytes = (n?: number) => (n === undefined ? '' : n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`);
const duration = (ms?: number) => (ms === undefined ? '…' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

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
  return item;
}, () => true, () => undefined);

function matches(filter: string, text: string): boolean {
  return !filter.trim() || text.toLowerCase().includes(filter.trim().toLowerCase());
}

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

// ---- messages ---------------------------------------------------------------------------------

function report(): PanelReport {
  return {
    frameDrawn: frameDrawn && frameImage.naturalWidth > 0 && !frameImage.hidden,
    frameSize: frameDrawn ? { width: frameImage.naturalWidth, height: frameImage.naturalHeight } : undefined,
    consoleTexts: consoleList.visibleTexts(r => (r as ConsoleRow).text),
    networkUrls: networkList.visibleTexts(r => (r as NetworkRow).url),
    activityTitles: activityList.visibleTexts(r => (r as ActivityRow).title),
    header: [$('state').textContent, $('url').textContent, $('title').textContent].join(' | '),
    layout: layout(),
  };
}

/** What a person would notice at this size: controls cut off, toggles wrapping, the frame in bands. */
function layout(): PanelLayout {
  const width = document.documentElement.clientWidth;
  const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
  const selector = '.toolbar > *, .pane:not([hidden]) .filters input, .pane:not([hidden]) .filters select, .pane:not([hidden]) .filters label';
  const controls = [...document.querySelectorAll<HTMLElement>(selector)].filter(visible);
  const cutControls = controls.filter(control => {
    const box = control.getBoundingClientRect();
    return box.right > width + 1 || control.scrollWidth > control.clientWidth + 1;
  }).map(control => control.id || control.textContent?.trim() || control.className);
  const filter = [...document.querySelectorAll<HTMLInputElement>('.pane:not([hidden]) .filters input[type="search"]')].find(visible);
  const levelLabels = [...document.querySelectorAll<HTMLElement>('.levels label')].filter(visible);
  const levelTops = new Set(levelLabels.map(label => Math.round(label.getBoundingClientRect().top)));
  let frameBands = 0;
  if (frameDrawn) {
    const box = view.getBoundingClientRect();
    const image = frameImage.getBoundingClientRect();
    frameBands = Math.round(Math.max(box.width - image.width, box.height - image.height));
  }
  return { width, cutControls, filterWidth: Math.round(filter?.getBoundingClientRect().width ?? 0), levelsOnOneLine: levelTops.size <= 1, frameBands };
}

window.addEventListener('message', event => {
  const message = event.data as HostToPanel;
  switch (message.type) {
    case 'snapshot':
      renderState(message.state);
      consoleList.reset(message.console);
      networkList.reset(message.network);
      activityList.reset(message.activity);
      return;
    case 'state': return renderState(message.state);
    case 'console': return consoleList.upsert(message.rows, message.dropBefore);
    case 'network': return networkList.upsert(message.rows, message.dropBefore);
    case 'activity': return activityList.upsert(message.rows, message.dropBefore);
    case 'frame': return void drawFrame(message);
    case 'describe': return post({ type: 'report', id: message.id, report: report() });
  }
});

post({ type: 'ready' });
