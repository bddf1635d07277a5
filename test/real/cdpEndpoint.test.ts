/**
 * The managed CDP endpoint (core/cdpDoor/) on the real child and Chromium: chrome-devtools-mcp attaches through
 * the shared capability and lists the watched page; Chrome DevTools' own frontend, served from the watched
 * browser's bundle, shows that page's DOM; after Restart Browser the old address is refused and a new one works.
 * Attacks: no capability, a wrong one, a foreign Host, a foreign Origin, and a page in the watched browser
 * opening its own WebSocket to the endpoint with the very capability are all refused.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { WebSocket, WebSocketServer } from 'ws';
import { cdpCall, CdpConnection } from '../support/cdpClient';
import { FixtureServer } from '../fixtures/fixtureServer';
import { closeStdioChild, makeRealBridge, openDoor, RealBridge, REPO_ROOT, TEST_BROWSER, textOf, waitFor } from '../support/realBridge';
import { childNode } from '../support/childNode';
import { CdpEndpoint } from '../../src/core/cdpDoor/cdpEndpoint';
import { DebuggerDoor } from '../../src/core/cdpDoor/debuggerDoor';
import { execFile, fork } from 'child_process';
import { promisify } from 'util';

function httpGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, res => {
        let body = '';
        res.on('data', chunk => (body += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const run = promisify(execFile);

/** Under perClient: the bridge's own tab open, client A on its page, and the panel watching A. */
async function watchingClientA(door: Awaited<ReturnType<typeof openDoor>>, cdp: CdpEndpoint, fixtureUrl: string) {
  await door.bridge.supervisor.callTool('browser_navigate', { url: `${fixtureUrl}/` });
  const a = await door.connect('client-a');
  await a.call('browser_navigate', { url: `${fixtureUrl}/second` });
  await watchClient(door, cdp, a.transport.sessionId!);
  return a;
}

/** The panel comes to watch this client (as the person picks it): its current tab's target id, once the child took the watch up. */
async function watchClient(door: Awaited<ReturnType<typeof openDoor>>, cdp: CdpEndpoint, sessionId: string): Promise<string> {
  const before = (await cdp.publish('devtools')).currentTargetId;
  door.bridge.supervisor.tell('watchContext', { sessionId });
  let id: string | undefined;
  await waitFor(
    async () => {
      id = (await cdp.publish('devtools').catch(() => undefined))?.currentTargetId;
      return id !== undefined && id !== before;
    },
    10000,
    'the watched client',
  );
  return id!;
}

describe('the managed CDP endpoint (real child and Chromium)', function () {
  this.timeout(180000);
  let fixture: FixtureServer;
  let bridge: RealBridge | undefined;
  let endpoint: CdpEndpoint | undefined;
  let perClient: Awaited<ReturnType<typeof openDoor>> | undefined;
  const logs: string[] = [];
  beforeEach(async () => {
    fixture = new FixtureServer();
    await fixture.start();
    logs.length = 0;
  });
  afterEach(async () => {
    await endpoint?.dispose();
    endpoint = undefined;
    await perClient?.dispose();
    perClient = undefined;
    await bridge?.dispose();
    bridge = undefined;
    await fixture.stop().catch(() => undefined);
  });

  async function openBridge(): Promise<{ bridge: RealBridge; endpoint: CdpEndpoint }> {
    bridge = makeRealBridge();
    endpoint = new CdpEndpoint(bridge.supervisor, line => logs.push(line));
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
    return { bridge, endpoint };
  }

  /** A bridge under perClient, its MCP door open for clients, and the CDP endpoint on it (both go after the test). */
  async function openPerClient(): Promise<{ door: Awaited<ReturnType<typeof openDoor>>; cdp: CdpEndpoint }> {
    perClient = await openDoor({ isolation: 'perClient' });
    endpoint = new CdpEndpoint(perClient.bridge.supervisor, line => logs.push(line));
    return { door: perClient, cdp: endpoint };
  }

  it('chrome-devtools-mcp attaches through the shared capability (--wsEndpoint) and lists the watched page', async () => {
    const { endpoint } = await openBridge();
    const shared = await endpoint.publish('share');
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-cdm-'));
    const transport = new StdioClientTransport({
      command: childNode(),
      args: [
        path.join(REPO_ROOT, 'node_modules', 'chrome-devtools-mcp', 'build', 'src', 'bin', 'chrome-devtools-mcp.js'),
        '--wsEndpoint',
        `ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`,
        '--no-usage-statistics',
      ],
      env: { ...process.env, HOME: scratch, CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' } as Record<string, string>,
      cwd: scratch,
      stderr: 'ignore',
    });
    const client = new Client({ name: 'cdp-share-test', version: '1' });
    await client.connect(transport);
    try {
      const listed = textOf((await client.callTool({ name: 'list_pages', arguments: {} })) as never);
      assert.match(listed, new RegExp(`^\\d+: Fixture Home \\(${fixture.url.replace(/[.]/g, '\\.')}/\\)`, 'm'), `the watched page is listed:\n${listed}`);
      // It reads the same browser: the page's heading, as the agent's page has it.
      const pageId = Number(/^(\d+): Fixture Home \(/m.exec(listed)?.[1]);
      const read = textOf(
        (await client.callTool({ name: 'evaluate_script', arguments: { pageId, function: '() => document.querySelector("h1").textContent' } })) as never,
      );
      assert.match(read, /Fixture Home/, read);
    } finally {
      await closeStdioChild(client, transport.pid, scratch);
    }
    assert.ok(!logs.join('\n').includes(shared.capability), 'the capability is never logged');
  });

  it("Chrome DevTools' own frontend, served from the watched browser's bundle through the capability, shows the watched page's DOM", async () => {
    const { endpoint } = await openBridge();
    const opened = await endpoint.publish('devtools');
    assert.ok(opened.currentTargetId, 'the current tab is named');
    const base = `127.0.0.1:${opened.port}/${opened.capability}`;
    const viewer = await chromium.launch({ executablePath: TEST_BROWSER, args: ['--no-sandbox'] });
    try {
      const page = await viewer.newPage();
      await page.goto(`http://${base}/frontend/inspector.html?ws=${base}/devtools/page/${opened.currentTargetId}`);
      // Elements shows the page's tree: its heading's text in the DOM tree (DevTools' own shadow DOM, pierced).
      await page.getByText('Fixture Home', { exact: true }).first().waitFor({ timeout: 60000 });
      assert.ok(await page.locator('.elements-tree-outline, [aria-label="Page DOM"]').first().isVisible(), 'the Elements tree is shown');
    } finally {
      await viewer.close();
    }
  });

  it('publishes asked for at once (DevTools following a tab while the person shares) each prove and succeed', async () => {
    const { endpoint } = await openBridge();
    const [devtools, shared, again] = await Promise.all([endpoint.publish('devtools'), endpoint.publish('share'), endpoint.publish('devtools')]);
    assert.strictEqual(again.capability, devtools.capability, "DevTools' capability stays while its browser does");
    assert.notStrictEqual(shared.capability, devtools.capability);
    assert.ok((await cdpCall(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`)).result?.product, 'the shared address works');
    // What the bridge's side proves itself with stays with the bridge.
    const socket = new WebSocket(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`);
    const headers = await new Promise<http.IncomingHttpHeaders>(resolve => socket.once('upgrade', res => resolve(res.headers)));
    socket.close();
    assert.deepStrictEqual(
      Object.keys(headers).filter(name => name.startsWith('x-playwright-bridge')),
      [],
      'no proof reaches the client',
    );
  });

  it('after Restart Browser the old address is refused and a new one works', async () => {
    const { bridge, endpoint } = await openBridge();
    const before = await endpoint.publish('share');
    const oldUrl = `ws://127.0.0.1:${before.port}/${before.capability}/devtools/browser`;
    assert.ok((await cdpCall(oldUrl)).result?.product, 'the address works while its browser runs');
    const revoked = new Promise(resolve => endpoint.onDidRevoke(resolve));
    await bridge.supervisor.restart('test');
    await revoked;
    assert.strictEqual((await cdpCall(oldUrl)).refused, 403, 'the old address is refused at once');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
    assert.strictEqual((await cdpCall(oldUrl)).refused, 403, 'and still refused once a new browser is ready');
    const after = await endpoint.publish('share');
    assert.strictEqual(after.port, before.port, 'the port stays for the bridge');
    assert.notStrictEqual(after.capability, before.capability, 'a new capability');
    assert.ok((await cdpCall(`ws://127.0.0.1:${after.port}/${after.capability}/devtools/browser`)).result?.product, 'the new address works');
  });

  it('attacked without the capability, with a wrong one, from a foreign Host or Origin, and by a page in the watched browser: each refused', async () => {
    const { bridge, endpoint } = await openBridge();
    const shared = await endpoint.publish('share');
    const good = `ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`;
    assert.ok((await cdpCall(good)).result?.product, 'the real address works');
    assert.strictEqual((await cdpCall(`ws://127.0.0.1:${shared.port}/devtools/browser`)).refused, 403, 'no capability');
    assert.strictEqual((await cdpCall(`ws://127.0.0.1:${shared.port}/${'A'.repeat(43)}/devtools/browser`)).refused, 403, 'a wrong capability');
    assert.strictEqual((await cdpCall(good, { Host: `attacker.example:${shared.port}` })).refused, 403, 'a foreign Host (DNS rebinding)');
    assert.strictEqual((await cdpCall(good, { Origin: 'http://attacker.example' })).refused, 403, 'a foreign Origin');
    assert.strictEqual((await httpGet(`http://127.0.0.1:${shared.port}/${shared.capability}/json/list`, { Origin: 'http://attacker.example' })).status, 403);
    assert.strictEqual((await httpGet(`http://127.0.0.1:${shared.port}/json/version`)).status, 403, 'no capability over HTTP either');

    // A page the agent opened tries the endpoint with the very capability (as if it had leaked to it).
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
    const tried = textOf(
      await bridge.supervisor.callTool('browser_evaluate', {
        function: `() => new Promise(resolve => {
          const socket = new WebSocket(${JSON.stringify(good)});
          socket.onopen = () => { socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' })); };
          socket.onmessage = event => resolve('answered: ' + event.data);
          socket.onerror = () => resolve('refused');
        })`,
      }),
    );
    assert.match(tried, /^### Result\n"refused"\n/, `the page's own WebSocket is refused:\n${tried}`);
    assert.ok(!logs.join('\n').includes(shared.capability), 'no refusal logs the capability');
  });

  it('revoking Share closes its sockets and refuses its address; DevTools keeps its own', async () => {
    const { endpoint } = await openBridge();
    const shared = await endpoint.publish('share');
    const devtools = await endpoint.publish('devtools');
    assert.notStrictEqual(shared.capability, devtools.capability, 'each audience has its own capability');
    const socket = new WebSocket(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`);
    await new Promise(resolve => socket.once('open', resolve));
    const closed = new Promise<number>(resolve => socket.once('close', code => resolve(code)));
    endpoint.revoke('share', 'the person revoked it');
    assert.ok((await closed) > 0, 'the shared socket closes');
    assert.strictEqual((await cdpCall(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`)).refused, 403);
    assert.ok((await cdpCall(`ws://127.0.0.1:${devtools.port}/${devtools.capability}/devtools/browser`)).result?.product, "DevTools' address still works");
  });

  // Found by a helper's attack, each failing on the endpoint before its fix.
  it("attacked through perClient: an address published while the panel watches client A stops working when A's context goes, and the old internal port proxies nothing", async () => {
    const { door, cdp } = await openPerClient();
    let squatter: http.Server | undefined;
    try {
      const a = await watchingClientA(door, cdp, fixture.url);
      const shared = await cdp.publish('share');
      const devtools = await cdp.publish('devtools');
      const oldUrl = `ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`;
      assert.ok((await cdpCall(oldUrl)).result?.product);
      const internalPort = (cdp as unknown as { browser: { internal: { port: number } } }).browser.internal.port;
      await a.call('browser_close');
      await waitFor(() => !cdp.isPublished('share') && !cdp.isPublished('devtools'), 10000, "the grants to go with A's context");
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      assert.strictEqual((await cdpCall(oldUrl)).refused, 403, "the old address does not reach A's new context");
      // A local process binds the old internal port: the host sends it nothing, and serves nothing of it.
      const seen: string[] = [];
      squatter = http.createServer((req, res) => {
        seen.push(req.url ?? '');
        res.writeHead(200, { 'content-type': 'text/html' }).end('<script>squatter</script>');
      });
      await new Promise<void>((resolve, reject) => squatter!.once('error', reject).listen(internalPort, '127.0.0.1', () => resolve()));
      const page = await httpGet(`http://127.0.0.1:${devtools.port}/${devtools.capability}/frontend/inspector.html`);
      assert.strictEqual(page.status, 403);
      assert.deepStrictEqual(seen, [], 'the squatter got no request (and so no internal secret)');
    } finally {
      squatter?.close();
    }
  });

  it("attacked through perClient by a shared client (as VS Code's debugger attaches: the whole browser, pages picked by URL): client B's page at the very URL of A's is never listed, announced, attached or opened", async () => {
    const { door, cdp } = await openPerClient();
    let shared: CdpConnection | undefined;
    try {
      await door.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      const a = await door.connect('client-a');
      const b = await door.connect('client-b');
      await a.call('browser_navigate', { url: `${fixture.url}/second` });
      await b.call('browser_navigate', { url: `${fixture.url}/second` });
      // B's page id, as the person's own DevTools would have it while the panel watched B.
      const bPage = await watchClient(door, cdp, b.transport.sessionId!);
      const aPage = await watchClient(door, cdp, a.transport.sessionId!);
      // The bridge's private context (where DevTools' frontend is read) exists once a frontend file was asked for.
      const devtools = await cdp.publish('devtools');
      assert.strictEqual((await httpGet(`http://127.0.0.1:${devtools.port}/${devtools.capability}/frontend/inspector.html`)).status, 200);
      const address = await cdp.publish('share');
      shared = await CdpConnection.open(`ws://127.0.0.1:${address.port}/${address.capability}/devtools/browser`);
      // The old protocol's nested sessions would carry commands the bridge never reads: refused (a helper's attack
      // read B's cookies and left CDP in A's page through them).
      const browserTarget = ((await shared.send('Target.getTargetInfo')).result?.targetInfo as { targetId: string }).targetId;
      for (const [method, params] of [
        ['Target.attachToTarget', { targetId: browserTarget, flatten: false }],
        ['Target.attachToTarget', { targetId: browserTarget }],
        ['Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false }],
        ['Target.sendMessageToTarget', { targetId: aPage, message: '{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"}}' }],
      ] as const)
        assert.match((await shared.send(method, params)).error?.message ?? '', /carries flat CDP sessions only/, `${method} ${JSON.stringify(params)}`);
      const pages = async () =>
        ((await shared!.send('Target.getTargets')).result?.targetInfos as { targetId: string; type: string; url: string }[]).filter(
          each => each.type === 'page',
        );
      assert.deepStrictEqual(
        (await pages()).map(each => each.targetId),
        [aPage],
        "only A's page is listed, though B's has the same URL (and not the bridge's private one)",
      );
      const contexts = (await shared.send('Target.getBrowserContexts')).result?.browserContextIds as string[];
      assert.strictEqual(contexts.length, 1, `only A's context is listed: ${contexts.join(', ')}`);
      // VS Code's debugger opens a second session on the browser itself, and discovers pages there: scoped the same.
      const second = (await shared.send('Target.attachToBrowserTarget')).result?.sessionId as string;
      assert.ok(second, "the browser's own target can be attached");
      // Domains that act on every client's pages at once, on a session of the browser itself (a helper's attack paused
      // B's navigation with a browser-wide Fetch, read it and answered with a page of its own): refused there.
      for (const session of [undefined, second])
        for (const [method, params] of [
          ['Fetch.enable', { patterns: [{ urlPattern: '*' }] }],
          ['Tracing.start', { transferMode: 'ReturnAsStream' }],
          ['Storage.getCookies', {}],
        ] as const)
          assert.match(
            (await shared.send(method, params, session)).error?.message ?? '',
            /refused on the browser's own session|names no browserContextId/,
            `${method} on ${session ? 'a second' : 'the root'} browser session`,
          );
      assert.match((await shared.send('Browser.close')).error?.message ?? '', /refused/, "closing every client's browser");
      const aSession = (await shared.send('Target.attachToTarget', { targetId: aPage, flatten: true })).result?.sessionId as string;
      assert.match((await shared.send('Browser.close', {}, aSession)).error?.message ?? '', /acts on the whole browser/, "nor on a page's session");
      const evaluated = await shared.send('Runtime.evaluate', { expression: 'document.title', returnByValue: true }, aSession);
      assert.strictEqual((evaluated.result?.result as { value?: string } | undefined)?.value, 'Second Page', "A's page is the client's to drive");
      const seenThere = (await shared.send('Target.getTargets', {}, second)).result?.targetInfos as { targetId: string; type: string }[];
      assert.deepStrictEqual(
        seenThere.filter(each => each.type === 'page').map(each => each.targetId),
        [aPage],
        "only A's page is listed on the debugger's own browser session",
      );
      const attach = await shared.send('Target.attachToTarget', { targetId: bPage, flatten: true });
      assert.match(attach.error?.message ?? '', /No target with given id found/, "B's page cannot be attached by its id");
      const info = await shared.send('Target.getTargetInfo', { targetId: bPage });
      assert.match(info.error?.message ?? '', /No target with given id found/, 'nor described');
      const pageLink = await CdpConnection.open(`ws://127.0.0.1:${address.port}/${address.capability}/devtools/page/${bPage}`);
      await pageLink.until(() => false);
      assert.match(pageLink.closed ?? '', /No such page/, 'nor reached as a page link');
      // Announced targets and the browser's own auto-attach (a debugger that waits for every new page): B's new tab
      // is neither heard of nor left waiting; A's, opened after it, is heard.
      await shared.send('Target.setDiscoverTargets', { discover: true });
      await shared.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
      const attachedAtStart = shared.events
        .filter(each => each.method === 'Target.attachedToTarget')
        .map(each => (each.params!.targetInfo as { targetId: string }).targetId);
      assert.ok(!attachedAtStart.includes(bPage), "B's page is not auto-attached");
      await b.call('browser_tabs', { action: 'new' });
      const bNavigated = await b.call('browser_navigate', { url: `${fixture.url}/second?b` });
      assert.doesNotMatch(bNavigated.text, /### Error/, "B's new tab was not left waiting for the shared client's debugger");
      // A's new tab waits for this client, as for a debugger: it runs once told to.
      const aTab = a.call('browser_tabs', { action: 'new' });
      const aNew = await shared.until(each => {
        const info = each.params?.targetInfo as { targetId: string; type: string } | undefined;
        return each.method === 'Target.attachedToTarget' && info?.type === 'page' && info.targetId !== aPage;
      });
      assert.ok(aNew, "A's new tab is auto-attached");
      await shared.send('Runtime.runIfWaitingForDebugger', {}, aNew.params!.sessionId as string);
      await aTab;
      const heard = shared.events.filter(each => /^Target\.(targetCreated|targetInfoChanged|attachedToTarget)$/.test(each.method ?? ''));
      const urls = heard.map(each => (each.params!.targetInfo as { url: string }).url);
      assert.ok(!urls.some(url => url.endsWith('?b')), `nothing of B's new tab was heard: ${urls.join(', ')}`);
      assert.ok(!heard.some(each => (each.params!.targetInfo as { targetId: string }).targetId === bPage), "nor of B's first page");
      assert.deepStrictEqual(
        (await pages()).map(each => each.targetId).sort(),
        [aPage, (aNew.params!.targetInfo as { targetId: string }).targetId].sort(),
        "only A's two pages are listed",
      );
      pageLink.close();
    } finally {
      shared?.close();
    }
  });

  it("attacked in the instant the browser's endpoint closes, before the host hears it: a process that binds the freed port gets nothing it says to a client", async () => {
    // Under perClient the browser stays when the watched client's context (and so its endpoint) closes.
    const { door, cdp: endpoint } = await openPerClient();
    const a = await watchingClientA(door, endpoint, fixture.url);
    const devtools = await endpoint.publish('devtools');
    const shared = await endpoint.publish('share');
    const record = (endpoint as unknown as { browser: { internal: { port: number }; alive: WebSocket } }).browser;
    // The host does not hear the close yet: the window a squatter would need, held open.
    record.alive.removeAllListeners('close');
    const internalPort = record.internal.port;
    await a.call('browser_close');
    const squatter = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<script>squatter</script>'));
    const squatterSockets = new WebSocketServer({ server: squatter });
    squatterSockets.on('connection', socket =>
      socket.on('message', data => socket.send(JSON.stringify({ id: (JSON.parse(String(data)) as { id: number }).id, result: { product: 'squatter' } }))),
    );
    try {
      await waitFor(
        () =>
          new Promise<boolean>(resolve => {
            squatter.once('error', () => resolve(false));
            squatter.listen(internalPort, '127.0.0.1', () => resolve(true));
          }),
        10000,
        "the browser's endpoint to free its port",
      );
      const page = await httpGet(`http://127.0.0.1:${devtools.port}/${devtools.capability}/frontend/inspector.html`);
      assert.doesNotMatch(page.body, /squatter/, `the DevTools frame gets none of the squatter's page (${page.status})`);
      assert.strictEqual(page.status, 502);
      const version = await httpGet(`http://127.0.0.1:${shared.port}/${shared.capability}/json/version`);
      assert.strictEqual(version.status, 502, `nor its /json/version: ${version.body}`);
      const answer = await cdpCall(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`);
      assert.notStrictEqual(answer.result?.product, 'squatter', 'a CDP client hears nothing from it');
      assert.strictEqual(answer.refused, 502, JSON.stringify(answer));
    } finally {
      squatterSockets.close();
      squatter.close();
    }
  });

  it('attacked by a shared client that would leave a CDP binding in the page (Target.exposeDevToolsProtocol): refused, so after Revoke no page speaks CDP', async () => {
    const { bridge, endpoint } = await openBridge();
    const shared = await endpoint.publish('share');
    const url = `ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`;
    const targets = (await cdpCall(url, {}, 'Target.getTargets')).result?.targetInfos as { targetId: string; url: string }[];
    const tab = targets.find(target => target.url.startsWith(fixture.url))!;
    const exposed = await new Promise<{ error?: { message: string } }>(resolve => {
      const socket = new WebSocket(url);
      socket.once('open', () =>
        socket.send(JSON.stringify({ id: 7, method: 'Target.exposeDevToolsProtocol', params: { targetId: tab.targetId, bindingName: 'door' } })),
      );
      socket.on('message', data => {
        const message = JSON.parse(String(data)) as { id?: number; error?: { message: string } };
        if (message.id !== 7) return;
        socket.close();
        resolve(message);
      });
    });
    assert.match(exposed.error?.message ?? '', /refused by Playwright Bridge/);
    endpoint.revoke('share', 'the person revoked it');
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
    const probed = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: '() => typeof window.door' }));
    assert.match(probed, /^### Result\n"undefined"/, probed);
  });

  it('attacked by one CDP message over 100 MB (Chromium drops its pipe and exits at that): refused, and the watched browser stays', async () => {
    const { bridge, endpoint } = await openBridge();
    const shared = await endpoint.publish('share');
    const socket = new WebSocket(`ws://127.0.0.1:${shared.port}/${shared.capability}/devtools/browser`, { perMessageDeflate: false });
    await new Promise(resolve => socket.once('open', resolve));
    const closed = new Promise<number>(resolve => socket.once('close', code => resolve(code)));
    socket.send(JSON.stringify({ id: 1, method: 'Browser.getVersion', params: { pad: 'x'.repeat(101 * 1024 * 1024) } }));
    assert.strictEqual(await closed, 1009, 'closed as too big');
    const after = await bridge.supervisor.callTool('browser_snapshot', {});
    assert.ok(!after.isError && bridge.supervisor.health.state === 'ready', `the browser still runs: ${textOf(after).slice(0, 200)}`);
    assert.ok(endpoint.isPublished('share'), 'and the address with it');
  });

  it("a breakpoint set through the endpoint pauses the agent's click: the panel says the page is paused, and the call waits and says for how long", async () => {
    const { bridge, endpoint } = await openBridge();
    await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/perf/reflow` });
    const button = /button "Resize the box" \[ref=(\w+)\]/.exec(textOf(await bridge.supervisor.callTool('browser_snapshot', {})))![1];
    const devtools = await endpoint.publish('devtools');
    // A debugger on the page, as VS Code's or DevTools' would be: a breakpoint in the page's own script.
    const socket = new WebSocket(`ws://127.0.0.1:${devtools.port}/${devtools.capability}/devtools/page/${devtools.currentTargetId}`);
    await new Promise(resolve => socket.once('open', resolve));
    let id = 0;
    const answers = new Map<number, (result: unknown) => void>();
    const paused = new Promise<void>(resolve =>
      socket.on('message', data => {
        const message = JSON.parse(String(data)) as { id?: number; method?: string; result?: unknown };
        if (message.id !== undefined) answers.get(message.id)?.(message.result);
        if (message.method === 'Debugger.paused') resolve();
      }),
    );
    const send = (method: string, params: Record<string, unknown> = {}) =>
      new Promise(resolve => {
        answers.set(++id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      });
    await send('Debugger.enable');
    await send('Debugger.setBreakpointByUrl', { urlRegex: 'perf/reflow\\.js$', lineNumber: 2 });
    const shown: boolean[] = [];
    bridge.supervisor.onObservation(event => {
      if (event.kind === 'debuggerPaused') shown.push(event.paused);
    });
    const click = bridge.supervisor.callTool('browser_click', { element: 'Resize the box', target: button });
    await paused;
    await waitFor(() => shown.includes(true), 10000, 'the panel to hear of the pause');
    // The person looks around for a while, then resumes.
    await new Promise(resolve => setTimeout(resolve, 1500));
    await send('Debugger.resume');
    const text = textOf(await click);
    const seconds = Number(/The page was paused in the debugger for ([\d.]+) s while this call ran/.exec(text)?.[1]);
    assert.ok(seconds >= 1.4, `the call says how long it waited: ${text}`);
    assert.doesNotMatch(text, /still paused/);
    await waitFor(() => shown.at(-1) === false, 10000, 'the panel to hear it runs again');
    socket.close();
  });

  it("the debugger's door (a bare port, as VS Code's JavaScript debugger needs): this process gets the browser through it, another local process and a web page are refused, and it stops listening once the debugger is in", async () => {
    const { endpoint } = await openBridge();
    const devtools = await endpoint.publish('devtools');
    const door = await DebuggerDoor.open({ port: devtools.port, capability: devtools.capability }, line => logs.push(line));
    try {
      const version = JSON.parse((await httpGet(`http://127.0.0.1:${door.port}/json/version`)).body) as { webSocketDebuggerUrl: string };
      assert.strictEqual(version.webSocketDebuggerUrl, `ws://127.0.0.1:${door.port}/devtools/browser`, 'the capability stays inside');
      // Another process on this machine, with nothing but the port.
      const other = await run(childNode(), [
        '-e',
        `require('http').get('http://127.0.0.1:${door.port}/json/version', res => console.log(res.statusCode)).on('error', e => console.log('dropped: ' + e.message))`,
      ]);
      assert.match(other.stdout, /^dropped: (socket hang up|read ECONNRESET)/, `another process is dropped before it is read: ${other.stdout}`);
      assert.ok(logs.includes('Debugger door dropped a connection another process made'), 'and the log says so');
      // Another process that takes the very port this process connects from, on another loopback address (a helper's
      // attack: the kernel's table of sockets then showed the door our own connection).
      const ours = net.connect(door.port, '127.0.0.1');
      await new Promise(resolve => ours.once('connect', resolve));
      const borrowed = await run(childNode(), [
        '-e',
        `const s = require('net').connect({ host: '127.0.0.1', port: ${door.port}, localAddress: '127.0.0.2', localPort: ${ours.localPort} });
         s.on('connect', () => s.write('GET /json/version HTTP/1.1\\r\\nHost: 127.0.0.1:${door.port}\\r\\n\\r\\n'));
         s.on('data', d => { console.log(String(d).split('\\r\\n')[0]); process.exit(0); });
         s.on('close', () => { console.log('dropped'); process.exit(0); });
         s.on('error', () => undefined);`,
      ]);
      ours.destroy();
      assert.match(borrowed.stdout, /^dropped/, `a borrowed port number is not this process: ${borrowed.stdout}`);
      // Another process that holds many connections open (a helper's attack: the door's few places were all taken).
      const flood = execFile(childNode(), [
        '-e',
        `const held = []; for (let i = 0; i < 40; i++) { const s = require('net').connect(${door.port}, '127.0.0.1'); s.on('error', () => undefined); held.push(s); }
         setInterval(() => undefined, 1000);`,
      ]);
      try {
        await waitFor(() => logs.filter(line => line.startsWith('Debugger door dropped')).length >= 40, 10000, "the flood's connections to arrive");
        assert.strictEqual((await httpGet(`http://127.0.0.1:${door.port}/json/version`)).status, 200, 'VS Code still gets in');
      } finally {
        flood.kill();
      }
      // A socket this process connected, then handed to a child process (the child speaks on it): no longer ours.
      const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-door-')), 'handed.js');
      fs.writeFileSync(
        script,
        `process.on('message', (_m, socket) => {
           socket.on('data', d => process.send(String(d).split('\\r\\n')[0]));
           socket.on('close', () => process.send('dropped'));
           socket.write('GET /json/version HTTP/1.1\\r\\nHost: 127.0.0.1:${door.port}\\r\\n\\r\\n');
         });`,
      );
      const child = fork(script, [], { execPath: childNode(), serialization: 'advanced' });
      try {
        const handed = net.connect(door.port, '127.0.0.1');
        // Used by this process first (admitted, and kept alive), then handed over.
        const first = await new Promise<string>(resolve => {
          handed.once('data', data => resolve(String(data).split('\r\n')[0]));
          handed.write(`GET /json/version HTTP/1.1\r\nHost: 127.0.0.1:${door.port}\r\n\r\n`);
        });
        assert.match(first, /^HTTP\/1\.1 200/, 'this process is admitted on it');
        const heard = new Promise<string>(resolve => child.once('message', message => resolve(String(message))));
        child.send('use', handed);
        assert.match(await heard, /^(HTTP\/1\.1 403|dropped)/, 'a socket handed to a child is refused');
      } finally {
        child.kill();
      }
      assert.strictEqual((await httpGet(`http://127.0.0.1:${door.port}/json/version`, { Origin: 'http://attacker.example' })).status, 403);
      assert.ok((await cdpCall(version.webSocketDebuggerUrl)).result?.product, "the debugger's WebSocket reaches the browser");
      await waitFor(
        () =>
          new Promise<boolean>(resolve =>
            http
              .get(`http://127.0.0.1:${door.port}/json/version`)
              .once('error', () => resolve(true))
              .once('response', () => resolve(false)),
          ),
        5000,
        'the door to stop listening once the debugger is in',
      );
    } finally {
      door.close();
    }
  });
});
