/**
 * The Network pane's request details: a click on a request (or Enter on it) asks the host, which asks the
 * child for its headers, bodies and timing; the pane shows them in sections, JSON pretty-printed, a long
 * body cut with "Show more", an image previewed, a binary one described. Copy as cURL / fetch and Add to
 * Chat go to the host, which writes the clipboard or the chat input.
 */
import { REQUEST_BODY_LIMIT, type Header, type RequestBody, type RequestDetail } from '../protocol/childMessages';
import type { HostToPanel, MarkerRow, NetworkRow } from '../protocol/panelMessages';
import type { VirtualRows } from './virtualRows';
import { $, el, post } from './dom';
import { sortedHeaders } from './networkWords';

/** Characters of each body asked for at first (JSON pretty-printed by the child; a few hundred lines); "Show more" asks for eight times as many. */
const BODY_PAGE = 16 * 1024;
/** How much of each body the pane holds now. */
let bodyChars = BODY_PAGE;

let openId: string | undefined;

type DetailReply = Extract<HostToPanel, { type: 'requestDetail' }>;
/** Details asked ahead of a click (the pointer rested on the row), the last AHEAD_KEPT: the click shows one at once. */
const ahead = new Map<string, DetailReply>();
const AHEAD_KEPT = 2;
/** The one ask ahead under way, and the row the pointer rests on now, asked once that one is answered. */
let askingAhead: string | undefined;
let nextAhead: string | undefined;
/** The row last refused ahead (still loading, unbounded): not asked again at each move of the pointer over it. */
let refusedAhead: string | undefined;
/** The pane closing puts the focus back on its row. */
let focusingBack = false;

export function openRequestId(): string | undefined {
  return openId;
}

export function openRequest(id: string): void {
  openId = id;
  bodyChars = BODY_PAGE;
  const known = ahead.get(id);
  for (const row of $('network-list').querySelectorAll('[aria-selected="true"]')) row.removeAttribute('aria-selected');
  $('network-list')
    .querySelector(`[data-request-id="${CSS.escape(id)}"]`)
    ?.setAttribute('aria-selected', 'true');
  $('request-title').textContent = 'Loading…';
  $('request-body').replaceChildren(el('p', 'loading', 'Fetching the request from the browser…'));
  setOpen(true);
  // Asked ahead: shown now, or when that answer comes; else asked now.
  if (known) drawDetail(known);
  else if (askingAhead !== id) post({ type: 'openRequest', id, bodyChars });
}

/**
 * The person points at a request or moves to it with the keyboard: a click or Enter follows more often than not,
 * so its details are asked now, and the click shows them at once. Reading its body from the browser is most of
 * what a person waited for (a 1 MB body: 70-190 ms of the browser's time). One ask at a time: of the rows a
 * pointer sweeps over meanwhile, only the one it rests on last is asked next. The child answers only for a
 * finished body whose read is bounded (child/observer/networkLog.ts), and nothing else is read ahead.
 */
function askAhead(row: HTMLElement | null): void {
  const id = row?.dataset.requestId;
  if (!id || id === openId || ahead.has(id) || id === askingAhead || id === refusedAhead) return;
  if (askingAhead) {
    nextAhead = id;
    return;
  }
  askingAhead = id;
  refusedAhead = undefined;
  post({ type: 'openRequest', id, bodyChars: BODY_PAGE, ahead: true });
}

/** An answer asked ahead: kept for the click (an answer with nothing in it is not), then the next row asked. */
function tookAhead(message: DetailReply): void {
  if (message.id !== askingAhead) return;
  askingAhead = undefined;
  if (!message.detail) refusedAhead = message.id;
  else {
    ahead.delete(message.id);
    ahead.set(message.id, message);
    for (const oldest of ahead.keys()) {
      if (ahead.size <= AHEAD_KEPT) break;
      ahead.delete(oldest);
    }
  }
  const next = nextAhead;
  nextAhead = undefined;
  if (next) askAhead($('network-list').querySelector<HTMLElement>(`[data-request-id="${CSS.escape(next)}"]`));
}

/** The pane closes (the list it came from is replaced). */
export function closeRequest(): void {
  if (!$('request-detail').hidden) setOpen(false);
  openId = undefined;
}

/** "Show more": the same request again with more of each body; the pane stays where it was scrolled. */
function showMore(): void {
  if (!openId) return;
  bodyChars = Math.min(REQUEST_BODY_LIMIT, bodyChars * 8);
  post({ type: 'openRequest', id: openId, bodyChars });
}

function setOpen(open: boolean): void {
  const list = $('network-list');
  const pane = $('request-detail');
  if (open && pane.hidden) pane.dataset.listScroll = String(list.scrollTop);
  pane.hidden = !open;
  // Beside the list in a wide pane, in its place in a narrow one (panel.css); the list keeps where it was scrolled.
  $('network-body').classList.toggle('with-detail', open);
  if (!open) {
    openId = undefined;
    list.scrollTop = Number(pane.dataset.listScroll ?? list.scrollTop);
    // Back to the row just closed: not a move to it, so nothing is asked ahead.
    focusingBack = true;
    (list.querySelector<HTMLElement>('[aria-selected="true"]') ?? list).focus();
    focusingBack = false;
  }
}

export function showRequestDetail(message: DetailReply): void {
  if (message.ahead) {
    tookAhead(message);
    // Shown only to the open that waits for it; refused ahead (still loading, unbounded): that open asks itself.
    if (message.id !== openId || bodyChars !== BODY_PAGE) return;
    if (!message.detail) return void post({ type: 'openRequest', id: message.id, bodyChars });
  }
  if (message.id === openId) drawDetail(message);
}

/** The open request's answer in the pane. */
function drawDetail(message: DetailReply): void {
  const body = $('request-body');
  if (!message.detail) {
    $('request-title').textContent = 'Not available';
    body.replaceChildren(el('p', 'problem', message.problem ?? 'The request is gone.'));
    return;
  }
  const detail = message.detail;
  const scrolled = body.scrollTop;
  $('request-title').textContent = `${detail.method} ${detail.url}`;
  $('request-title').title = detail.url;
  body.replaceChildren(
    section('General', true, generalList(detail)),
    ...(detail.timing.length ? [section('Timing', true, pairs(detail.timing.map(t => [t.phase, `${t.ms} ms`])))] : []),
    ...cookieSections(detail),
    section(`Response headers (${detail.responseHeaders.length})`, true, headerList(detail.responseHeaders)),
    section(`Request headers (${detail.requestHeaders.length})`, true, headerList(detail.requestHeaders)),
    section('Request body', detail.requestBody.kind !== 'none', bodyView(detail.requestBody)),
    section('Response body', true, bodyView(detail.responseBody)),
  );
  body.scrollTop = scrolled;
}

/**
 * The request's cookies (its Cookie header) and those the response set (each Set-Cookie with its attributes), as
 * DevTools' Cookies tab lists them; none when there are none. Values are as masked as the headers they come from.
 */
function cookieSections(detail: RequestDetail): HTMLElement[] {
  const sent = detail.requestHeaders
    .filter(h => h.name.toLowerCase() === 'cookie')
    .flatMap(h => h.value.split(';'))
    .map(part => part.trim())
    .filter(Boolean)
    .map(part => {
      const at = part.indexOf('=');
      return [at < 0 ? part : part.slice(0, at), at < 0 ? '' : part.slice(at + 1)] as [string, string];
    });
  const set = detail.responseHeaders
    .filter(h => h.name.toLowerCase() === 'set-cookie')
    .flatMap(h => h.value.split('\n'))
    .filter(Boolean)
    .map(line => {
      const [pair, ...attributes] = line.split(';').map(part => part.trim());
      const at = pair.indexOf('=');
      return [at < 0 ? pair : pair.slice(0, at), `${at < 0 ? '' : pair.slice(at + 1)}${attributes.length ? `  (${attributes.join('; ')})` : ''}`] as [
        string,
        string,
      ];
    });
  return [
    ...(sent.length ? [section(`Request cookies (${sent.length})`, true, pairs(sent))] : []),
    ...(set.length ? [section(`Response cookies (${set.length})`, true, pairs(set))] : []),
  ];
}

function section(title: string, open: boolean, content: HTMLElement): HTMLElement {
  const details = document.createElement('details');
  details.open = open;
  details.append(el('summary', '', title), content);
  return details;
}

function pairs(rows: [string, string][]): HTMLElement {
  const list = el('dl', 'pairs');
  for (const [name, value] of rows) list.append(el('dt', '', name), el('dd', '', value));
  return list;
}

function generalList(detail: RequestDetail): HTMLElement {
  return pairs([
    ['URL', detail.url],
    ['Method', detail.method],
    ['Status', detail.failure ? 'failed' : detail.status ? `${detail.status}${detail.statusText ? ` ${detail.statusText}` : ''}` : 'pending'],
    ['Type', detail.resourceType],
    ...(detail.remoteAddress ? [['Remote address', detail.remoteAddress] as [string, string]] : []),
    ...(detail.failure ? [['Failure', detail.failure] as [string, string]] : []),
  ]);
}

function headerList(headers: Header[]): HTMLElement {
  return headers.length ? pairs(sortedHeaders(headers).map(header => [header.name, header.value])) : el('p', 'empty', '(none)');
}

function bodyView(body: RequestBody): HTMLElement {
  const size = body.size ? ` (${body.size.toLocaleString()} bytes, ${body.mimeType})` : body.mimeType ? ` (${body.mimeType})` : '';
  if (body.kind === 'image' && body.base64) {
    const box = el('div', 'body-image');
    const image = document.createElement('img');
    image.src = `data:${body.mimeType};base64,${body.base64}`;
    image.alt = `The response image${size}`;
    box.append(image, el('p', 'body-note', `Image${size}`));
    return box;
  }
  if (body.kind === 'text' && body.mimeType.toLowerCase() === 'image/svg+xml' && body.text !== undefined && !body.truncated) return svgBody(body, size);
  if ((body.kind === 'text' || body.kind === 'json') && body.text !== undefined) return textBody(body, size);
  return el('p', 'body-note', `${body.reason ?? 'No body.'}${size}`);
}

/**
 * An SVG previewed as the image it is, never as markup in the panel's DOM: an <img> of a data: URL (the CSP's
 * img-src allows data:; an image's scripts never run), its source beneath in a closed section.
 */
function svgBody(body: RequestBody, size: string): HTMLElement {
  const box = el('div', 'body-image');
  const image = document.createElement('img');
  const utf8 = new TextEncoder().encode(body.text!);
  let binary = '';
  for (const byte of utf8) binary += String.fromCharCode(byte);
  image.src = `data:image/svg+xml;base64,${btoa(binary)}`;
  image.alt = `The response image${size}`;
  box.append(image, el('p', 'body-note', `Image${size}`), section('View source', false, textBody(body, size)));
  return box;
}

function textBody(body: RequestBody, size: string): HTMLElement {
  const box = el('div', 'body-text');
  const kind = body.kind === 'json' ? (body.pretty ? 'JSON, pretty-printed' : 'JSON') : 'Text';
  const whole = body.text!.length >= REQUEST_BODY_LIMIT || bodyChars >= REQUEST_BODY_LIMIT;
  const note = body.truncated ? (whole ? ': only its first 2 MB are shown' : `: the first ${Math.round(body.text!.length / 1024)} KB shown`) : '';
  box.append(el('p', 'body-note', `${kind}${size}${note}`), el('pre', 'body', body.text!));
  if (body.truncated && !whole) {
    const more = el('button', 'icon-button show-more', 'Show more');
    more.addEventListener('click', showMore);
    box.append(more);
  }
  return box;
}

/** What a person reads in the open pane (the tests' view): its title, then each open section's text. */
export function requestDetailReport(): string {
  if ($('request-detail').hidden) return '';
  const sections = [...$('request-body').querySelectorAll('details')].map(details => {
    const title = details.querySelector('summary')?.textContent ?? '';
    const lines = [...details.querySelectorAll('dt, dd, pre, p')].map(node => node.textContent ?? '');
    return `## ${title}\n${lines.join('\n')}`;
  });
  return [$('request-title').textContent ?? '', ...sections].join('\n');
}

/** Wires the list (click, Enter, arrows) and the pane's buttons (once). */
export function startRequestDetail(list: HTMLElement, rows: VirtualRows<NetworkRow | MarkerRow>): void {
  list.addEventListener('click', event => {
    const row = (event.target as Element).closest<HTMLElement>('li[data-request-id]');
    if (row) openRequest(row.dataset.requestId!);
  });
  // The pointer moving over a row, not rows moving under a still pointer (a list following its end fires pointerover).
  list.addEventListener('pointermove', event => askAhead((event.target as Element).closest<HTMLElement>('li[data-request-id]')));
  list.addEventListener('focusin', event => {
    if (!focusingBack) askAhead((event.target as Element).closest<HTMLElement>('li[data-request-id]'));
  });
  list.addEventListener('keydown', event => {
    const focused = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('li[data-request-id]');
    if (event.key === 'Enter' && focused && list.contains(focused)) return openRequest(focused.dataset.requestId!);
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    // Among the rows the filters show, drawn or not: the list scrolls to the next one.
    const next = rows.neighbour(focused && list.contains(focused) ? Number(focused.dataset.seq) : undefined, step);
    if (next) rows.reveal(next.seq)?.focus();
  });
  $('request-close').addEventListener('click', () => setOpen(false));
  $('request-detail').addEventListener('keydown', event => {
    if (event.key === 'Escape') setOpen(false);
  });
  for (const [id, action] of [
    ['request-curl', 'copyCurl'],
    ['request-fetch', 'copyFetch'],
    ['request-chat', 'addToChat'],
  ] as const) {
    $(id).addEventListener('click', () => {
      if (openId) post({ type: 'requestAction', id: openId, action });
    });
  }
}
