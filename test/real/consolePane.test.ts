/**
 * The panel's Console on a real @playwright/mcp child and Chromium, as a DevTools user reads it: an uncaught
 * error with its stack and file:line, a rejection named "Uncaught (in promise)", a logged object's preview
 * that unfolds, and the list started again at a reload of the tab (kept with Preserve log).
 */
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import type { ConsoleRow } from '../../src/protocol/panelMessages';
import { isMarker } from '../../src/protocol/panelRows';
import { makeRealBridge, waitFor } from '../support/realBridge';

const PAGE = (n: string) =>
  `<!doctype html><title>Console ${n}</title><h1>Console</h1><script src="/app.js"></script><script>console.log('loaded ${n}')</script>`;
const APP = `function explode() {
  throw new Error('boom');
}
console.log('state', { a: 1, b: { c: 2 } });
function save() {
  console.error('save failed', 42);
}
save();
console.log('%s is %d years, %cstyled', 'Ada', 36.5, 'color: red', 'rest');
setTimeout(explode, 0);
Promise.reject(new Error('nope'));
`;

describe('the Console pane on a real child and Chromium', function () {
  this.timeout(120000);
  let server: http.Server;
  let base = '';
  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/app.js') {
        res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
        return void res.end(APP);
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(url.searchParams.get('n') ?? '0'));
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>(resolve => server.close(() => resolve())));

  it('shows errors with their place and stack, names a rejection, unfolds an object, and starts again at a reload unless preserved', async () => {
    const bridge = makeRealBridge();
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    const rows = () => store.snapshot().console.filter((row): row is ConsoleRow => !isMarker(row));
    const texts = () => store.snapshot().console.map(row => (isMarker(row) ? `[${row.marker}]` : row.text));
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${base}/?n=1` });
      await waitFor(
        () => rows().filter(r => r.level === 'error').length >= 2 && texts().includes('loaded 1'),
        10000,
        () => `the errors: ${JSON.stringify(texts())}`,
      );

      const thrown = rows().find(r => r.text === 'Uncaught Error: boom');
      assert.ok(thrown, `an uncaught error: ${JSON.stringify(texts())}`);
      assert.match(thrown.location ?? '', /\/app\.js:2:9$/, 'its file:line:column');
      assert.match(thrown.stack ?? '', /at explode \(http:\/\/127\.0\.0\.1:\d+\/app\.js:2:9\)/, 'its stack');

      const rejected = rows().find(r => /nope/.test(r.text));
      assert.strictEqual(rejected?.text, 'Uncaught (in promise) Error: nope');
      assert.match(rejected?.location ?? '', /\/app\.js:11:16$/);

      // console.error with its stack, as DevTools folds it under the message (Playwright's message has none).
      const failed = rows().find(r => r.text.startsWith('save failed'));
      assert.strictEqual(failed?.level, 'error');
      assert.match(failed?.location ?? '', /\/app\.js:6:11$/, JSON.stringify(failed));
      assert.match(failed?.stack ?? '', /^at save \(http:\/\/127\.0\.0\.1:\d+\/app\.js:6:11\)\nat \(anonymous\) \(.*\/app\.js:8:1\)/, JSON.stringify(failed));
      // Format specifiers filled, the style dropped, the value left over written after.
      assert.ok(texts().includes('Ada is 36 years, styled rest'), JSON.stringify(texts()));

      const logged = rows().find(r => r.text.startsWith('state'));
      const object = logged?.args?.[1];
      assert.deepStrictEqual(
        object?.props?.map(p => p.name),
        ['a', 'b'],
        `the object's properties: ${JSON.stringify(logged)}`,
      );
      assert.deepStrictEqual(
        object?.props?.[1].value.props?.map(p => [p.name, p.value.text]),
        [['c', '2']],
        'the next level',
      );

      // A reload of the tab: the list starts again (DevTools' default), the badge with it.
      await bridge.supervisor.callTool('browser_navigate', { url: `${base}/?n=2` });
      await waitFor(() => texts().includes('loaded 2'), 10000, 'the second page');
      assert.ok(!texts().includes('loaded 1'), `the first page's lines are gone: ${JSON.stringify(texts())}`);
      assert.strictEqual(rows().filter(r => r.text === 'Uncaught Error: boom').length <= 1, true, 'no error counted twice');

      // Preserve log: kept, with the line DevTools writes.
      store.setPreserveConsole(true);
      await bridge.supervisor.callTool('browser_navigate', { url: `${base}/?n=3` });
      await waitFor(() => texts().includes('loaded 3'), 10000, 'the third page');
      const all = texts();
      assert.ok(all.includes('loaded 2') && all.includes(`[Navigated to ${base}/?n=3]`), JSON.stringify(all));
      assert.ok(all.indexOf('loaded 2') < all.indexOf(`[Navigated to ${base}/?n=3]`));
    } finally {
      store.dispose();
      await bridge.dispose();
    }
  });
});
