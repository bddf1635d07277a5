/**
 * The DevTools cards in Activity: a performance trace's vitals (coloured good / needs improvement / poor as
 * Web Vitals rate them), its insights and Open trace; an accessibility audit's violations by impact, each
 * element a row that outlines it on the picture. Both have Add to Chat. Drawn from the row's card (the facts
 * the model's answer was worded from); the buttons name the call, the host does the rest.
 */
import type { AuditFacts, DevtoolsCard, Rating, TraceFacts } from '../protocol/devtoolsFacts';
import type { ActivityRow } from '../protocol/panelMessages';
import { el, post } from './dom';
import { outlineOnPicture } from './frameView';
import { emulationNote } from './networkControls';

const RATING_WORDS: Record<Rating, string> = { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' };

function vital(name: string, value: string | undefined, rating: Rating | undefined, why: string): HTMLElement {
  const tile = el('span', `vital ${rating ?? 'none'}`);
  tile.append(el('span', 'vital-name', name), el('span', 'vital-value', value ?? '—'));
  tile.title = rating ? `${name}: ${value}, ${RATING_WORDS[rating]}` : why;
  tile.setAttribute('aria-label', tile.title);
  tile.dataset.vital = name;
  return tile;
}

function button(label: string, icon: string, onClick: () => void): HTMLElement {
  const b = el('button', 'icon-button') as HTMLButtonElement;
  b.append(el('span', `codicon ${icon}`), el('span', 'label', label));
  b.addEventListener('click', event => {
    event.stopPropagation();
    onClick();
  });
  return b;
}

function cardHead(title: string, url: string): HTMLElement {
  const head = el('div', 'card-head');
  const link = el('span', 'card-url', url);
  link.title = url;
  head.append(el('span', 'card-title', title), link);
  return head;
}

function traceCard(trace: TraceFacts): HTMLElement {
  const card = el('div', 'card trace-card');
  card.append(cardHead('Performance', trace.url));
  const vitals = el('div', 'vitals');
  vitals.append(
    vital('LCP', trace.lcp ? `${trace.lcp.ms} ms` : undefined, trace.lcp?.rating, 'No LCP in this trace'),
    vital('CLS', String(trace.cls.value), trace.cls.rating, ''),
    vital('INP', trace.inp ? `${trace.inp.ms} ms` : undefined, trace.inp?.rating, 'No interaction in this trace'),
  );
  card.append(vitals);
  if (trace.lcp?.element)
    card.append(el('div', 'card-line', `LCP element: ${trace.lcp.element.description}${trace.lcp.element.ref ? ` [${trace.lcp.element.ref}]` : ''}`));
  const emulated = emulationNote(trace.emulation);
  if (emulated) card.append(el('div', 'card-line', `While: ${emulated}`));
  if (trace.insights.length) {
    const list = el('ul', 'insights');
    for (const insight of trace.insights) {
      const savings = insight.savingsMs ? ` · may save ${insight.savingsMs} ms` : '';
      const item = el('li', `finding insight ${insight.state}`, `${insight.title}${savings}`);
      item.title = [insight.name, ...insight.items].join('\n');
      list.append(item);
    }
    card.append(list);
  }
  return card;
}

function auditCard(audit: AuditFacts): HTMLElement {
  const card = el('div', 'card audit-card');
  card.append(cardHead('Accessibility', audit.url));
  const total = audit.violations.reduce((sum, v) => sum + v.nodes.length + v.more, 0);
  card.append(
    el(
      'div',
      'card-line',
      audit.violations.length
        ? `${audit.violations.length} rule${audit.violations.length === 1 ? '' : 's'} violated on ${total} element${total === 1 ? '' : 's'} · ${audit.passes} passed`
        : `No violations · ${audit.passes} rules passed`,
    ),
  );
  const list = el('ul', 'violations');
  for (const violation of audit.violations) {
    for (const node of violation.nodes) {
      const item = el('li', 'finding');
      item.append(
        el('span', `impact ${violation.impact}`, violation.impact),
        el('span', 'rule', `${violation.help}: `),
        el('span', 'element', `${node.description}${node.ref ? ` [${node.ref}]` : ''}`),
      );
      item.title = `${violation.rule}\n${node.fix}`;
      if (node.box) {
        // Hover or focus outlines it on the picture, where it was when audited.
        const box = node.box;
        item.dataset.box = `${box.x},${box.y},${box.width},${box.height}`;
        item.tabIndex = 0;
        item.addEventListener('mouseenter', () => outlineOnPicture(box));
        item.addEventListener('focus', () => outlineOnPicture(box));
        item.addEventListener('mouseleave', () => outlineOnPicture(undefined));
        item.addEventListener('blur', () => outlineOnPicture(undefined));
      }
      list.append(item);
    }
    if (violation.more) list.append(el('li', 'finding more', `and ${violation.more} more (${violation.rule})`));
  }
  card.append(list);
  return card;
}

/** The card of an activity row, with its buttons; undefined for a row without one. */
export function cardElement(row: ActivityRow): HTMLElement | undefined {
  const card: DevtoolsCard | undefined = row.card;
  if (!card) return undefined;
  const element = card.kind === 'trace' ? traceCard(card.trace) : auditCard(card.audit);
  const actions = el('div', 'card-actions');
  if (card.kind === 'trace' && card.trace.file)
    actions.append(button('Open trace', 'codicon-go-to-file', () => post({ type: 'devtoolsCard', callId: row.id, action: 'openTrace' })));
  actions.append(button('Add to Chat', 'codicon-comment-discussion', () => post({ type: 'devtoolsCard', callId: row.id, action: 'addToChat' })));
  element.append(actions);
  return element;
}
