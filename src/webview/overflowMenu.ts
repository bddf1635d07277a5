/**
 * The header's actions in one row: those that do not fit move, from the end, into the "more" menu (with
 * their labels), and come back when the panel widens; narrower still, the row goes compact. The buttons keep their ids and handlers wherever they are.
 */
import { $ } from './dom';

const ACTIONS = ['start', 'control', 'pick', 'save', 'pause', 'restart'];
/**
 * The address field's least width before actions give it room: it shrinks first (it is the row's flexible part),
 * so a row that only had to fit left it 36 px wide at 300 px, narrower than the "Cache off" note under it.
 */
const ADDRESS_MIN_PX = 130;

/** Puts every action back in the row, then moves the last ones to the menu until the row fits. */
export function fitActions(): void {
  const bar = $('bar');
  const row = $('actions');
  const overflow = $('overflow');
  for (const id of ACTIONS) row.append($(id));
  $('back').after($('forward'));
  bar.classList.remove('compact');
  const address = $('address');
  const fits = () => bar.scrollWidth <= bar.clientWidth + 1 && address.getBoundingClientRect().width >= ADDRESS_MIN_PX;
  const inRow = ACTIONS.map(id => $(id)).filter(button => !button.hidden);
  while (!fits() && inRow.length) overflow.prepend(inRow.pop()!);
  // Narrower still (a 300 px side bar): the state badge becomes a coloured dot (its words in its tooltip) and the size shorter.
  if (!fits()) bar.classList.add('compact');
  // Narrowest (a 300 px side bar): Forward goes to the menu too, as a phone's browser has it; Back and Reload stay.
  if (!fits()) overflow.prepend($('forward'));
  for (const button of overflow.children) button.setAttribute('role', 'menuitem');
  for (const button of [...row.children, $('forward')]) if (button.parentElement !== overflow) button.removeAttribute('role');
}

export function startOverflowMenu(): void {
  const more = $('more');
  const menu = $('more-menu');
  const show = (open: boolean) => {
    menu.hidden = !open;
    more.setAttribute('aria-expanded', String(open));
    if (open) menu.querySelector<HTMLElement>('button:not([hidden])')?.focus();
  };
  more.addEventListener('click', () => show(menu.hidden));
  // A choice closes it, as does Esc or a click elsewhere.
  menu.addEventListener('click', event => {
    if ((event.target as Element).closest('button')) show(false);
  });
  window.addEventListener('keydown', event => {
    if (event.key === 'Escape' && !menu.hidden) {
      show(false);
      more.focus();
    }
  });
  window.addEventListener('mousedown', event => {
    if (!menu.hidden && !menu.contains(event.target as Node) && !more.contains(event.target as Node)) show(false);
  });
  new ResizeObserver(() => fitActions()).observe($('bar'));
  fitActions();
}
