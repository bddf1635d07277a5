/**
 * The header's size picker: it shows the size the page (and so the agent) works at; a preset or a custom
 * size resizes the page at once (Playwright's setViewportSize, listed as the person's step and told to the
 * model); "Playwright device…" asks the host, which offers the devices and restarts the browser as one.
 */
import { $, post } from './dom';

const MIN = 100;
const MAX = 8000;

/** The current size in the picker's first option (the select shows it when closed). */
export function showSize(viewport: { width: number; height: number } | undefined): void {
  const current = $<HTMLOptionElement>('size-current');
  current.textContent = viewport ? `${viewport.width}×${viewport.height}` : 'Size';
  const picker = $<HTMLSelectElement>('size');
  picker.title = viewport
    ? `The page is ${viewport.width}×${viewport.height} CSS pixels: the agent works at this size too. Choose another to resize it.`
    : "The page's size";
  if (document.activeElement !== picker) picker.value = 'current';
}

/** "1024x768", "1024 × 768", "1024,768": a size, or undefined. */
export function parseSize(text: string): { width: number; height: number } | undefined {
  const match = /^\s*(\d{2,4})\s*[x×*, ]\s*(\d{2,4})\s*$/i.exec(text);
  if (!match) return undefined;
  const [width, height] = [Number(match[1]), Number(match[2])];
  return width >= MIN && width <= MAX && height >= MIN && height <= MAX ? { width, height } : undefined;
}

export function startSizePicker(): void {
  const picker = $<HTMLSelectElement>('size');
  const customRow = $<HTMLFormElement>('custom-row');
  const customInput = $<HTMLInputElement>('custom-size');
  const resize = (size: { width: number; height: number }) => post({ type: 'pageAction', pageAction: { action: 'resize', ...size } });
  picker.addEventListener('change', () => {
    const choice = picker.value;
    picker.value = 'current';
    picker.blur();
    if (choice === 'custom') {
      customRow.hidden = false;
      customInput.setCustomValidity('');
      customInput.focus();
      return;
    }
    if (choice === 'device') return post({ type: 'pickDevice' });
    const size = parseSize(choice);
    if (size) resize(size);
  });
  customRow.addEventListener('submit', event => {
    event.preventDefault();
    const size = parseSize(customInput.value);
    if (!size) {
      customInput.setCustomValidity(`Width and height from ${MIN} to ${MAX}, like 1024x768`);
      customInput.reportValidity();
      return;
    }
    customRow.hidden = true;
    resize(size);
  });
  customInput.addEventListener('input', () => customInput.setCustomValidity(''));
  $('custom-cancel').addEventListener('click', () => {
    customRow.hidden = true;
  });
  customInput.addEventListener('keydown', event => {
    if (event.key === 'Escape') customRow.hidden = true;
  });
}
