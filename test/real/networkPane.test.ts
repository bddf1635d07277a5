/**
 * The Network pane at DevTools' level, through the supervisor as the panel asks it (real child and
 * Chromium, pages served by the fixture): Save all as HAR validated and replayed by Playwright's own
 * routeFromHAR with the server gone, a secret masked in it and credentials left out; throttling and
 * Disable cache applied by the browser itself; each request's initiator; one duration in the list
 * and in its Timing; the page's own navigation marked so the list can start again there.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, RealBridge, textOf, waitFor } from '../support/realBridge';
import { checkHar } from '../support/harRoundTrip';
import type { NetworkEntry } from '../../src/protocol/childMessages';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';

describe("the Network pane's controls and HAR (real child and Chromium)", function () {
  this.timeout(120000);
  let fixture: FixtureServer;
  let bridge: RealBridge | undefined;
  let scratch: string;
  beforeEach(async () => {
    fixture = new FixtureServer();
    await fixture.start();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-har-'));
  });
  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
    await fixture.stop().catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** Every request entry the panel is sent, by path, as last sent. */
  function listen(real: RealBridge): Map<string, NetworkEntry> {
    const listed = new Map<string, NetworkEntry>();
    real.supervisor.onObservation(event => {
      if (event.kind === 'network') listed.set(new URL(event.entry.url).pathname, event.entry);
    });
    return listed;
  }
  /** What the panel's list holds now, as Save all as HAR sends it: the store's request ids. */
  const idsOf = (store: LiveViewStore) => store.snapshot().network.flatMap(row => ('id' in row ? [row.id] : []));
  const finished = (listed: Map<string, NetworkEntry>, ...paths: string[]) =>
    waitFor(
      () => paths.every(p => listed.get(p)?.sizeBytes !== undefined || listed.get(p)?.failure !== undefined),
      15000,
      () => `requests to finish: ${JSON.stringify([...listed.values()].map(e => [e.url, e.status, e.durationMs]))}`,
    );

  it("Save all as HAR: HAR 1.2 that a validator accepts and Playwright's routeFromHAR replays with the server gone; a secret masked, credentials left out", async () => {
    const secret = 'Har-s3cret-9271';
    bridge = makeRealBridge({}, {}, { secrets: { LAB_TOKEN: { value: secret, origins: [fixture.url] } } });
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    const listed = listen(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab?name=${secret}` });
    await finished(listed, '/api/echo', '/api/big', '/pixel.png');
    const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store) });
    assert.ok(built.entries >= 4, `the document, the POST, the big JSON and the image: ${built.entries}`);
    assert.ok(!built.har.includes(secret), "the secret's value is nowhere in the file");
    assert.match(built.har, /<secret>LAB_TOKEN<\/secret>/, 'it is there as its placeholder');
    const har = JSON.parse(built.har) as {
      log: { entries: { request: { url: string; headers: { name: string }[] }; response: { headers: { name: string }[] } }[] };
    };
    const headerNames = har.log.entries.flatMap(e => [...e.request.headers, ...e.response.headers].map(h => h.name.toLowerCase()));
    assert.ok(!headerNames.some(name => ['cookie', 'set-cookie', 'authorization'].includes(name)), 'no cookie or authorization header');

    // The replay asks for the page without the secret in it: save a HAR of that page too, as the person would.
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab` });
    await waitFor(() => [...listed.values()].filter(e => e.url.endsWith('/api/echo')).length > 0, 15000, 'the lab again');
    await new Promise(resolve => setTimeout(resolve, 1000));
    const file = path.join(scratch, 'lab.har');
    // Written by the child itself, as the command does for a file on this machine; only what the list holds
    // now (the navigation started it again: the first visit, with the secret in its address, is not in it).
    const written = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store), file });
    assert.strictEqual(written.har, '', 'the HAR went to the file, not over the pipe');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    assert.ok(
      saved.log.entries.every(e => !e.request.url.includes('name=')),
      `only the list's requests: ${saved.log.entries.map(e => e.request.url).join(', ')}`,
    );
    store.dispose();
    const url = `${fixture.url}/network-lab`;
    await fixture.stop();
    const check = await checkHar(file, url, /echo answered/);
    assert.ok(check.valid, `HAR 1.2 by har-validator: ${check.problems}`);
    assert.match(check.replayed?.text ?? '', /Network lab/, `the page replayed from the file alone: ${check.problems}`);
    assert.ok(
      check.replayed!.console.some(line => line === 'echo answered Ada'),
      `the POST answered from the file: ${JSON.stringify(check.replayed!.console)}`,
    );
  });

  it("with Preserve log on, an earlier page's requests keep their bodies in Save all as HAR and in their details, though the browser dropped them when the next page came", async () => {
    bridge = makeRealBridge();
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    try {
      store.setPreserveLog(true);
      const listed = listen(bridge);
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab` });
      await finished(listed, '/api/echo', '/api/big');
      const earlier = listed.get('/api/big')!;
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/form` });
      await finished(listed, '/form');
      const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store) });
      const har = JSON.parse(built.har) as { log: { entries: { request: { url: string }; response: { content: { text?: string; comment?: string } } }[] } };
      const big = har.log.entries.find(e => e.request.url.endsWith('/api/big'));
      assert.ok(big, `the earlier page's request is listed: ${har.log.entries.map(e => e.request.url).join(', ')}`);
      assert.ok((big.response.content.text ?? '').length > 1000, `its body is in the HAR: ${JSON.stringify(big.response.content).slice(0, 200)}`);
      const echo = har.log.entries.find(e => e.request.url.endsWith('/api/echo'));
      assert.match(echo?.response.content.text ?? '', /Ada/, "the earlier page's POST has its answer");
      const detail = await bridge.supervisor.ask('requestDetail', { id: earlier.id, bodyChars: 200 });
      assert.ok(['json', 'text'].includes(detail.responseBody.kind), `its details have the body: ${JSON.stringify(detail.responseBody).slice(0, 200)}`);
    } finally {
      store.dispose();
    }
  });

  it('attacked by a page whose small compressed image decodes to 64 MB, with Preserve log on: its body is never read (the browser counts only what came over the wire), and the HAR says why it was not kept', async () => {
    bridge = makeRealBridge();
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    try {
      store.setPreserveLog(true);
      const listed = listen(bridge);
      // The child before the page: what reading the body would add shows against this.
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      const memory = await bridge.supervisor.ask('memory', {});
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/bomb-lab` });
      await finished(listed, '/bomb.png');
      const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store) });
      const har = JSON.parse(built.har) as { log: { entries: { request: { url: string }; response: { content: { text?: string; comment?: string } } }[] } };
      const bomb = har.log.entries.find(e => e.request.url.endsWith('/bomb.png'));
      assert.match(
        bomb?.response.content.comment ?? '',
        /^Body not kept: compressed, and nothing bounds what it decodes to/,
        JSON.stringify(bomb?.response.content),
      );
      const after = await bridge.supervisor.ask('memory', {});
      const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
      assert.ok(mb(after.rssBytes - memory.rssBytes) < 40, `the child read none of it: RSS ${mb(memory.rssBytes)} MB, then ${mb(after.rssBytes)} MB`);
    } finally {
      store.dispose();
    }
  });

  it('a HAR masks a secret however the server spelled it, and never waits on a request that does not end', async () => {
    const secret = 'tok+en<&>x-7731';
    bridge = makeRealBridge({}, {}, { secrets: { LAB_TOKEN: { value: secret, origins: [fixture.url] } } });
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    const listed = listen(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/har-lab?v=${encodeURIComponent(secret)}` });
    await finished(listed, '/spelled/go-json', '/spelled/untyped', '/spelled/utf16');
    await waitFor(() => listed.has('/never'), 5000, 'the request that never ends to be listed');
    const started = Date.now();
    const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store) });
    assert.ok(Date.now() - started < 20000, 'the request that never ends does not hold the HAR');
    const har = JSON.parse(built.har) as {
      log: { entries: { request: { url: string }; response: { content: { text?: string; encoding?: string; comment?: string } } }[] };
    };
    const bodies = har.log.entries.map(e =>
      e.response.content.encoding === 'base64' ? Buffer.from(e.response.content.text ?? '', 'base64').toString('latin1') : (e.response.content.text ?? ''),
    );
    const spellings = [
      secret,
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      secret.replace(/[<>&]/g, c => `\\u00${c.charCodeAt(0).toString(16)}`),
    ];
    for (const body of [...bodies, built.har])
      for (const spelled of spellings) assert.ok(!body.includes(spelled), `no body spells the secret (${spelled}): ${body.slice(0, 200)}`);
    for (const path of ['/spelled/go-json', '/spelled/untyped', '/spelled/utf16']) {
      const entry = har.log.entries.find(e => e.request.url.includes(path))!;
      assert.match(
        entry.response.content.text ?? '',
        /<secret>LAB_TOKEN<\/secret>/,
        `${path}: the body is kept, with the secret as its placeholder: ${JSON.stringify(entry.response.content)}`,
      );
    }
    assert.match(har.log.entries.find(e => e.request.url.endsWith('/never'))!.response.content.comment ?? '', /Still loading/);
    store.dispose();
  });

  it("attacked by a page that posts 16 bodies of 4 MB: Save as HAR counts request bodies against its budget as it counts responses', and says how many it left out", async () => {
    bridge = makeRealBridge();
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/clean` });
    const posted = await bridge.supervisor.callTool('browser_evaluate', {
      function: `async () => {
      const body = 'p'.repeat(4 * 1024 * 1024);
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => fetch('/net/sink?n=' + i, { method: 'POST', body }).then(r => r.json())));
      return 'received ' + answers.filter(a => a.length === body.length).length;
    }`,
    });
    assert.match(textOf(posted), /received 16/, textOf(posted));
    const sinks = () => store.snapshot().network.filter(row => 'url' in row && row.url.includes('/net/sink') && row.sizeBytes !== undefined);
    await waitFor(
      () => sinks().length === 16,
      30000,
      () => `the 16 posts listed as finished: ${sinks().length}`,
    );
    const file = path.join(scratch, 'posts.har');
    const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids: idsOf(store), file });
    const size = fs.statSync(file).size;
    // The bridge keeps 20 MB of bodies in one file (harExport.ts); the rest of an entry is a few hundred bytes.
    assert.ok(
      size < 21 * 1024 * 1024,
      `the HAR stays within the bodies' budget: ${(size / 1024 / 1024).toFixed(1)} MB with omittedBodies ${built.omittedBodies}`,
    );
    const har = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      log: { entries: { request: { url: string; bodySize: number; postData?: { text: string; comment?: string } } }[] };
    };
    const posts = har.log.entries.filter(entry => entry.request.url.includes('/net/sink'));
    const cut = posts.filter(entry => entry.request.postData?.text === '');
    assert.strictEqual(posts.length, 16);
    assert.ok(cut.length >= 11, `at most 4 bodies of 4 MB fit in 20 MB: ${cut.length} left out`);
    assert.strictEqual(built.omittedBodies, cut.length, 'the figure counts every body left out');
    for (const entry of cut) {
      assert.match(entry.request.postData?.comment ?? '', /not kept/, 'the entry says its body was left out');
      assert.strictEqual(entry.request.bodySize, 4 * 1024 * 1024, 'and still says how large it was');
    }
    store.dispose();
  });

  it('attacked by a page whose requests carry 1.5 MB addresses and 200 KB headers: Save as HAR keeps the whole file within its 20 MB, every request in it, and says what it cut', async () => {
    bridge = makeRealBridge();
    const store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/clean` });
    // No bodies to speak of: 16 addresses of 1.5 MB (the query string repeats each) sent with a 200 KB header (the
    // server refuses them, 431), and 24 answers with a 200 KB response header: 56 MB of HAR before the change.
    const sent = await bridge.supervisor.callTool('browser_evaluate', {
      function: `async () => {
      const q = 'a'.repeat(1500000), h = 'b'.repeat(200000);
      await Promise.all(Array.from({ length: 16 }, (_, i) => fetch('/net/big-headers?i=' + i + '&q=' + q, { headers: { 'x-big': h } }).catch(() => {})));
      await Promise.all(Array.from({ length: 24 }, (_, i) => fetch('/net/big-headers?chars=200000&n=' + i).catch(() => {})));
      return 'sent all';
    }`,
    });
    assert.match(textOf(sent), /sent all/, textOf(sent));
    const attacks = () =>
      store
        .snapshot()
        .network.filter(row => 'url' in row && row.url.includes('/net/big-headers') && (row.durationMs !== undefined || row.failure !== undefined));
    await waitFor(
      () => attacks().length === 40,
      60000,
      () => `the 40 requests listed as finished: ${attacks().length}`,
    );
    const ids = idsOf(store);
    const file = path.join(scratch, 'headers.har');
    const built = await bridge.supervisor.ask('har', { version: '0.0.0-test', ids, file });
    const size = fs.statSync(file).size;
    // The file's one budget (child/harBudget.ts): everything written counts.
    const HAR_BUDGET = 20 * 1024 * 1024;
    assert.ok(
      size <= HAR_BUDGET,
      `the HAR keeps within its ${HAR_BUDGET / 1024 / 1024} MB, addresses and headers counted: ${(size / 1024 / 1024).toFixed(1)} MB`,
    );
    type Entry = { comment?: string; request: { url: string; headers: unknown[]; queryString: unknown[] }; response: { content: { comment?: string } } };
    const har = JSON.parse(fs.readFileSync(file, 'utf8')) as { log: { comment?: string; entries: Entry[] } };
    assert.strictEqual(har.log.entries.length, ids.length, 'every listed request is in the file');
    assert.strictEqual(built.entries, ids.length);
    const stubs = har.log.entries.filter(entry => /^Cut to keep the HAR within/.test(entry.comment ?? ''));
    assert.ok(stubs.length >= 10, `the requests that do not fit are written as stubs, saying so: ${stubs.length}`);
    for (const stub of stubs) {
      assert.ok(
        stub.request.url.startsWith(`${fixture.url}/net/big-headers?`) && stub.request.url.length < 300 && stub.request.url.endsWith('…'),
        `its address cut to its start: ${stub.request.url.slice(0, 120)}`,
      );
      assert.deepStrictEqual([stub.request.headers, stub.request.queryString], [[], []], 'its headers and query string left out');
      assert.match(
        stub.comment!,
        /address \(\d+ characters\) is cut to its start; its query string, \d+ request headers \(\d+ characters\), \d+ response headers \(\d+ characters\) and bodies are left out/,
      );
    }
    const bodiesLeftOut = har.log.entries.filter(entry => /not kept/.test(entry.response.content.comment ?? '')).length;
    assert.strictEqual(built.omittedBodies, stubs.length + bodiesLeftOut, "the notice's figure counts every request cut and body left out");
    assert.match(
      har.log.comment ?? '',
      new RegExp(`^${stubs.length} of the ${ids.length} requests are written as stubs`),
      `the log says so too: ${har.log.comment}`,
    );
    assert.ok(
      har.log.entries.some(entry => entry.request.url.length > 1_000_000),
      'what fits is kept whole: an address of 1.5 MB',
    );
    store.dispose();
  });

  it('throttling to slow 4G and offline is applied by the browser, and undone; Disable cache makes it fetch a cached script anew', async () => {
    bridge = makeRealBridge();
    const listed = listen(bridge);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/cache-lab` });
    await finished(listed, '/cached.js');
    const timeFetch = async () =>
      Number(
        /(\d+)/.exec(
          textOf(
            await bridge!.supervisor.callTool('browser_evaluate', {
              function:
                'async () => { const t = performance.now(); await fetch("/api/echo", { method: "POST", body: "{}" }); return Math.round(performance.now() - t); }',
            }),
          ),
        )?.[1],
      );
    const plain = await timeFetch();
    assert.deepStrictEqual(await bridge.supervisor.ask('networkConditions', { throttling: 'slow4g', cacheDisabled: false }), {
      throttling: 'slow4g',
      cacheDisabled: false,
    });
    const slow = await timeFetch();
    // DevTools' slow 4G adds 562.5 ms to every round trip: the browser's own doing, not a timer of ours.
    assert.ok(slow >= 500 && slow > plain, `a fetch under slow 4G takes at least its added latency: ${slow} ms (${plain} ms without)`);
    await bridge.supervisor.ask('networkConditions', { throttling: 'offline', cacheDisabled: false });
    const offline = textOf(
      await bridge.supervisor.callTool('browser_evaluate', { function: '() => fetch("/api/echo").then(() => "reached", e => "failed: " + e.message)' }),
    );
    assert.match(offline, /failed/, offline);
    await bridge.supervisor.ask('networkConditions', { throttling: 'none', cacheDisabled: false });
    assert.ok((await timeFetch()) < 500, 'back to the plain network');

    const hits = fixture.count('/cached.js');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/cache-lab` });
    await new Promise(resolve => setTimeout(resolve, 500));
    assert.strictEqual(fixture.count('/cached.js'), hits, 'with the cache, the script comes from it');
    await waitFor(() => listed.has('/cached.js'), 5000, 'the cached script to be listed');
    const cached = listed.get('/cached.js')!;
    // Named by our own CDP session's end of the request, awaited when Playwright's comes first (it came first in about 1 run in 3).
    assert.match(cached.cache ?? 'none', /^(memory|disk)$/, 'the list says "(memory cache)" or "(disk cache)", as DevTools does');
    assert.deepStrictEqual(
      [cached.sizeBytes, cached.transferBytes].filter(n => n !== undefined && n < 0),
      [],
      `no negative size (Playwright's own body size is below 0 for it): ${JSON.stringify(cached)}`,
    );
    await bridge.supervisor.ask('networkConditions', { throttling: 'none', cacheDisabled: true });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/cache-lab` });
    await waitFor(() => fixture.count('/cached.js') === hits + 1, 5000, 'Disable cache to fetch the script anew');
  });

  it("each request names its initiator (the script and line:column that called fetch, the document that holds a tag); the list and the Timing say the same duration; the page's own navigation is marked", async () => {
    bridge = makeRealBridge();
    const listed = listen(bridge);
    // The tab first, then the page: a new tab's first requests can go out before its CDP facts are attached.
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab` });
    await finished(listed, '/api/echo', '/api/big', '/pixel.png');
    assert.strictEqual(
      listed.get('/api/echo')!.initiator,
      `${fixture.url}/network-lab:7:3`,
      "the script (here the page's own) and the line:column that called fetch",
    );
    assert.match(listed.get('/pixel.png')!.initiator ?? '', new RegExp(`^${fixture.url}/network-lab(:\\d+)*$`), 'the document that holds the image');
    assert.strictEqual(listed.get('/network-lab')!.initiator, 'Other', "the tab's own navigation, as DevTools says for a typed address");
    assert.strictEqual(listed.get('/network-lab')!.navigation, true, "the document is the page's own navigation");
    assert.strictEqual(listed.get('/api/echo')!.navigation, undefined, 'a fetch is not');
    // The footer's and the waterfall's DOMContentLoaded and Load are the document's, as last sent: its finish,
    // which can come after them, keeps them (it sent the entry without them, and the footer showed none).
    await waitFor(
      () => listed.get('/network-lab')?.loadMs !== undefined && listed.get('/network-lab')?.sizeBytes !== undefined,
      15000,
      () => `the document's load: ${JSON.stringify(listed.get('/network-lab'))}`,
    );
    await new Promise(resolve => setTimeout(resolve, 500));
    const page = listed.get('/network-lab')!;
    assert.ok(page.domContentLoadedMs !== undefined && page.loadMs! >= page.domContentLoadedMs, JSON.stringify(page));
    for (const p of ['/api/echo', '/api/big']) {
      const entry = listed.get(p)!;
      const total: number | undefined = (await bridge.supervisor.ask('requestDetail', { id: entry.id })).timing.find(t => t.phase === 'Total')?.ms;
      assert.strictEqual(entry.durationMs, total, `${p}: the list's duration is its Timing's total`);
    }
  });
});
