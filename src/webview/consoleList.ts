/**
 * The Console pane's rows and controls, as a Chrome DevTools user reads them: an uncaught error with its
 * location at the right and its stack folded under it (a click, Enter or Space unfolds it), a logged object
 * as a one-line preview that unfolds one level at a time, a long message folded with "Show more", and
 * Clear (or Ctrl+K in the list) and Preserve log as the Network pane has them (networkControls.ts).
 * The words are consoleText.ts's; the list itself is lists.ts's RowList.
 */
import type { ValuePreview } from '../protocol/childMessages';
import type { ConsoleRow, MarkerRow, PanelState } from '../protocol/panelMessages';
import { $, el, post } from './dom';
import { countProblems, foldText, previewLine, shortLocation, unfoldable } from './consoleText';
import { clockTime } from './clock';

/** A value's button that shows or hides its properties (built once, when first unfolded) right after it. */
function unfoldButton(className: string, title: string, value: ValuePreview, ...content: (Node | string)[]): HTMLElement {
  const button = el('button', className);
  button.append(...content);
  button.title = title;
  button.setAttribute('aria-expanded', 'false');
  let shown: HTMLElement | undefined;
  button.addEventListener('click', event => {
    event.stopPropagation();
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    if (open && !shown) {
      shown = propertyList(value);
      button.after(shown);
    }
    if (shown) shown.hidden = !open;
  });
  return button;
}

/** One level of an object's properties; each one that has its own unfolds the same way. */
function propertyList(preview: ValuePreview): HTMLElement {
  const list = el('ul', 'props');
  list.setAttribute('role', 'group');
  for (const { name, value } of preview.props ?? []) {
    const item = el('li', 'prop');
    const line = [el('span', 'prop-name', `${name}: `), el('span', `prop-value ${value.type}`, previewLine(value, false))];
    item.append(...(unfoldable(value) ? [unfoldButton('unfold', 'Unfold (Enter)', value, ...line)] : line));
    list.append(item);
  }
  if (preview.more) list.append(el('li', 'prop more', `… ${preview.more} more not captured`));
  return list;
}

/** The logged values: strings as they are, objects as previews that unfold. */
function argumentsElement(args: ValuePreview[]): HTMLElement {
  const text = el('span', 'text');
  args.forEach((arg, i) => {
    if (i) text.append(' ');
    if (!unfoldable(arg)) return text.append(el('span', `value ${arg.type}`, previewLine(arg)));
    text.append(unfoldButton('unfold object', 'Unfold its properties (Enter)', arg, previewLine(arg)));
  });
  return text;
}

/** A message's text, folded to its first lines when long, with "Show more" (a button: Tab and Enter reach it). */
function messageElement(message: string): HTMLElement {
  const folded = foldText(message);
  const text = el('span', 'text', folded ? `${folded.head}…` : message);
  if (!folded) return text;
  const more = el('button', 'show-more', `Show more (${folded.hiddenChars} characters)`);
  more.setAttribute('aria-expanded', 'false');
  more.addEventListener('click', event => {
    event.stopPropagation();
    const open = more.getAttribute('aria-expanded') !== 'true';
    more.setAttribute('aria-expanded', String(open));
    text.firstChild!.textContent = open ? message : `${folded.head}…`;
    more.textContent = open ? 'Show less' : `Show more (${folded.hiddenChars} characters)`;
  });
  text.append(' ', more);
  return text;
}

/** A console row as DevTools draws it: time, level, the message, its location at the right, a stack folded under it. */
export function consoleRowElement(row: ConsoleRow): HTMLElement {
  const item = el('li', `console ${row.level}`);
  const message = row.args ? argumentsElement(row.args) : messageElement(row.text);
  item.append(el('span', 'time', clockTime(row.time)), el('span', 'level', row.level), message);
  if (row.location) {
    const location = el('span', 'location', shortLocation(row.location));
    location.title = row.location;
    item.append(location);
  }
  if (row.stack) {
    // The row itself unfolds its stack: a click on it, or Enter or Space once it has the focus (Tab reaches it).
    const stack = el('pre', 'stack', row.stack);
    stack.hidden = true;
    const twisty = el('span', 'twisty', '▶');
    twisty.setAttribute('aria-hidden', 'true');
    message.prepend(twisty);
    item.classList.add('has-stack');
    item.tabIndex = 0;
    item.setAttribute('aria-expanded', 'false');
    item.title = 'Click (or Enter) for the stack';
    const toggle = () => {
      stack.hidden = !stack.hidden;
      item.setAttribute('aria-expanded', String(!stack.hidden));
      twisty.textContent = stack.hidden ? '▶' : '▼';
    };
    item.addEventListener('click', event => {
      if (!(event.target as HTMLElement).closest('button') && !getSelection()?.toString()) toggle();
    });
    item.addEventListener('keydown', event => {
      if (event.target !== item || (event.key !== 'Enter' && event.key !== ' ')) return;
      event.preventDefault();
      toggle();
    });
    item.append(stack);
  }
  return item;
}

/** The tab's badges: the errors and warnings listed now. */
export function showConsoleProblems(rows: readonly (ConsoleRow | MarkerRow)[]): void {
  const { errors, warnings } = countProblems(rows);
  for (const [id, count, word] of [
    ['console-errors', errors, 'error'],
    ['console-warnings', warnings, 'warning'],
  ] as const) {
    const badge = $(id);
    badge.textContent = String(count);
    badge.hidden = count === 0;
    badge.setAttribute('aria-label', `${count} ${word}${count === 1 ? '' : 's'}`);
  }
  // The tab's name (its aria-label) says the counts its badges show.
  const counts = [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`].filter(Boolean);
  $('tab-console').setAttribute('aria-label', ['Console', ...counts].join(', '));
}

/** Clear and Preserve log post to the host, whose list they are (as Network's do); Ctrl+K in the list clears too. */
export function startConsoleControls(): void {
  const clear = () => post({ type: 'consoleControl', control: { action: 'clear' } });
  $('console-clear').addEventListener('click', clear);
  // Ctrl+K (Cmd+K, as Safari's console clears), not DevTools' Ctrl+L: that is the address bar's everywhere in the
  // panel, as in a browser. Caught on the window before anything else hears it (VS Code's Ctrl+K chords), only for the list.
  const list = $('console-list');
  window.addEventListener(
    'keydown',
    event => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'k') return;
      if (!(event.target instanceof Node) || !list.contains(event.target)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      clear();
    },
    true,
  );
  $<HTMLInputElement>('console-preserve-log').addEventListener('change', event => {
    post({ type: 'consoleControl', control: { action: 'preserveLog', on: (event.target as HTMLInputElement).checked } });
  });
}

/** The controls as the host applies them now. */
export function showConsoleState(controls: PanelState['console']): void {
  $<HTMLInputElement>('console-preserve-log').checked = controls.preserveLog;
}
