/**
 * The Network pane's request details and the size picker, through the supervisor as the panel asks
 * them (real child and Chromium, pages served by the fixture): a POST's headers and both bodies, a copy
 * as cURL that gets the very same answer from the server, a 1 MB body whole, an image, a secret masked
 * in every part; the page resized at once and the model told; a Playwright device in a new context.
 */
import * as assert from 'assert';
import { execFile } from 'child_process';
import { promisify } from 'util';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, RealBridge, textOf, waitFor } from '../support/realBridge';
import { toCurl, toFetch } from '../../src/core/liveView/requestCopies';
import type { NetworkEntry, RequestDetail, TabInfo } from '../../src/protocol/childMessages';

const run = promisify(execFile);

describe('request details and page sizes (real child and Chromium)', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  let bridge: RealBridge | undefined;
  before(() => fixture.start());
  after(() => fixture.stop());
  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
  });

  /** The lab page opened by the model; the requests the panel lists, as they finish. */
  async function openLab(real: RealBridge, query = ''): Promise<Map<string, NetworkEntry>> {
    const listed = new Map<string, NetworkEntry>();
    real.supervisor.onObservation(event => {
      if (event.kind === 'network') listed.set(new URL(event.entry.url).pathname, event.entry);
    });
    await real.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab${query}` });
    await waitFor(
      () => ['/api/echo', '/api/big', '/pixel.png'].every(path => listed.get(path)?.durationMs !== undefined && listed.get(path)!.sizeBytes !== undefined),
      15000,
      () => `the lab's requests to finish: ${JSON.stringify([...listed.values()])}`,
    );
    return listed;
  }

  it('a JSON POST: its method, both headers, both bodies and timing; Copy as cURL run against the server gets the same answer', async () => {
    bridge = makeRealBridge();
    const listed = await openLab(bridge);
    const detail = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/echo')!.id });
    assert.strictEqual(detail.method, 'POST');
    assert.strictEqual(detail.status, 200);
    assert.strictEqual(detail.resourceType, 'fetch');
    const header = (headers: RequestDetail['requestHeaders'], name: string) => headers.find(h => h.name.toLowerCase() === name)?.value;
    assert.strictEqual(header(detail.requestHeaders, 'content-type'), 'application/json');
    assert.strictEqual(header(detail.requestHeaders, 'x-lab'), 'on');
    assert.strictEqual(header(detail.responseHeaders, 'x-echo'), 'yes');
    assert.deepStrictEqual({ kind: detail.requestBody.kind, text: detail.requestBody.text }, { kind: 'json', text: '{"name":"Ada","items":[1,2]}' });
    assert.strictEqual(detail.responseBody.kind, 'json');
    const answer = JSON.parse(detail.responseBody.text!);
    assert.deepStrictEqual(answer, { received: { name: 'Ada', items: [1, 2] }, method: 'POST', contentType: 'application/json', lab: 'on' });
    assert.match(detail.remoteAddress ?? '', /^127\.0\.0\.1:\d+$/);
    assert.ok(
      detail.timing.some(t => t.phase === 'Total' && t.ms >= 0),
      JSON.stringify(detail.timing),
    );

    const curl = toCurl(detail, {});
    assert.doesNotMatch(curl, /-X POST/, 'curl posts its --data-raw without being told');
    // Asynchronously: the fixture answering it runs in this very process.
    const curlAnswer = (await run('sh', ['-c', curl], { encoding: 'utf8', timeout: 15000 })).stdout;
    assert.deepStrictEqual(JSON.parse(curlAnswer), answer, 'the copied command gets the answer the page got');
    assert.match(toFetch(detail), /^await fetch\("http:\/\/127\.0\.0\.1:\d+\/api\/echo", \{\n {2}"method": "POST"/);
  });

  it('a 1 MB JSON body comes whole, an image comes to preview, and an unknown request says why it has no details', async () => {
    bridge = makeRealBridge();
    const listed = await openLab(bridge);
    const big = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/big')!.id });
    assert.strictEqual(big.responseBody.kind, 'json');
    assert.ok(big.responseBody.size > 1_000_000, `${big.responseBody.size}`);
    assert.strictEqual(big.responseBody.text!.length, big.responseBody.size);
    assert.strictEqual((JSON.parse(big.responseBody.text!) as { rows: unknown[] }).rows.length, 9000);
    const image = await bridge.supervisor.ask('requestDetail', { id: listed.get('/pixel.png')!.id });
    assert.strictEqual(image.responseBody.kind, 'image');
    assert.strictEqual(Buffer.from(image.responseBody.base64!, 'base64').subarray(1, 4).toString(), 'PNG');
    await assert.rejects(bridge.supervisor.ask('requestDetail', { id: 'r99999' }), /no longer kept/);
  });

  it('details asked ahead of a click (the pointer rests on the row): a finished 1 MB body comes whole; a request still loading is refused at once, nothing read', async () => {
    bridge = makeRealBridge();
    const listed = await openLab(bridge);
    const big = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/big')!.id, bodyChars: 16384, pretty: true, ahead: true });
    assert.strictEqual(big.responseBody.kind, 'json');
    assert.ok(big.responseBody.size > 1_000_000, `${big.responseBody.size}`);
    assert.match(big.responseBody.text!, /^\{\n {2}"rows": \[/);
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/har-lab` });
    await waitFor(() => listed.has('/never'), 15000, 'the long poll to be listed');
    // Opened, its details wait for a body that never ends, then say it is still loading; asked ahead, refused before any read.
    await assert.rejects(bridge.supervisor.ask('requestDetail', { id: listed.get('/never')!.id, ahead: true }), /Not read ahead: it is still loading/);
  });

  it('a secret of the bridge is masked in the URL, headers and both bodies; the copied cURL reads it from the environment and still gets the answer', async () => {
    const secret = 'Lab-Token-7Q2x9';
    bridge = makeRealBridge({}, {}, { secrets: { LAB_TOKEN: { value: secret, origins: [fixture.url] } } });
    const listed = await openLab(bridge, `?name=${secret}`);
    const detail = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/echo')!.id });
    const whole = JSON.stringify(detail);
    assert.ok(!whole.includes(secret), 'the secret is nowhere in the details');
    assert.match(detail.requestBody.text!, /<secret>LAB_TOKEN<\/secret>/);
    assert.match(detail.responseBody.text!, /<secret>LAB_TOKEN<\/secret>/);
    // As the panel asks: pretty JSON, cut short. Masked before the cut: a cut in the middle of the secret shows none of it.
    const pretty = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/echo')!.id, pretty: true });
    const at = pretty.requestBody.text!.indexOf('<secret>LAB_TOKEN</secret>');
    assert.ok(at > 0, pretty.requestBody.text);
    const cut = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/echo')!.id, pretty: true, bodyChars: at + 6 });
    assert.strictEqual(cut.requestBody.truncated, true);
    assert.strictEqual(cut.requestBody.text, pretty.requestBody.text!.slice(0, at + 6));
    assert.ok(!JSON.stringify(cut).includes(secret.slice(0, 6)), 'no part of the secret');
    const curl = toCurl(detail, { LAB_TOKEN: [fixture.url] });
    assert.ok(!curl.includes(secret));
    const answer = (await run('sh', ['-c', curl], { encoding: 'utf8', timeout: 15000, env: { ...process.env, LAB_TOKEN: secret } })).stdout;
    assert.strictEqual((JSON.parse(answer) as { received: { name: string } }).received.name, secret, 'the server got the real value from the environment');
  });

  it("a placeholder the page wrote itself, in a request to the secret's own site, is shown as text and never read from the environment", async () => {
    bridge = makeRealBridge({}, {}, { secrets: { LAB_TOKEN: { value: 'Lab-Token-7Q2x9', origins: [fixture.url] } } });
    const listed = await openLab(bridge, `?name=${encodeURIComponent('<secret>LAB_TOKEN</secret>')}`);
    const detail = await bridge.supervisor.ask('requestDetail', { id: listed.get('/api/echo')!.id });
    assert.ok(!JSON.stringify(detail).includes('<secret>LAB_TOKEN</secret>'), 'no placeholder the mask did not write');
    assert.match(detail.requestBody.text!, /<\u2060secret>LAB_TOKEN<\/secret>/, "the page's text, with a word joiner");
    const curl = toCurl(detail, { LAB_TOKEN: [fixture.url] });
    assert.doesNotMatch(curl, /\$LAB_TOKEN/, 'the copy reads nothing from the environment');
  });

  it("the size picker resizes the page at once: the next snapshot shows the new width, the header's size follows, and the model is told once", async () => {
    bridge = makeRealBridge();
    const tabs: TabInfo[][] = [];
    bridge.supervisor.onObservation(event => {
      if (event.kind === 'tabs') tabs.push(event.tabs);
    });
    await openLab(bridge);
    const before = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
    assert.match(before, /Width: 1280/);
    assert.deepStrictEqual(await bridge.supervisor.pageAction({ action: 'resize', width: 390, height: 844 }), {
      ok: true,
      message: 'Resized the page to 390×844',
    });
    await waitFor(
      () => tabs.at(-1)?.find(t => t.current)?.viewport?.width === 390,
      5000,
      () => `the header's size to follow: ${JSON.stringify(tabs.at(-1))}`,
    );
    const after = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
    assert.match(after, /Width: 390/);
    assert.match(after, /The person resized the page to 390×844/);
    assert.doesNotMatch(textOf(await bridge.supervisor.callTool('browser_snapshot', {})), /The person resized/, 'told once');
  });

  it('a Playwright device gets its own context: its width, touch and mobile user agent; the device list offers it', async () => {
    bridge = makeRealBridge({}, { device: 'Pixel 7' });
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/network-lab` });
    const seen = textOf(
      await bridge.supervisor.callTool('browser_evaluate', {
        function: '() => [innerWidth, navigator.maxTouchPoints > 0, /Android/.test(navigator.userAgent)].join(",")',
      }),
    );
    assert.match(seen, /"412,true,true"/);
    const { devices } = await bridge.supervisor.ask('deviceList', {});
    assert.ok(
      devices.some(d => d.name === 'Pixel 7' && d.width === 412 && d.touch && d.mobile),
      'Pixel 7 listed with its facts',
    );
    assert.ok(!devices.some(d => /landscape/.test(d.name)), 'portrait only');
  });
});
