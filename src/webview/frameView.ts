/**
 * The live picture of the page and the person's hands on it: frames drawn one at a time (the host
 * sends the next only after one is drawn), the mouse, wheel and keyboard sent as positions on the page,
 * Add to Chat's picking (an element, or a dragged region), and the view's size for the host.
 */
import type { HostToPanel } from '../protocol/panelMessages';
import { $, post } from './dom';
import { routeKey } from './keyRouting';

const view = $('view');
const frameImage = $<HTMLImageElement>('frame');
/** The hidden field that holds the keyboard focus while the person types into the page. */
const keys = $<HTMLTextAreaElement>('keys');
let frameUrl: string | undefined;
let frameDrawn = false;
let picking = false;
let pickStart: { x: number; y: number; clientX: number; clientY: number } | undefined;

export function showPlaceholder(text: string): void {
  frameDrawn = false;
  frameImage.hidden = true;
  frameImage.removeAttribute('src');
  if (frameUrl) URL.revokeObjectURL(frameUrl);
  frameUrl = undefined;
  const placeholder = $('placeholder');
  placeholder.textContent = text;
  placeholder.hidden = false;
}

export async function drawFrame(message: Extract<HostToPanel, { type: 'frame' }>): Promise<void> {
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
    frameImage.dataset.pageSize = `${message.width}x${message.height}`;
    $('placeholder').hidden = true;
  } catch {
    URL.revokeObjectURL(url);
  } finally {
    // The host sends the next frame only after this: a slow panel gets fewer frames, never a queue.
    post({ type: 'frameDrawn', seq: message.seq });
  }
}

/**
 * Outlines a region of the page on the picture (a DevTools finding's element, in the page's CSS pixels as it
 * was measured), or takes the outline away. The picture's declared page size scales it.
 */
export function outlineOnPicture(box: { x: number; y: number; width: number; height: number } | undefined): void {
  const outline = $('finding-outline');
  const [pageWidth, pageHeight] = (frameImage.dataset.pageSize ?? '').split('x').map(Number);
  if (!box || !frameDrawn || !pageWidth || !pageHeight) {
    outline.hidden = true;
    return;
  }
  const picture = frameImage.getBoundingClientRect();
  const viewBox = view.getBoundingClientRect();
  const scaleX = picture.width / pageWidth;
  const scaleY = picture.height / pageHeight;
  Object.assign(outline.style, {
    left: `${picture.left - viewBox.left + box.x * scaleX}px`,
    top: `${picture.top - viewBox.top + box.y * scaleY}px`,
    width: `${Math.max(2, box.width * scaleX)}px`,
    height: `${Math.max(2, box.height * scaleY)}px`,
  });
  outline.hidden = false;
}

/** Picking on or off; turned off unfinished (Escape, the button) it tells the host to cancel, after a pick it does not. */
function setPicking(on: boolean, finished = false): void {
  if (picking && !on && !finished) post({ type: 'pick', pick: { phase: 'cancel' } });
  picking = on;
  view.classList.toggle('picking', on);
  $('pick').setAttribute('aria-pressed', String(on));
  $('picking').hidden = !on;
}
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
/**
 * Shift+Esc: the focus leaves the picture for the next control after it (the panel's tabs below), or the
 * address bar when none is shown; the page never sees the key.
 */
function leavePicture(): void {
  const controls = [...document.querySelectorAll<HTMLElement>(':is(button, input, select, textarea, [tabindex]):not([tabindex="-1"])')];
  const next = controls.find(
    control =>
      control !== keys &&
      !control.hasAttribute('disabled') &&
      !control.closest('[hidden]') &&
      control.getClientRects().length > 0 &&
      !!(keys.compareDocumentPosition(control) & Node.DOCUMENT_POSITION_FOLLOWING),
  );
  (next ?? $('address')).focus();
}

/** Wires the picture's mouse, wheel and keyboard, the pick button and the view's size (once). */
export function startFrameView(): void {
  $('pick').addEventListener('click', () => setPicking(!picking));
  window.addEventListener('keydown', event => {
    if (picking && event.key === 'Escape') setPicking(false);
  });
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
      setPicking(false, true);
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
        left: `${Math.min(pickStart.clientX, event.clientX) - viewBox.left}px`,
        top: `${Math.min(pickStart.clientY, event.clientY) - viewBox.top}px`,
        width: `${Math.abs(event.clientX - pickStart.clientX)}px`,
        height: `${Math.abs(event.clientY - pickStart.clientY)}px`,
      });
      box.hidden = false;
      return;
    }
    if (!movePending)
      requestAnimationFrame(() => {
        if (movePending && picking) post({ type: 'pick', pick: { phase: 'hover', ...movePending } });
        else if (movePending) post({ type: 'input', event: { kind: 'mouse', action: 'move', ...movePending, button: 'left', clickCount: 1 } });
        movePending = undefined;
      });
    movePending = point;
  });
  frameImage.addEventListener('contextmenu', event => event.preventDefault());
  frameImage.addEventListener('dragstart', event => event.preventDefault());
  frameImage.addEventListener(
    'wheel',
    event => {
      const point = pagePoint(event);
      if (!point) return;
      event.preventDefault();
      post({ type: 'input', event: { kind: 'wheel', ...point, deltaX: event.deltaX, deltaY: event.deltaY } });
    },
    { passive: false },
  );

  const MODIFIERS = [
    ['altKey', 'Alt'],
    ['ctrlKey', 'Control'],
    ['metaKey', 'Meta'],
    ['shiftKey', 'Shift'],
  ] as const;
  const sendKey = (action: 'down' | 'up', key: string, event: KeyboardEvent) =>
    post({ type: 'input', event: { kind: 'key', action, key, modifiers: MODIFIERS.filter(([flag]) => event[flag]).map(([, name]) => name) } });
  /** The keys whose keydown went to the page, by physical key (what they were called then): their keyups go there too. */
  const down = new Map<string, string>();
  keys.addEventListener('keydown', event => {
    // Keys belong to the page only while its picture has focus; an IME composition ends as text.
    if (document.activeElement !== keys || event.isComposing || !frameDrawn) return;
    const { key, ctrlKey, altKey, metaKey, shiftKey } = event;
    const route = routeKey({ key, ctrlKey, altKey, metaKey, shiftKey, altGraph: event.getModifierState('AltGraph') });
    if (route === 'leave') {
      event.preventDefault();
      event.stopPropagation();
      leavePicture();
      return;
    }
    // VS Code's: left alone, so its webview host forwards the key to the workbench's keybindings.
    if (route === 'vscode') return;
    const paste = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'v';
    if (paste) return; // the paste event brings the text itself
    event.preventDefault();
    event.stopPropagation();
    down.set(event.code || event.key, event.key);
    sendKey('down', event.key, event);
  });
  keys.addEventListener('keyup', event => {
    const key = down.get(event.code || event.key);
    // A keyup whose keydown the page did not get is not the page's either.
    if (key === undefined) return;
    down.delete(event.code || event.key);
    event.preventDefault();
    event.stopPropagation();
    if (frameDrawn) sendKey('up', key, event);
  });
  // Focus gone (Shift+Esc, a click elsewhere, VS Code's palette): the page is told its held keys came up.
  keys.addEventListener('blur', () => {
    for (const key of down.values()) if (frameDrawn) post({ type: 'input', event: { kind: 'key', action: 'up', key, modifiers: [] } });
    down.clear();
  });
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
}
