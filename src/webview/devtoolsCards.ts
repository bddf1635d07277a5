/**
 * The DevTools cards in Activity: a performance trace's vitals (coloured good / needs improvement / poor as
 * Web Vitals rate them), its insights and Open trace; an accessibility audit's violations by impact, each
 * element a row that outlines it on the picture. Both have Add to Chat. Drawn from the row's card (the facts
 * the model's answer was worded from); the buttons name the call, the host does the rest.
 */
import type { AuditFacts, AuditViolation, DevtoolsCard, Rating, TraceFacts, TraceInsight } from '../protocol/devtoolsFacts';
import { auditFixWords, insightAdvice, insightSavings, isDocsLink } from '../protocol/devtoolsAdvice';
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

function traceCard(trace: TraceFacts, callId: number): HTMLElement {
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
  if (trace.insights.length) card.append(insightList(trace.insights, callId));
  if (trace.notComputed?.length)
    card.append(el('div', 'card-line', `Not computed (the trace engine failed on them): ${trace.notComputed.map(n => n.name).join(', ')}`));
  return card;
}

const STATE_MARK: Record<TraceInsight['state'], { icon: string; words: string }> = {
  fail: { icon: 'codicon-error', words: 'failing' },
  warning: { icon: 'codicon-warning', words: 'worth a look' },
  informative: { icon: 'codicon-info', words: 'informative' },
};
const STATE_ORDER: TraceInsight['state'][] = ['fail', 'warning', 'informative'];

/** A link to a finding's documentation: the host opens it (and only a link this card holds). */
function docsLink(label: string, about: string, url: string, callId: number): HTMLElement {
  const link = el('button', 'docs-link', label) as HTMLButtonElement;
  link.title = url;
  link.setAttribute('aria-label', `${label}: ${about}`);
  link.addEventListener('click', event => {
    event.stopPropagation();
    post({ type: 'devtoolsDocs', callId, url });
  });
  return link;
}

/** At most a few of a finding's items in sight; all of them in the list's tooltip. */
function itemList(items: string[], shown = 3): HTMLElement {
  const list = el('ul', 'insight-items');
  for (const item of items.slice(0, shown)) list.append(el('li', 'card-line item', item));
  if (items.length > shown) list.append(el('li', 'card-line item more', `and ${items.length - shown} more`));
  list.title = items.join('\n');
  return list;
}

/**
 * Insights as DevTools orders them: failing first, then those worth a look, then the informative, each
 * marked by its state in icon and words, with what to change in sight (never only in a tooltip).
 */
function insightList(insights: TraceInsight[], callId: number): HTMLElement {
  const list = el('ul', 'insights');
  const ordered = [...insights].sort((a, b) => STATE_ORDER.indexOf(a.state) - STATE_ORDER.indexOf(b.state));
  for (const insight of ordered) {
    const mark = STATE_MARK[insight.state];
    const item = el('li', `insight ${insight.state}`);
    const head = el('div', 'card-line insight-head');
    const icon = el('span', `codicon ${mark.icon} state-mark`);
    icon.setAttribute('aria-hidden', 'true');
    const savings = insightSavings(insight);
    head.append(icon, el('span', 'insight-title', insight.title), el('span', 'state-words', ` · ${mark.words}`));
    if (savings) head.append(el('span', 'savings', ` · ${savings}`));
    item.append(head);
    const advice = insightAdvice(insight.name);
    if (advice) item.append(el('div', 'card-line what-to-change', `What to change: ${advice}`));
    if (insight.items.length) item.append(itemList(insight.items));
    if (isDocsLink(insight.docs)) item.append(docsLink('Learn more', insight.title, insight.docs, callId));
    list.append(item);
  }
  return list;
}

/** An element that fails a rule: hover or focus outlines it on the picture, where it was when audited. */
function elementRow(node: AuditViolation['nodes'][number], fix: string | undefined): HTMLElement {
  const item = el('li', 'card-line finding', `${node.description}${node.ref ? ` [${node.ref}]` : ''}${fix ? ` — ${fix}` : ''}`);
  if (node.box) {
    const box = node.box;
    item.dataset.box = `${box.x},${box.y},${box.width},${box.height}`;
    item.tabIndex = 0;
    item.addEventListener('mouseenter', () => outlineOnPicture(box));
    item.addEventListener('focus', () => outlineOnPicture(box));
    item.addEventListener('mouseleave', () => outlineOnPicture(undefined));
    item.addEventListener('blur', () => outlineOnPicture(undefined));
  }
  return item;
}

function auditCard(audit: AuditFacts, callId: number): HTMLElement {
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
    // The rule once, its elements under it; one fix they share is said once, a fix of its own beside its element.
    const rule = el('li', `rule ${violation.impact}`);
    const head = el('div', 'card-line rule-head');
    head.append(
      el('span', `impact ${violation.impact}`, violation.impact),
      el('span', 'rule-help', violation.help),
      el('span', 'rule-id', ` (${violation.rule})`),
    );
    rule.append(head);
    const fixes = new Set(violation.nodes.map(node => auditFixWords(node.fix)));
    const shared = fixes.size === 1 ? [...fixes][0] : undefined;
    if (shared) rule.append(el('div', 'card-line what-to-change', `What to change: ${shared}`));
    const elements = el('ul', 'elements');
    for (const node of violation.nodes) elements.append(elementRow(node, shared === undefined ? auditFixWords(node.fix) : undefined));
    if (violation.more) elements.append(el('li', 'card-line finding more', `and ${violation.more} more`));
    rule.append(elements);
    if (isDocsLink(violation.helpUrl)) rule.append(docsLink('Rule docs', violation.help, violation.helpUrl, callId));
    list.append(rule);
  }
  card.append(list);
  return card;
}

/** The card of an activity row, with its buttons; undefined for a row without one. */
export function cardElement(row: ActivityRow): HTMLElement | undefined {
  const card: DevtoolsCard | undefined = row.card;
  if (!card) return undefined;
  const element = card.kind === 'trace' ? traceCard(card.trace, row.id) : auditCard(card.audit, row.id);
  const actions = el('div', 'card-actions');
  if (card.kind === 'trace' && card.trace.file)
    actions.append(button('Open trace', 'codicon-go-to-file', () => post({ type: 'devtoolsCard', callId: row.id, action: 'openTrace' })));
  actions.append(button('Add to Chat', 'codicon-comment-discussion', () => post({ type: 'devtoolsCard', callId: row.id, action: 'addToChat' })));
  element.append(actions);
  return element;
}
