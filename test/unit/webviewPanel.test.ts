/**
 * The panel's webview script (the real bundle: dist/webview/panel-test.js, which is panel.js with the tests'
 * describe hook) in a DOM for Node (happy-dom),
 * fed the messages the host sends: what a person would see in the panel, and what it posts back.
 */
import * as assert from 'assert';
import type { DevtoolsCard } from '../../src/protocol/devtoolsFacts';
import { insightAdvice } from '../../src/protocol/devtoolsAdvice';
import * as fs from 'fs';
import * as path from 'path';
import type { BridgeState, ConsoleRow, HostToPanel, MarkerRow, NetworkRow, PanelReport, PanelState, PanelToHost } from '../../src/protocol/panelMessages';
import type { BrowserStateParams } from '../../src/protocol/childMessages';
import { healthOf } from '../../src/core/supervision/browserHealth';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { fakeLiveViewSource } from '../support/liveViewSource';

const REPO_ROOT = path.join(__dirname, '..', '..', '..');

/** happy-dom's window, as much of it as these tests use (its typings are ESM-only; its CommonJS build loads fine). */
interface DomWindow {
  document: Document;
  Event: typeof Event;
  MessageEvent: typeof MessageEvent;
  MouseEvent: typeof MouseEvent;
  KeyboardEvent: typeof KeyboardEvent;
  dispatchEvent(event: unknown): boolean;
  eval(code: string): unknown;
  close(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Window } = require('happy-dom') as { Window: new (options: { url: string }) => DomWindow };

function openPanel(bundle = 'panel-test.js') {
  const window = new Window({ url: 'https://panel.test/' });
  // The page as the host serves it, without the script tag (the bundle is run below) and with empty resource links.
  const html = fs
    .readFileSync(path.join(REPO_ROOT, 'media', 'panel.html'), 'utf8')
    .replace(/<script[^>]*><\/script>/, '')
    .replace(/\{\{\w+\}\}/g, '');
  window.document.write(html);
  // Copied as a real postMessage does (structured clone): objects made in the DOM's context become ours.
  const posted: PanelToHost[] = [];
  (window as unknown as { acquireVsCodeApi(): unknown }).acquireVsCodeApi = () => ({
    postMessage: (m: PanelToHost) => posted.push(JSON.parse(JSON.stringify(m))),
    getState: () => undefined,
    setState: () => undefined,
  });
  window.eval(fs.readFileSync(path.join(REPO_ROOT, 'dist', 'webview', bundle), 'utf8'));
  const $ = (id: string) => window.document.getElementById(id) as unknown as HTMLElement;
  const send = (message: HostToPanel) => window.dispatchEvent(new window.MessageEvent('message', { data: message }));
  const describe = (): PanelReport => {
    send({ type: 'describe', id: 7 });
    const reply = posted.filter(m => m.type === 'report').at(-1) as Extract<PanelToHost, { type: 'report' }>;
    assert.strictEqual(reply.id, 7, 'the report answers the request it was asked by');
    return reply.report;
  };
  return { window, posted, $, send, describe, close: () => window.close() };
}

/** The panel's state, its health worked out as the host does (core/supervision/browserHealth.ts). */
const state = (over: Partial<PanelState> = {}): PanelState => ({
  health: panelHealthOf('ready'),
  browser: 'Chromium',
  tabs: [],
  paused: false,
  driver: 'agent',
  sessions: [],
  watching: 'window',
  network: { throttling: 'none', cacheDisabled: false, preserveLog: false },
  console: { preserveLog: false },
  ...over,
});
function panelHealthOf(server: BridgeState, browser?: BrowserStateParams): PanelState['health'] {
  const { generation: _generation, pid: _pid, ...health } = healthOf({ state: server, generation: 1 }, browser);
  return health;
}
const tab = (id: string, url: string, title: string, current: boolean) => ({ id, url, title, current });

describe('panel webview in a DOM', () => {
  it("ships without the tests' hook: panel.js, as the VSIX has it, answers no describe and holds no layout probe", () => {
    const panel = openPanel('panel.js');
    try {
      panel.send({ type: 'describe', id: 7 });
      assert.deepStrictEqual(
        panel.posted.filter(m => m.type === 'report'),
        [],
      );
      assert.strictEqual(panel.posted[0]?.type, 'ready', 'the production bundle still starts');
      const bundle = fs.readFileSync(path.join(REPO_ROOT, 'dist', 'webview', 'panel.js'), 'utf8');
      assert.ok(!bundle.includes('cutControls') && !bundle.includes('frameBands'), 'the layout probe is compiled out');
      assert.ok(!bundle.includes('panelRequestsListed'), "the bench's request count is compiled out");
    } finally {
      panel.close();
    }
  });

  it('says ready, then says what happens before a page is open: not started, starting, no page yet, failed', () => {
    const panel = openPanel();
    try {
      assert.deepStrictEqual(panel.posted[0], { type: 'ready' });
      const placeholder = () => panel.$('placeholder').textContent;
      panel.send({ type: 'state', state: state({ health: panelHealthOf('idle') }) });
      assert.strictEqual(placeholder(), 'No browser yet. Type an address above, press Start Browser, or ask chat to open a page.');
      panel.send({ type: 'state', state: state({ health: panelHealthOf('starting') }) });
      assert.strictEqual(placeholder(), 'Starting the browser…');
      assert.strictEqual(panel.$('state').textContent, 'Starting…');
      panel.send({ type: 'state', state: state({ health: panelHealthOf('ready', { state: 'launching' }) }) });
      assert.strictEqual(placeholder(), 'Starting the browser…');
      panel.send({ type: 'state', state: state({ health: panelHealthOf('ready') }) });
      assert.strictEqual(panel.$('state').textContent, 'Not started', 'a server without a browser is not called Ready');
      panel.send({ type: 'state', state: state({ health: panelHealthOf('ready', { state: 'ready' }) }) });
      assert.strictEqual(panel.$('state').textContent, 'Ready (no page yet)');
      assert.match(placeholder() ?? '', /^No page is open yet/);
      panel.send({
        type: 'state',
        state: state({ health: panelHealthOf('ready', { state: 'failed', message: 'Playwright Bridge could not start Chromium.' }) }),
      });
      assert.strictEqual(panel.$('state').textContent, 'Failed to start');
      assert.strictEqual(panel.$('detail').textContent, 'Playwright Bridge could not start Chromium.');
      assert.strictEqual(panel.$('detail').hidden, false);
    } finally {
      panel.close();
    }
  });

  it('offers a session picker only with several sessions, and posts the one the person picks', () => {
    const panel = openPanel();
    try {
      panel.send({ type: 'state', state: state({ sessions: [{ id: 'window', label: 'Chat in this window' }] }) });
      assert.strictEqual(panel.$('session-row').hidden, true, 'one session: nothing to pick');
      const sessions = [
        { id: 'window', label: 'Chat in this window' },
        { id: 'abc12345-x', label: 'MCP client "agent" (abc12345)' },
      ];
      panel.send({ type: 'state', state: state({ sessions, watching: 'window' }) });
      assert.strictEqual(panel.$('session-row').hidden, false);
      const picker = panel.$('session') as unknown as HTMLSelectElement;
      assert.deepStrictEqual(
        [...picker.options].map(o => o.textContent),
        ['Chat in this window', 'MCP client "agent" (abc12345)'],
      );
      assert.strictEqual(picker.value, 'window');
      picker.value = 'abc12345-x';
      picker.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'watchContext', sessionId: 'abc12345-x' });
    } finally {
      panel.close();
    }
  });

  it('keeps the header to one row: the address names the current tab, and tab chips show only when there are several', () => {
    const panel = openPanel();
    try {
      panel.send({ type: 'state', state: state({ tabs: [{ ...tab('p1', 'http://127.0.0.1/a', 'Alpha', true), viewport: { width: 1280, height: 720 } }] }) });
      assert.strictEqual((panel.$('address') as HTMLInputElement).value, 'http://127.0.0.1/a');
      assert.match(panel.$('address').title, /^Alpha\n/);
      assert.strictEqual(panel.$('tabs').hidden, true, 'one tab: no strip (the address names it)');
      assert.strictEqual(panel.describe().sizeLabel, '1280×720', 'the size the agent works at is in the header');
      panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', false), tab('p2', 'http://127.0.0.1/b', 'Beta', true)] }) });
      assert.strictEqual(panel.$('tabs').hidden, false);
      const chips = [...panel.$('tabs').querySelectorAll('.tab:not(.tab-new)')] as HTMLElement[];
      assert.deepStrictEqual(
        chips.map(c => [c.querySelector('.tab-title')!.textContent, c.getAttribute('aria-current')]),
        [
          ['Alpha', null],
          ['Beta', 'page'],
        ],
      );
      assert.ok(panel.$('tabs').querySelector('.tab-new'), 'a + chip opens a new tab');
      (chips[0].querySelector('.close') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'closeTab', tabId: 'p1' } });
      assert.match(panel.describe().header, /Beta/);
      // A tab of a named context (isolatedContext) carries its name, for the eye and for a screen reader.
      panel.send({
        type: 'state',
        state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', false), { ...tab('p2', 'http://127.0.0.1/b', 'Beta', true), context: 'alice' }] }),
      });
      const named = panel.$('tabs').querySelectorAll('.tab:not(.tab-new)')[1] as HTMLElement;
      assert.strictEqual(named.querySelector('.tab-context')?.textContent, 'alice');
      assert.strictEqual(named.getAttribute('aria-label'), 'Tab: Beta, isolated context alice');
      assert.match(named.title, /isolated context "alice"/);
      assert.strictEqual(panel.$('tabs').querySelectorAll('.tab-context').length, 1, "the session's own tab names no context");
    } finally {
      panel.close();
    }
  });

  it('goes back and forward with Alt+Left/Right, focuses the address with Ctrl+L, and resizes the page from the size picker', () => {
    const panel = openPanel();
    try {
      panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true)] }) });
      const key = (init: KeyboardEventInit) => panel.window.dispatchEvent(new panel.window.KeyboardEvent('keydown', { bubbles: true, ...init }));
      key({ key: 'ArrowLeft', altKey: true });
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'back' } });
      key({ key: 'ArrowRight', altKey: true });
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'forward' } });
      key({ key: 'l', ctrlKey: true });
      assert.strictEqual(panel.window.document.activeElement, panel.$('address'));
      const picker = panel.$('size') as unknown as HTMLSelectElement;
      picker.value = '390x844';
      picker.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'resize', width: 390, height: 844 } });
      picker.value = 'device';
      picker.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pickDevice' });
      picker.value = 'custom';
      picker.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.strictEqual(panel.$('custom-row').hidden, false);
      (panel.$('custom-size') as HTMLInputElement).value = '99x5000';
      panel.$('custom-row').dispatchEvent(new panel.window.Event('submit', { cancelable: true }) as unknown as Event);
      assert.notDeepStrictEqual(
        (panel.posted.at(-1) as { pageAction?: unknown }).pageAction,
        { action: 'resize', width: 99, height: 5000 },
        'a size out of range is refused',
      );
      (panel.$('custom-size') as HTMLInputElement).value = '1024 x 600';
      panel.$('custom-row').dispatchEvent(new panel.window.Event('submit', { cancelable: true }) as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'resize', width: 1024, height: 600 } });
    } finally {
      panel.close();
    }
  });

  it('asks for a request ahead when the pointer rests on its row or the keyboard moves to it, one ask at a time, and shows the answer on the click without asking again', () => {
    const panel = openPanel();
    try {
      const rows: NetworkRow[] = [1, 2, 3, 4].map(seq => ({
        seq,
        id: `r${seq}`,
        method: 'GET',
        url: `http://127.0.0.1/api/big?n=${seq}`,
        resourceType: 'fetch',
        status: 200,
        durationMs: 5,
        time: 0,
      }));
      panel.send({ type: 'network', rows, dropBefore: 0 });
      assert.strictEqual(panel.describe().networkUrls.length, 4);
      const row = (id: string) => panel.window.document.querySelector(`#network-list li[data-request-id="${id}"]`) as HTMLElement;
      const point = (id: string) => row(id).firstElementChild!.dispatchEvent(new panel.window.Event('pointermove', { bubbles: true }) as unknown as Event);
      const asks = () => panel.posted.filter(message => message.type === 'openRequest');
      const answer = (id: string, ahead: boolean) =>
        panel.send({
          type: 'requestDetail',
          id,
          ...(ahead ? { ahead: true as const } : {}),
          detail: {
            id,
            url: `http://127.0.0.1/api/big?n=${id}`,
            method: 'GET',
            resourceType: 'fetch',
            status: 200,
            timing: [],
            requestHeaders: [],
            responseHeaders: [],
            requestBody: { kind: 'none', mimeType: '', size: 0, reason: 'The request has no body.' },
            responseBody: { kind: 'text', mimeType: 'text/plain', size: 4, text: `body of ${id}` },
          },
        });
      // Resting on r1, then sweeping over r2 and r3 while r1 is asked: r1, and then only r3.
      point('r1');
      point('r1');
      point('r2');
      point('r3');
      assert.deepStrictEqual(asks(), [{ type: 'openRequest', id: 'r1', bodyChars: 16384, ahead: true }]);
      answer('r1', true);
      assert.deepStrictEqual(asks().at(-1), { type: 'openRequest', id: 'r3', bodyChars: 16384, ahead: true });
      assert.strictEqual(panel.describe().requestDetail, '', 'an answer asked ahead opens nothing');
      // The click on r1 shows its answer at once, asking nothing.
      row('r1').click();
      assert.strictEqual(asks().length, 2);
      assert.match(panel.describe().requestDetail, /body of r1/);
      // A click on r3 while its ask is under way waits for that answer; the keyboard's move to r4 asks it ahead next.
      row('r3').click();
      assert.strictEqual(asks().length, 2);
      assert.match(panel.describe().requestDetail, /^Loading/);
      row('r4').focus();
      answer('r3', true);
      assert.match(panel.describe().requestDetail, /body of r3/);
      assert.deepStrictEqual(asks().at(-1), { type: 'openRequest', id: 'r4', bodyChars: 16384, ahead: true });
      // Refused ahead (still loading): the click that waited for it asks for itself.
      row('r4').click();
      panel.send({ type: 'requestDetail', id: 'r4', ahead: true, problem: 'Not read ahead: it is still loading.' });
      answer('r4', false);
      assert.match(panel.describe().requestDetail, /body of r4/);
      // Rows moving under a still pointer (pointerover without a move), and the pane closing back onto its row: nothing asked.
      const before = asks().length;
      row('r2').dispatchEvent(new panel.window.Event('pointerover', { bubbles: true }) as unknown as Event);
      (panel.$('request-close') as HTMLButtonElement).click();
      assert.strictEqual(asks().length, before);
      // The pointer moving on over the row refused ahead asks nothing more.
      point('r4');
      point('r4');
      assert.strictEqual(asks().length, before);
    } finally {
      panel.close();
    }
  });

  it('opens a request: asks the host, then shows its headers, pretty JSON bodies and timing; Copy and Add to Chat go to the host; a type filter', () => {
    const panel = openPanel();
    try {
      const rows: NetworkRow[] = [
        { seq: 1, id: 'r1', method: 'POST', url: 'http://127.0.0.1/api/echo', resourceType: 'fetch', status: 200, durationMs: 5, time: 0 },
        { seq: 2, id: 'r2', method: 'GET', url: 'http://127.0.0.1/app.js', resourceType: 'script', status: 200, durationMs: 5, time: 0 },
      ];
      panel.send({ type: 'network', rows, dropBefore: 0 });
      assert.deepStrictEqual(panel.describe().networkUrls, ['http://127.0.0.1/api/echo', 'http://127.0.0.1/app.js']);
      const type = panel.$('type-filter') as unknown as HTMLSelectElement;
      type.value = 'fetch';
      type.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.describe().networkUrls, ['http://127.0.0.1/api/echo']);
      (panel.window.document.querySelector('#network-list li[data-request-id="r1"]') as HTMLElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'openRequest', id: 'r1', bodyChars: 16384 });
      assert.match(panel.describe().requestDetail, /^Loading/);
      // As the child sends it to the panel: JSON pretty-printed.
      const body = (value: unknown) => ({
        kind: 'json' as const,
        mimeType: 'application/json',
        size: JSON.stringify(value).length,
        text: JSON.stringify(value, null, 2),
        pretty: true,
      });
      panel.send({
        type: 'requestDetail',
        id: 'r1',
        detail: {
          id: 'r1',
          url: 'http://127.0.0.1/api/echo',
          method: 'POST',
          resourceType: 'fetch',
          status: 200,
          statusText: 'OK',
          remoteAddress: '127.0.0.1:8080',
          timing: [{ phase: 'Waiting for the server', ms: 3.2 }],
          requestHeaders: [{ name: 'content-type', value: 'application/json' }],
          responseHeaders: [
            { name: 'x-echo', value: 'yes' },
            { name: 'Content-Type', value: 'application/json' },
          ],
          requestBody: body({ name: 'Ada' }),
          responseBody: body({ got: { name: 'Ada' } }),
        },
      });
      const shown = panel.describe().requestDetail;
      assert.match(shown, /## Response headers \(2\)\nContent-Type\napplication\/json\nx-echo\nyes/, 'header names sorted case-insensitively');
      assert.match(shown, /^POST http:\/\/127\.0\.0\.1\/api\/echo/);
      assert.match(shown, /## Request headers \(1\)\ncontent-type\napplication\/json/);
      assert.match(shown, /## Request body\n.*\n\{\n {2}"name": "Ada"\n\}/, 'the JSON body pretty-printed');
      assert.match(shown, /Remote address\n127\.0\.0\.1:8080/);
      assert.match(shown, /Waiting for the server\n3\.2 ms/);
      for (const [id, action] of [
        ['request-curl', 'copyCurl'],
        ['request-fetch', 'copyFetch'],
        ['request-chat', 'addToChat'],
      ]) {
        (panel.$(id) as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'requestAction', id: 'r1', action });
      }
      (panel.$('request-close') as HTMLButtonElement).click();
      assert.strictEqual(panel.describe().requestDetail, '', 'closed, back to the list');
    } finally {
      panel.close();
    }
  });

  it("Network at DevTools' level: column headers sort the list and reverse, a waterfall bar per request, Clear, Preserve log, throttling and Disable cache go to the host and show in the header; a request's cookies", () => {
    const panel = openPanel();
    try {
      const rows: NetworkRow[] = [
        {
          seq: 1,
          id: 'r1',
          method: 'GET',
          url: 'http://127.0.0.1/b.js',
          resourceType: 'script',
          status: 200,
          durationMs: 30,
          sizeBytes: 900,
          time: 1000,
          initiator: 'http://127.0.0.1/page:4',
        },
        { seq: 2, id: 'r2', method: 'GET', url: 'http://127.0.0.1/a.css', resourceType: 'stylesheet', status: 404, durationMs: 10, sizeBytes: 50, time: 1010 },
        { seq: 3, id: 'r3', method: 'POST', url: 'http://127.0.0.1/c', resourceType: 'fetch', status: 200, durationMs: 90, sizeBytes: 5000, time: 1020 },
      ];
      panel.send({ type: 'network', rows, dropBefore: 0 });
      const urls = () => panel.describe().networkUrls.map(u => u.replace('http://127.0.0.1/', ''));
      const column = (name: string) =>
        [...panel.window.document.querySelectorAll('#network-columns .column')].find(c => c.textContent!.startsWith(name)) as unknown as HTMLButtonElement;
      assert.deepStrictEqual(
        [...panel.window.document.querySelectorAll('#network-columns .column')].map(c => c.textContent),
        ['Name', 'Method', 'Status', 'Type', 'Initiator', 'Size', 'Time', 'Waterfall'],
        'the columns a web developer knows',
      );
      column('Name').click();
      assert.deepStrictEqual(urls(), ['a.css', 'b.js', 'c'], 'by name');
      assert.strictEqual(column('Name').getAttribute('aria-sort'), 'ascending');
      column('Name').click();
      assert.deepStrictEqual(urls(), ['c', 'b.js', 'a.css'], 'reversed');
      column('Size').click();
      assert.deepStrictEqual(urls(), ['a.css', 'b.js', 'c'], 'by size');
      column('Size').click();
      column('Size').click();
      assert.deepStrictEqual(urls(), ['b.js', 'a.css', 'c'], 'a third click: as they came');
      const first = panel.window.document.querySelector('#network-list li[data-request-id="r1"]') as unknown as HTMLElement;
      assert.strictEqual(first.querySelector('.initiator')!.textContent, 'page:4', 'the initiator, short; the whole in its tooltip');
      assert.deepStrictEqual(
        [first.querySelector('.name .url')!.textContent, first.querySelector('.name .path')!.textContent, first.querySelector('.name')!.getAttribute('title')],
        ['b.js', '127.0.0.1/', 'http://127.0.0.1/b.js'],
        'Name is the file over its host and path, the whole address in its tooltip',
      );
      panel.send({
        type: 'network',
        rows: [{ ...rows[2], seq: 4, id: 'r4', url: 'http://127.0.0.1/c.png', sizeBytes: 0, transferBytes: 0, resourceBytes: 700, cache: 'memory' }],
        dropBefore: 0,
      });
      panel.describe();
      const cached = panel.window.document.querySelector('#network-list li[data-request-id="r4"] .size') as unknown as HTMLElement;
      assert.deepStrictEqual([cached.querySelector('.transferred')!.textContent, cached.querySelector('.resource')!.textContent], ['(memory cache)', '700 B']);
      assert.strictEqual(panel.$('network-summary').textContent, '4 requests | 5.8 KB transferred | 6.5 KB resources', 'the footer under the list');
      const bar = first.querySelector('.waterfall > i') as unknown as HTMLElement;
      assert.deepStrictEqual(
        [bar.style.getPropertyValue('--t0'), bar.style.getPropertyValue('--dt')],
        ['0', '30'],
        'the bar starts at the first request and lasts its time',
      );
      // From the first start to the last end (110 ms), with room to grow so that a burst does not restyle every frame.
      assert.strictEqual((panel.$('network-list') as HTMLElement).style.getPropertyValue('--wf-span'), '165', 'the waterfall spans first start to last end');

      (panel.$('network-clear') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'networkControl', control: { action: 'clear' } });
      const preserve = panel.$('preserve-log') as HTMLInputElement;
      preserve.checked = true;
      preserve.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'networkControl', control: { action: 'preserveLog', on: true } });
      const throttling = panel.$('throttling') as HTMLSelectElement;
      throttling.value = 'slow4g';
      throttling.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), {
        type: 'networkControl',
        control: { action: 'conditions', conditions: { throttling: 'slow4g', cacheDisabled: false } },
      });
      (panel.$('network-har') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'command', command: 'saveHar' });
      assert.strictEqual((panel.$('network-note') as HTMLElement).hidden, true, 'nothing in the header until the browser applies it');
      panel.send({ type: 'state', state: state({ network: { throttling: 'slow4g', cacheDisabled: true, preserveLog: true } }) });
      assert.strictEqual((panel.$('network-note') as HTMLElement).hidden, false);
      assert.strictEqual(panel.$('network-note').textContent, 'Slow 4G · Cache off', 'the header says it while on');
      assert.strictEqual((panel.$('disable-cache') as HTMLInputElement).checked, true);

      (panel.window.document.querySelector('#network-list li[data-request-id="r3"]') as HTMLElement).click();
      panel.send({
        type: 'requestDetail',
        id: 'r3',
        detail: {
          id: 'r3',
          url: 'http://127.0.0.1/c',
          method: 'POST',
          resourceType: 'fetch',
          status: 200,
          timing: [],
          requestHeaders: [{ name: 'cookie', value: 'sid=abc; theme=dark' }],
          responseHeaders: [{ name: 'set-cookie', value: 'seen=1; Path=/; HttpOnly' }],
          requestBody: { kind: 'none', mimeType: '', size: 0 },
          responseBody: { kind: 'none', mimeType: '', size: 0 },
        },
      });
      const shown = panel.describe().requestDetail;
      assert.match(shown, /## Request cookies \(2\)\nsid\nabc\ntheme\ndark/, shown);
      assert.match(shown, /## Response cookies \(1\)\nseen\n1 {2}\(Path=\/; HttpOnly\)/, shown);
    } finally {
      panel.close();
    }
  });

  it("after a browser restart, the details of a request of the old browser close and the last export's line goes", () => {
    const panel = openPanel();
    const { events, observations, healthChanges } = fakeLiveViewSource();
    const store = new LiveViewStore(events, () => 'Chromium');
    const forwarding = store.onMessage(message => panel.send(message));
    try {
      panel.send(store.snapshot());
      observations.fire({
        kind: 'network',
        entry: { id: 'r1', method: 'GET', url: 'http://127.0.0.1/api', resourceType: 'fetch', status: 200, pageId: 'p', time: 1 },
      });
      panel.describe();
      (panel.window.document.querySelector('#network-list li[data-request-id="r1"]') as HTMLElement).click();
      assert.strictEqual((panel.$('request-detail') as HTMLElement).hidden, false, 'the details are open');
      store.showExportStatus({ state: 'failed', text: 'tests/a.failing.spec.ts: failed 3 of 3 runs at line 4', marks: [] });
      assert.match(panel.$('export-status').textContent ?? '', /failed 3 of 3/);
      healthChanges.fire(healthOf({ state: 'ready', generation: 2 }, undefined));
      assert.strictEqual((panel.$('request-detail') as HTMLElement).hidden, true, "the old browser's request is closed");
      assert.strictEqual(panel.$('export-status').textContent, '', "the old browser's export is not spoken of");
      assert.strictEqual(store.exportStatus, undefined, 'nor sent to a panel that opens now');
      assert.deepStrictEqual(panel.describe().networkUrls, []);
      assert.match(panel.window.document.querySelector('#network-list .marker')?.textContent ?? '', /Browser restarted/);
    } finally {
      forwarding.dispose();
      store.dispose();
      panel.close();
    }
  });

  it('lists console messages with an error count, and filters them by level and text', () => {
    const panel = openPanel();
    try {
      const rows: ConsoleRow[] = [
        { seq: 1, level: 'info', text: 'hello', time: 0 },
        { seq: 2, level: 'error', text: 'boom', location: 'http://127.0.0.1/a:3:1', time: 0 },
        { seq: 3, level: 'debug', text: 'detail', time: 0 },
      ];
      panel.send({ type: 'console', rows, dropBefore: 0 });
      assert.deepStrictEqual(panel.describe().consoleTexts, ['hello', 'boom', 'detail']);
      assert.strictEqual(panel.$('console-errors').textContent, '1');
      const debug = panel.$('level-debug') as HTMLInputElement;
      debug.checked = false;
      debug.dispatchEvent(new panel.window.Event('change') as unknown as Event);
      assert.deepStrictEqual(panel.describe().consoleTexts, ['hello', 'boom']);
      const filter = panel.$('console-filter') as HTMLInputElement;
      filter.value = 'BOO';
      filter.dispatchEvent(new panel.window.Event('input') as unknown as Event);
      assert.deepStrictEqual(panel.describe().consoleTexts, ['boom']);
    } finally {
      panel.close();
    }
  });

  describe('the Console pane as a DevTools user reads it', () => {
    const row = (seq: number, over: Partial<ConsoleRow> = {}): ConsoleRow => ({ seq, level: 'error', text: `error ${seq}`, time: 0, ...over });
    const consoleItems = (panel: ReturnType<typeof openPanel>) => {
      panel.describe();
      return [...panel.window.document.querySelectorAll('#console-list li.console, #console-list li.marker')] as unknown as HTMLElement[];
    };

    it("Clear (its button, or Ctrl+K in the list; Ctrl+L stays the address bar's) asks the host, whose emptied list empties the pane and the badges", () => {
      const panel = openPanel();
      try {
        panel.send({ type: 'console', rows: [row(1), row(2), row(3, { level: 'warning', text: 'careful' })], dropBefore: 0 });
        panel.describe();
        assert.deepStrictEqual([panel.$('console-errors').textContent, panel.$('console-warnings').textContent], ['2', '1']);
        panel.$('console-clear').click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'consoleControl', control: { action: 'clear' } });
        panel.posted.length = 0;
        panel.$('console-list').focus();
        panel.$('console-list').dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }) as unknown as Event);
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'consoleControl', control: { action: 'clear' } }, 'Ctrl+K in the list');
        assert.strictEqual(panel.window.document.activeElement, panel.$('console-list'), 'the focus stays in the list');
        panel.posted.length = 0;
        panel.$('console-list').dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'l', ctrlKey: true, bubbles: true }) as unknown as Event);
        assert.strictEqual(panel.window.document.activeElement, panel.$('address'), 'Ctrl+L in the list is the address bar, as everywhere in the panel');
        assert.deepStrictEqual(panel.posted, [], 'and clears nothing');
        // The host's answer: its list emptied, with its line.
        panel.send({ type: 'console', rows: [{ seq: 4, marker: 'Console was cleared', time: 0 }], dropBefore: 4 });
        assert.deepStrictEqual(panel.describe().consoleTexts, []);
        assert.deepStrictEqual(
          consoleItems(panel).map(item => item.textContent),
          ['Console was cleared'],
        );
        assert.ok(panel.$('console-errors').hidden && panel.$('console-warnings').hidden, 'no badge once nothing is listed');
      } finally {
        panel.close();
      }
    });

    it('Preserve log posts its state and shows the host\'s; kept lines stay across a "Navigated to" line, else a navigation empties the list', () => {
      const panel = openPanel();
      try {
        const preserve = panel.$('console-preserve-log') as HTMLInputElement;
        preserve.checked = true;
        preserve.dispatchEvent(new panel.window.Event('change') as unknown as Event);
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'consoleControl', control: { action: 'preserveLog', on: true } });
        panel.send({ type: 'state', state: state({ console: { preserveLog: false } }) });
        assert.strictEqual(preserve.checked, false, 'the box shows what the host applies');
        panel.send({ type: 'state', state: state({ console: { preserveLog: true } }) });
        assert.strictEqual(preserve.checked, true);
        panel.send({
          type: 'console',
          rows: [row(1, { text: 'before' }), { seq: 2, marker: 'Navigated to http://127.0.0.1/b', time: 0 }, row(3, { text: 'after' })],
          dropBefore: 0,
        });
        assert.deepStrictEqual(
          consoleItems(panel).map(item => item.querySelector('.text')?.textContent ?? item.textContent),
          ['before', 'Navigated to http://127.0.0.1/b', 'after'],
        );
        // Without Preserve log the host drops every row at a navigation, and says nothing.
        panel.send({ type: 'console', rows: [], dropBefore: 4 });
        assert.deepStrictEqual(consoleItems(panel), []);
        assert.ok(panel.$('console-errors').hidden);
      } finally {
        panel.close();
      }
    });

    it("folds a long message with Show more, shows an error's place and its stack on a click or Enter, unfolds an object level by level", () => {
      const panel = openPanel();
      try {
        const long = `${'word '.repeat(320)}END`;
        const args = [
          { type: 'string' as const, text: 'state' },
          {
            type: 'object' as const,
            className: 'Object',
            props: [
              { name: 'a', value: { type: 'number' as const, text: '1' } },
              { name: 'b', value: { type: 'object' as const, className: 'Object', props: [{ name: 'c', value: { type: 'string' as const, text: 'deep' } }] } },
            ],
          },
        ];
        panel.send({
          type: 'console',
          rows: [
            row(1, { level: 'info', text: long }),
            row(2, {
              text: 'Uncaught Error: boom',
              location: 'http://127.0.0.1:8/app.js:3:9',
              stack: 'at f (http://127.0.0.1:8/app.js:3:9)\nat http://127.0.0.1:8/app.js:5:1',
            }),
            row(3, { level: 'info', text: 'state {a: 1, b: Object}', args }),
          ],
          dropBefore: 0,
        });
        const [longItem, errorItem, objectItem] = consoleItems(panel);

        const text = longItem.querySelector('.text')!;
        assert.ok(!text.textContent!.includes('END') && text.textContent!.length < 600, `folded: ${text.textContent!.length} characters shown`);
        const more = longItem.querySelector('button.show-more') as HTMLButtonElement;
        assert.match(more.textContent ?? '', /^Show more \(\d+ characters\)$/);
        more.click();
        assert.ok(text.textContent!.includes('END'), 'the whole text after Show more');
        assert.strictEqual(more.textContent, 'Show less');

        const location = errorItem.querySelector('.location') as HTMLElement;
        assert.deepStrictEqual([location.textContent, location.title], ['app.js:3:9', 'http://127.0.0.1:8/app.js:3:9']);
        const stack = errorItem.querySelector('.stack') as HTMLElement;
        assert.strictEqual(stack.hidden, true, 'the stack is folded under the message');
        assert.strictEqual(errorItem.tabIndex, 0, 'the row is reached with Tab');
        errorItem.dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }) as unknown as Event);
        assert.strictEqual(stack.hidden, false, 'Enter unfolds it');
        assert.strictEqual(errorItem.getAttribute('aria-expanded'), 'true');
        assert.match(stack.textContent ?? '', /at f \(http:\/\/127\.0\.0\.1:8\/app\.js:3:9\)/);
        errorItem.click();
        assert.strictEqual(stack.hidden, true, 'a click folds it again');

        const unfold = objectItem.querySelector('button.unfold') as HTMLButtonElement;
        assert.strictEqual(objectItem.querySelector('.text')!.textContent, 'state {a: 1, b: {…}}');
        assert.strictEqual(objectItem.querySelector('.props'), null, 'folded at first');
        unfold.click();
        const level = () => [...objectItem.querySelectorAll('.props > li')].map(li => li.textContent);
        assert.deepStrictEqual(level(), ['a: 1', "b: {c: 'deep'}"]);
        (objectItem.querySelector('.props button.unfold') as HTMLButtonElement).click();
        assert.deepStrictEqual(
          [...objectItem.querySelectorAll('.props .props > li')].map(li => li.textContent),
          ["c: 'deep'"],
          'the next level',
        );
        unfold.click();
        assert.strictEqual((objectItem.querySelector('.props') as HTMLElement).hidden, true, 'folds again');
        assert.match(panel.$('console-prompt-note').textContent ?? '', /Typing JavaScript here.*later version.*ask chat/);
      } finally {
        panel.close();
      }
    });

    it('stays at the newest message while the person is at the end, and where they are once they scrolled up', () => {
      const panel = openPanel();
      try {
        const list = panel.$('console-list');
        // happy-dom lays nothing out: the list's sizes are those a 200 px view of 20 px rows would have.
        let rows = 0;
        Object.defineProperty(list, 'scrollHeight', { get: () => rows * 20 });
        Object.defineProperty(list, 'clientHeight', { get: () => 200 });
        const add = (from: number, count: number) => {
          panel.send({ type: 'console', rows: Array.from({ length: count }, (_, i) => row(from + i, { level: 'info' })), dropBefore: 0 });
          rows += count;
          panel.describe();
        };
        add(1, 30);
        assert.strictEqual(list.scrollTop, 600, 'at the end');
        add(31, 10);
        assert.strictEqual(list.scrollTop, 800, 'new messages keep it at the end');
        list.scrollTop = 100;
        list.dispatchEvent(new panel.window.Event('scroll') as unknown as Event);
        add(41, 10);
        assert.strictEqual(list.scrollTop, 100, 'scrolled up, it stays');
        list.scrollTop = 1000 - 200;
        list.dispatchEvent(new panel.window.Event('scroll') as unknown as Event);
        add(51, 5);
        assert.strictEqual(list.scrollTop, 1100, 'back at the end, it follows again');
      } finally {
        panel.close();
      }
    });
  });

  it('updates a request in place when its status arrives, drops rows the host dropped, and keeps restart markers', () => {
    const panel = openPanel();
    try {
      const pending: NetworkRow = { seq: 1, id: 'r1', method: 'GET', url: 'http://127.0.0.1/api', resourceType: 'fetch', status: 0, time: 0 };
      panel.send({ type: 'network', rows: [pending], dropBefore: 0 });
      const status = () => {
        panel.describe();
        return panel.window.document.querySelector('#network-list .request .status')?.textContent;
      };
      assert.strictEqual(status(), '…');
      panel.send({ type: 'network', rows: [{ ...pending, status: 404, durationMs: 12 }], dropBefore: 0 });
      assert.strictEqual(status(), '404');
      assert.strictEqual(panel.window.document.querySelectorAll('#network-list .request').length, 1, 'updated in place');
      assert.ok(panel.window.document.querySelector('#network-list .request')!.classList.contains('failed'));
      const marker: MarkerRow = { seq: 2, marker: 'Browser restarted (server #2): entries of the previous browser were cleared', time: 0 };
      panel.send({ type: 'network', rows: [marker], dropBefore: 2 });
      assert.deepStrictEqual(panel.describe().networkUrls, []);
      assert.match(panel.window.document.querySelector('#network-list .marker')!.textContent ?? '', /Browser restarted/);
    } finally {
      panel.close();
    }
  });

  it('shows each call with its door and outcome, and posts toolbar commands', () => {
    const panel = openPanel();
    try {
      panel.send({
        type: 'activity',
        rows: [{ seq: 1, id: 1, title: 'Opening http://127.0.0.1/', tool: 'browser_navigate', door: 'mcp', startedAt: 0, durationMs: 250, outcome: 'ok' }],
        dropBefore: 0,
      });
      assert.deepStrictEqual(panel.describe().activityTitles, ['Opening http://127.0.0.1/']);
      assert.strictEqual(panel.window.document.querySelector('#activity-list .door')!.textContent, 'MCP');
      for (const [id, command] of [
        ['restart', 'restart'],
        ['pause', 'togglePause'],
        ['save', 'saveScreenshot'],
      ]) {
        (panel.$(id) as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'command', command });
      }
    } finally {
      panel.close();
    }
  });

  it("draws a trace's card (vitals by rating; insights failing first, each state marked, what to change in sight, Learn more) and an audit's (each rule once with its docs, rows that outline their element), each with Add to Chat by call id", () => {
    const panel = openPanel();
    try {
      const insight = (name: string, title: string, state: 'fail' | 'warning' | 'informative', extra: object = {}) => ({
        name,
        title,
        state,
        items: [],
        ...extra,
      });
      const trace = {
        url: 'http://127.0.0.1/perf/hero',
        during: 'reload' as const,
        actionMs: 400,
        file: 'trace-1.json',
        lcp: { ms: 4200, rating: 'poor' as const, element: { description: 'img "Hero"', ref: 'e3' } },
        cls: { value: 0.12, rating: 'needs-improvement' as const, culprits: [] },
        emulation: { throttling: 'none' as const, cacheDisabled: false, cpuSlowdown: 4 },
        // In the engine's order, not DevTools': the card puts failing first and the informative last.
        insights: [
          insight('LCPBreakdown', 'LCP breakdown', 'informative'),
          insight('ThirdParties', 'Third parties', 'warning', { docs: 'javascript:alert(1)' }),
          insight('RenderBlocking', 'Render-blocking requests', 'fail', {
            savingsMs: 300,
            items: ['http://127.0.0.1/a.css', 'http://127.0.0.1/b.css', 'http://127.0.0.1/c.js', 'http://127.0.0.1/d.js'],
            docs: 'https://developer.chrome.com/docs/performance/insights/render-blocking',
          }),
        ],
      };
      const node = (description: string, ref: string, fix: string, box?: { x: number; y: number; width: number; height: number }) => ({
        description,
        ref,
        fix,
        ...(box ? { box } : {}),
      });
      const audit = {
        url: 'http://127.0.0.1/a11y',
        engine: 'axe-core 4',
        passes: 20,
        incomplete: 0,
        violations: [
          {
            rule: 'label',
            impact: 'critical' as const,
            help: 'Form elements must have labels',
            helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/label',
            more: 3,
            nodes: [
              node('<img src=x onerror=alert(1)>', 'e5', 'Fix any of the following:\n  Element has no label', { x: 10, y: 20, width: 100, height: 30 }),
              node('textbox "Email"', 'e6', 'Fix any of the following:\n  Element has no label'),
            ],
          },
          {
            rule: 'image-alt',
            impact: 'minor' as const,
            help: 'Images must have alternative text',
            helpUrl: 'command:workbench.action.terminal.new',
            more: 0,
            nodes: [node('img', 'e7', 'Add an alt attribute'), node('img', 'e8', 'Set role="presentation"')],
          },
        ],
      };
      const row = (id: number, card: DevtoolsCard) => ({
        seq: id,
        id,
        title: `call ${id}`,
        tool: 'bridge_performance_trace',
        door: 'tool' as const,
        startedAt: 0,
        durationMs: 10,
        outcome: 'ok' as const,
        card,
      });
      panel.send({ type: 'activity', rows: [row(1, { kind: 'trace', trace }), row(2, { kind: 'audit', audit })], dropBefore: 0 });
      const cards = panel.describe().activityCards;
      assert.strictEqual(
        cards[0],
        [
          'LCP4200 ms (poor)',
          'CLS0.12 (needs-improvement)',
          'INP— (none)',
          'LCP element: img "Hero" [e3]',
          'While: CPU 4× slower',
          'Render-blocking requests · failing · may save 300 ms',
          `What to change: ${insightAdvice('RenderBlocking')}`,
          'http://127.0.0.1/a.css',
          'http://127.0.0.1/b.css',
          'http://127.0.0.1/c.js',
          'and 1 more',
          'Third parties · worth a look',
          `What to change: ${insightAdvice('ThirdParties')}`,
          'LCP breakdown · informative',
          `What to change: ${insightAdvice('LCPBreakdown')}`,
        ].join('\n'),
      );
      const states = [...panel.window.document.querySelectorAll<HTMLElement>('#activity-list .trace-card li.insight')].map(li => li.className);
      assert.deepStrictEqual(states, ['insight fail', 'insight warning', 'insight informative'], 'each styled by its state');
      assert.strictEqual(
        cards[1],
        [
          '2 rules violated on 7 elements · 20 passed',
          'criticalForm elements must have labels (label)',
          'What to change: Element has no label',
          '<img src=x onerror=alert(1)> [e5]',
          'textbox "Email" [e6]',
          'and 3 more',
          'minorImages must have alternative text (image-alt)',
          'img [e7] — Add an alt attribute',
          'img [e8] — Set role="presentation"',
        ].join('\n'),
        'the rule and a fix its elements share said once; a fix of its own beside its element',
      );
      assert.strictEqual(panel.window.document.querySelectorAll('#activity-list img').length, 0, "a page's text is text, never markup");
      const buttons = [...panel.window.document.querySelectorAll<HTMLButtonElement>('#activity-list .card button')];
      assert.deepStrictEqual(
        buttons.map(b => b.textContent),
        ['Learn more', 'Open trace', 'Add to Chat', 'Rule docs', 'Add to Chat'],
        'a link only where the finding has an https page (not javascript: or command:)',
      );
      assert.strictEqual(buttons[0].getAttribute('aria-label'), 'Learn more: Render-blocking requests');
      buttons[0].click();
      assert.deepStrictEqual(panel.posted.at(-1), {
        type: 'devtoolsDocs',
        callId: 1,
        url: 'https://developer.chrome.com/docs/performance/insights/render-blocking',
      });
      buttons[1].click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'devtoolsCard', callId: 1, action: 'openTrace' });
      buttons[3].click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'devtoolsDocs', callId: 2, url: 'https://dequeuniversity.com/rules/axe/4.10/label' });
      buttons[4].click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'devtoolsCard', callId: 2, action: 'addToChat' });
      const finding = panel.window.document.querySelector<HTMLElement>('#activity-list .audit-card li.finding')!;
      assert.strictEqual(finding.dataset.box, '10,20,100,30');
    } finally {
      panel.close();
    }
  });

  it('is a timeline: a click or the arrow keys ask for a step, its banner and console show, Live and Esc go back, Continue from here posts the step', async () => {
    const panel = openPanel();
    try {
      const row = (id: number) => ({
        seq: id,
        id,
        title: `Step call ${id}`,
        tool: 'browser_click',
        door: 'tool' as const,
        startedAt: 0,
        durationMs: 10,
        outcome: 'ok' as const,
      });
      panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/live', 'Live page', true)] }) });
      panel.send({ type: 'activity', rows: [row(1), row(2), row(3)], dropBefore: 0 });
      panel.describe();
      const items = [...panel.window.document.querySelectorAll<HTMLElement>('#activity-list li.call')];
      items[1].click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'showStep', callId: 2 });
      const list = panel.$('activity-list');
      list.dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }) as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'showStep', callId: 3 });
      list.dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true }) as unknown as Event);
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'showStep', callId: 2 });
      assert.match(panel.$('export-test').querySelector('.label')!.textContent ?? '', /^Export as test$/, 'one row shown is not a range to export');
      panel.send({
        type: 'stepView',
        view: {
          index: 2,
          total: 3,
          at: Date.UTC(2026, 11, 1, 14, 2, 11),
          tool: 'browser_click',
          title: 'Clicking “Send”',
          door: 'tool',
          url: 'http://127.0.0.1/form',
          pageTitle: 'Visitor Form',
          console: [{ seq: 4, level: 'error', text: 'boom', time: 0 }],
          network: [],
          restorable: true,
          dropped: 0,
        },
      });
      const report = panel.describe();
      assert.match(report.stepBanner, /^Step 2 of 3, \d\d:\d\d:\d\d: Clicking “Send” \(no picture was drawn\)$/);
      assert.deepStrictEqual(report.stepConsole, ['error: boom']);
      assert.strictEqual((panel.$('address') as HTMLInputElement).value, 'http://127.0.0.1/form', "the address is the step's, as its picture is");
      await new Promise(resolve => setTimeout(resolve, 50));
      assert.deepStrictEqual(panel.posted.filter(m => m.type === 'stepDrawn').at(-1), { type: 'stepDrawn', index: 2 }, 'says when the step is drawn');
      (panel.$('step-restore') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'restoreStep', index: 2 });
      (panel.$('step-live') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'showStep', callId: null });
      panel.send({ type: 'stepView', view: null });
      assert.strictEqual(panel.describe().stepBanner, '', 'live again');
      assert.strictEqual((panel.$('address') as HTMLInputElement).value, 'http://127.0.0.1/live', 'and so is the address');
      assert.strictEqual(items[1].getAttribute('aria-selected'), 'false', 'and the selection went with it');
      (panel.$('save-trace') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'saveTrace', callIds: [] }, 'every step');
      items[0].click();
      items[2].dispatchEvent(new panel.window.MouseEvent('click', { bubbles: true, shiftKey: true }) as unknown as Event);
      (panel.$('save-trace') as HTMLButtonElement).click();
      assert.deepStrictEqual(panel.posted.at(-1), { type: 'saveTrace', callIds: [1, 2, 3] }, 'a range selected with Shift+click');
    } finally {
      panel.close();
    }
  });

  describe('the person at the controls', () => {
    // A 1x1 JPEG, enough for the panel to draw a picture.
    const JPEG =
      '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=';

    it('takes control and hands it back, saying so on the picture', () => {
      const panel = openPanel();
      try {
        panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true)] }) });
        (panel.$('control') as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'command', command: 'takeControl' });
        panel.send({ type: 'state', state: state({ driver: 'person', tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true)] }) });
        assert.strictEqual(panel.$('control').textContent?.trim(), 'Hand back');
        assert.strictEqual(panel.$('driving').hidden, false);
        (panel.$('control') as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'command', command: 'handBack' });
      } finally {
        panel.close();
      }
    });

    it('navigates from the address bar and the buttons, and switches, opens and closes tabs', () => {
      const panel = openPanel();
      try {
        panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true), tab('p2', 'http://127.0.0.1/b', 'Beta', false)] }) });
        const address = panel.$('address') as HTMLInputElement;
        assert.strictEqual(address.value, 'http://127.0.0.1/a');
        address.value = 'localhost:3000/x';
        address.dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'Enter' }) as unknown as Event);
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'navigate', url: 'http://localhost:3000/x' } });
        for (const action of ['back', 'forward', 'reload', 'stop']) {
          (panel.$(action) as HTMLButtonElement).click();
          assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action } });
        }
        const chips = [...panel.$('tabs').children] as HTMLElement[];
        chips[1].click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'selectTab', tabId: 'p2' } });
        (chips[1].querySelector('.close') as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'closeTab', tabId: 'p2' } });
        (chips[2] as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pageAction', pageAction: { action: 'newTab' } });
      } finally {
        panel.close();
      }
    });

    it('sends a click on the picture as a position on the page, in fractions of it, and keys while it has focus', async () => {
      const panel = openPanel();
      try {
        panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true)] }) });
        panel.send({ type: 'frame', seq: 1, data: JPEG, width: 640, height: 360, producedAt: 0 });
        await new Promise(resolve => setTimeout(resolve, 100));
        const frame = panel.$('frame');
        assert.strictEqual(frame.hidden, false, 'the picture is drawn');
        // The DOM for Node does no layout: give the picture the box a panel 320 px wide would.
        frame.getBoundingClientRect = () =>
          ({ left: 10, top: 20, width: 320, height: 180, right: 330, bottom: 200, x: 10, y: 20, toJSON: () => ({}) }) as DOMRect;
        const mouse = (type: string, clientX: number, clientY: number, button = 0) =>
          frame.dispatchEvent(new panel.window.MouseEvent(type, { clientX, clientY, button, detail: 1, bubbles: true }) as unknown as Event);
        mouse('mousedown', 90, 65);
        mouse('mouseup', 90, 65);
        const inputs = panel.posted.filter(m => m.type === 'input').map(m => (m as { event: unknown }).event);
        assert.deepStrictEqual(inputs, [
          { kind: 'mouse', action: 'down', x: 0.25, y: 0.25, button: 'left', clickCount: 1 },
          { kind: 'mouse', action: 'up', x: 0.25, y: 0.25, button: 'left', clickCount: 1 },
        ]);
        const keys = panel.$('keys');
        assert.strictEqual(panel.window.document.activeElement, keys as unknown as Element, 'a click on the picture gives the page the keyboard');
        keys.dispatchEvent(new panel.window.KeyboardEvent('keydown', { key: 'a', bubbles: true }) as unknown as Event);
        assert.deepStrictEqual((panel.posted.at(-1) as { event: unknown }).event, { kind: 'key', action: 'down', key: 'a', modifiers: [] });
        mouse('mousedown', 330, 200, 2);
        assert.deepStrictEqual((panel.posted.at(-1) as { event: unknown }).event, {
          kind: 'mouse',
          action: 'down',
          x: 1,
          y: 1,
          button: 'right',
          clickCount: 1,
        });

        // Add to Chat: in pick mode a click picks the element instead of reaching the page.
        (panel.$('pick') as HTMLButtonElement).click();
        assert.strictEqual(panel.$('picking').hidden, false);
        const inputsBefore = panel.posted.filter(m => m.type === 'input').length;
        mouse('mousedown', 170, 110);
        mouse('mouseup', 170, 110);
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pick', pick: { phase: 'choose', x: 0.5, y: 0.5 } });
        assert.strictEqual(panel.posted.filter(m => m.type === 'input').length, inputsBefore, 'the pick click never reached the page');
        assert.strictEqual(panel.$('picking').hidden, true, 'one pick per press of the button');
        // A drag in pick mode takes a region's picture.
        (panel.$('pick') as HTMLButtonElement).click();
        mouse('mousedown', 10, 20);
        mouse('mousemove', 90, 65);
        mouse('mouseup', 90, 65);
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'pick', pick: { phase: 'region', x0: 0, y0: 0, x1: 0.25, y1: 0.25 } });
        assert.strictEqual(panel.posted.filter(m => m.type === 'input').length, inputsBefore, 'the drag never reached the page');
        (panel.$('console-to-chat') as HTMLButtonElement).click();
        assert.deepStrictEqual(panel.posted.at(-1), { type: 'command', command: 'addConsoleErrorsToChat' });
      } finally {
        panel.close();
      }
    });

    it("is no keyboard trap: the picture sends typing and editing to the page, leaves VS Code's keys to VS Code, and lets go on Shift+Esc", async () => {
      const panel = openPanel();
      try {
        panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true)] }) });
        panel.send({ type: 'frame', seq: 1, data: JPEG, width: 640, height: 360, producedAt: 0 });
        await new Promise(resolve => setTimeout(resolve, 100));
        const keys = panel.$('keys');
        keys.focus();
        // VS Code's webview host listens on the window, bubbling, and forwards what reaches it to the workbench.
        const forwarded: string[] = [];
        panel.window.document.defaultView!.addEventListener('keydown', event => forwarded.push(event.key));
        const sent = () => panel.posted.filter(m => m.type === 'input').map(m => (m as { event: { action: string; key: string } }).event);
        const press = (type: 'keydown' | 'keyup', init: KeyboardEventInit) => {
          const event = new panel.window.KeyboardEvent(type, { bubbles: true, cancelable: true, ...init }) as unknown as KeyboardEvent;
          keys.dispatchEvent(event);
          return event.defaultPrevented;
        };
        assert.strictEqual(press('keydown', { key: 'a', code: 'KeyA' }), true, 'a character is the page’s');
        assert.strictEqual(press('keyup', { key: 'a', code: 'KeyA' }), true);
        assert.strictEqual(press('keydown', { key: 'Tab', code: 'Tab' }), true, 'Tab moves in the page');
        press('keyup', { key: 'Tab', code: 'Tab' });
        assert.deepStrictEqual(forwarded, [], 'none of these reached VS Code');
        assert.deepStrictEqual(sent().slice(-4), [
          { kind: 'key', action: 'down', key: 'a', modifiers: [] },
          { kind: 'key', action: 'up', key: 'a', modifiers: [] },
          { kind: 'key', action: 'down', key: 'Tab', modifiers: [] },
          { kind: 'key', action: 'up', key: 'Tab', modifiers: [] },
        ]);

        const before = sent().length;
        assert.strictEqual(press('keydown', { key: 'F1', code: 'F1' }), false, 'F1 is left alone');
        assert.strictEqual(press('keyup', { key: 'F1', code: 'F1' }), false);
        // Ctrl+Shift+P: the modifiers go down to the page (a Shift+click needs them), the P to VS Code.
        press('keydown', { key: 'Control', code: 'ControlLeft', ctrlKey: true });
        press('keydown', { key: 'Shift', code: 'ShiftLeft', ctrlKey: true, shiftKey: true });
        assert.strictEqual(press('keydown', { key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true }), false);
        assert.strictEqual(press('keyup', { key: 'P', code: 'KeyP', ctrlKey: true, shiftKey: true }), false, 'its keyup as its keydown');
        press('keyup', { key: 'Shift', code: 'ShiftLeft', ctrlKey: true });
        press('keyup', { key: 'Control', code: 'ControlLeft' });
        assert.deepStrictEqual(forwarded, ['F1', 'P'], 'VS Code heard F1 and Ctrl+Shift+P');
        assert.deepStrictEqual(
          sent()
            .slice(before)
            .map(e => `${e.action} ${e.key}`),
          ['down Control', 'down Shift', 'up Shift', 'up Control'],
          'the page got no F1 nor P, and each keyup it got follows its keydown',
        );

        // Shift+Esc: the focus leaves for the next control after the picture; the held Shift comes up for the page.
        const leaving = sent().length;
        press('keydown', { key: 'Shift', code: 'ShiftLeft', shiftKey: true });
        assert.strictEqual(press('keydown', { key: 'Escape', code: 'Escape', shiftKey: true }), true);
        assert.strictEqual(panel.window.document.activeElement, panel.$('tab-console'), 'the first control after the picture');
        assert.deepStrictEqual(
          sent()
            .slice(leaving)
            .map(e => `${e.action} ${e.key}`),
          ['down Shift', 'up Shift'],
          'the page never saw the Escape, and was told Shift came up',
        );
        assert.deepStrictEqual(forwarded, ['F1', 'P']);
        assert.match(keys.getAttribute('aria-label') ?? '', /Shift\+Esc leaves the picture; F1 and VS Code's shortcuts go to VS Code/);
      } finally {
        panel.close();
      }
    });
  });

  it('names every control for a screen reader: an aria-label, aria-labelledby or a label around it', () => {
    const panel = openPanel();
    try {
      // Two tabs, so the header's tab strip has its chips too.
      panel.send({ type: 'state', state: state({ tabs: [tab('p1', 'http://127.0.0.1/a', 'Alpha', true), tab('p2', 'http://127.0.0.1/b', 'Beta', false)] }) });
      const document = panel.window.document;
      const named = (control: Element) =>
        !!control.getAttribute('aria-label')?.trim() ||
        (control.getAttribute('aria-labelledby') ?? '').split(/\s+/).some(id => !!document.getElementById(id)?.textContent?.trim()) ||
        !!control.closest('label')?.textContent?.trim() ||
        (!!control.id && !!document.querySelector(`label[for="${control.id}"]`)?.textContent?.trim());
      const controls = [...document.querySelectorAll('button, input, select, textarea, [tabindex]:not(li)')];
      assert.ok(controls.length > 60, `the panel's controls: ${controls.length}`);
      assert.deepStrictEqual(
        controls.filter(control => !named(control)).map(control => control.id || control.outerHTML.slice(0, 80)),
        [],
        'controls without an accessible name',
      );
      assert.ok(
        ['bar', 'tabs', 'more-menu'].every(id => document.getElementById(id)!.querySelectorAll('button, input, select').length > 0),
        'the header, its tab strip and its menu were checked',
      );
    } finally {
      panel.close();
    }
  });
});
