import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { isAlive, listDescendants } from '../../src/core/childProcess/processTree';
import { convertToolResult } from '../../src/core/pipeline/callResult';
import { imageSize } from '../../src/core/results/imageDownscale';
import { diffManifests, ManifestTool, manifestEntry } from '../../src/core/tools/toolManifest';
import { isHostTool, ownToolDefinitions } from '../../src/core/tools/toolRegistry';
import { collectToolManifest } from '../../src/build/collectToolManifest';
import { FixtureServer } from '../fixtures/fixtureServer';
import { CHILD_SCRIPT, makeRealBridge, processesMentioning, RealBridge, refOf, REPO_ROOT, textOf, waitFor } from '../support/realBridge';

/** The main browser process below the child: Chromium's helpers carry a --type= argument. */
function browserPid(bridge: RealBridge): number {
  const childPid = bridge.supervisor.status.pid!;
  const pid = listDescendants(childPid).find(candidate => {
    try {
      const argv = fs.readFileSync(`/proc/${candidate}/cmdline`, 'utf8').split('\0');
      return /chrom/i.test(path.basename(argv[0])) && !argv.some(arg => arg.startsWith('--type='));
    } catch {
      return false;
    }
  });
  assert.ok(pid, 'a browser process runs below the child');
  return pid;
}

describe('bridge on a real child and Chromium', function () {
  this.timeout(120000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  describe('a browsing session', () => {
    let bridge: RealBridge;
    before(() => (bridge = makeRealBridge()));
    after(async () => {
      const scratch = bridge.scratch;
      await bridge.dispose();
      assert.deepStrictEqual(processesMentioning(scratch), [], 'no process of the tree outlives dispose()');
    });

    it('navigates, reads the page, clicks and types like a user would', async () => {
      const toolsChanged = new Promise<void>(resolve => bridge.supervisor.onDidChangeTools(() => resolve()));
      const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(!nav.isError, textOf(nav));
      assert.match(textOf(nav), /Page Title: Fixture Home/);
      await Promise.race([toolsChanged, new Promise((_, reject) => setTimeout(() => reject(new Error('tools/list_changed was not forwarded')), 10000))]);

      const snapshot = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
      assert.match(snapshot, /heading "Fixture Home"/);
      const input = refOf(snapshot, /textbox "Your name"/);
      const button = refOf(snapshot, /button "Greet"/);

      const typed = await bridge.supervisor.callTool('browser_type', { element: 'Your name', target: input, text: 'Ada' });
      assert.ok(!typed.isError, textOf(typed));
      const clicked = await bridge.supervisor.callTool('browser_click', { element: 'Greet button', target: button });
      assert.ok(!clicked.isError, textOf(clicked));
      const after = textOf(await bridge.supervisor.callTool('browser_snapshot', {}));
      assert.match(after, /Hello, Ada!/);
    });

    it('returns a screenshot as an image part, scaled down when the page is huge', async () => {
      const shot = await bridge.supervisor.callTool('browser_take_screenshot', {});
      const parts = convertToolResult('browser_take_screenshot', shot);
      const image = parts.find(p => p.kind === 'image');
      assert.ok(image && image.kind === 'image', 'an image part comes back');
      assert.deepStrictEqual(imageSize(image.data, image.mimeType), { width: 1280, height: 720 });

      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/tall` });
      const full = convertToolResult('browser_take_screenshot', await bridge.supervisor.callTool('browser_take_screenshot', { fullPage: true }));
      const tall = full.find(p => p.kind === 'image');
      assert.ok(tall && tall.kind === 'image');
      const size = imageSize(tall.data, tall.mimeType)!;
      assert.ok(size.height <= 2000 && size.width <= 2000, `got ${size.width}x${size.height}`);
      assert.ok(tall.data.length <= 1_000_000);
      assert.ok(
        full.some(p => p.kind === 'text' && /scaled from 1280x9000/.test(p.text)),
        'the model is told the image was scaled',
      );
    });

    it('lists console messages and network requests of the page', async () => {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      await waitFor(() => fixture.count('/api/data') >= 2, 5000, 'the page fetch');
      const consoleText = textOf(await bridge.supervisor.callTool('browser_console_messages', { level: 'info' }));
      assert.match(consoleText, /fixture page loaded/);
      assert.match(consoleText, /fixture warning/);
      const network = textOf(await bridge.supervisor.callTool('browser_network_requests', {}));
      assert.match(network, /\/api\/data/);
    });

    it('gives clear errors for bad arguments, unknown tools and unreachable pages', async () => {
      const bad = convertToolResult('browser_navigate', await bridge.supervisor.callTool('browser_navigate', { url: 42 }));
      assert.match((bad[0] as { text: string }).text, /^The tool browser_navigate failed: .*Invalid arguments.*url/s);
      const unknown = convertToolResult('browser_nope', await bridge.supervisor.callTool('browser_nope', {}));
      assert.match((unknown[0] as { text: string }).text, /^The tool browser_nope failed: .*not found/s);
      const closedPort = await fixture.closedPort();
      const refused = convertToolResult('browser_navigate', await bridge.supervisor.callTool('browser_navigate', { url: `http://127.0.0.1:${closedPort}/` }));
      assert.match((refused[0] as { text: string }).text, /failed: .*ERR_CONNECTION_REFUSED/s);
      assert.doesNotMatch(JSON.stringify(refused), /\\u001b/);
    });

    it('keeps working after browser_close', async () => {
      const closed = await bridge.supervisor.callTool('browser_close', {});
      assert.ok(!closed.isError, textOf(closed));
      const again = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(!again.isError, textOf(again));
      assert.match(textOf(again), /Page Title: Second Page/);
    });

    it('recovers when the browser is killed between calls, and says state was lost', async () => {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      const pid = browserPid(bridge);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !fs.existsSync(`/proc/${pid}/cmdline`) || fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') === '', 10000, 'the browser to die');
      await new Promise(resolve => setTimeout(resolve, 300));
      const next = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      assert.ok(!next.isError, textOf(next));
      assert.match(textOf(next), /the browser exited unexpectedly/);
      assert.match(textOf(next), /earlier pages, tabs, form input and login state are gone/);
      assert.match(textOf(next), /Page Title: Second Page/);
    });

    it('recovers when the child is killed mid-call; calls that find it dead share one restart and reach the page once each', async () => {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      const oldChild = bridge.supervisor.status.pid!;
      const oldTree = [oldChild, ...listDescendants(oldChild)];
      const generation = bridge.supervisor.status.generation;
      const held = bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/hold` });
      await waitFor(() => fixture.count('/hold') === 1, 10000, 'the held request to reach the server');
      process.kill(oldChild, 'SIGKILL');

      const heldResult = await held;
      assert.strictEqual(heldResult.isError, true);
      assert.match(textOf(heldResult), /stopped while running browser_navigate \(the child process was killed by SIGKILL\)/);
      assert.match(textOf(heldResult), /may or may not have taken effect/);

      // Three calls find the child dead at once. Only one navigates: Playwright MCP runs calls
      // concurrently, and two navigations of the current tab would abort each other.
      const waiting = await Promise.all([
        bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/count` }),
        bridge.supervisor.callTool('browser_tabs', { action: 'list' }),
        bridge.supervisor.callTool('browser_tabs', { action: 'list' }),
      ]);
      assert.ok(!waiting[0].isError, textOf(waiting[0]));
      assert.match(textOf(waiting[0]), /page\.goto\('http:\/\/127\.0\.0\.1:\d+\/count'\)/);
      assert.strictEqual(bridge.supervisor.status.generation, generation + 1, 'one restart for all three');
      assert.strictEqual(
        waiting.filter(r => /earlier pages, tabs, form input and login state are gone/.test(textOf(r))).length,
        1,
        'exactly one of them tells the model the state was lost',
      );
      await new Promise(resolve => setTimeout(resolve, 500));
      assert.strictEqual(fixture.count('/count'), 1, 'the waiting navigation reached the page exactly once');
      assert.strictEqual(fixture.count('/hold'), 1, 'the call in flight when the child died was not replayed');
      await waitFor(() => oldTree.every(pid => !isAlive(pid)), 10000, 'the old tree to be gone');
    });
  });

  it('names what it tried and the fix when the browser is missing, without failing the child', async () => {
    const bridge = makeRealBridge({ executablePath: '/nonexistent/chromium' });
    try {
      const first = convertToolResult('browser_navigate', await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` }));
      const text = (first[0] as { text: string }).text;
      assert.match(text, /^The tool browser_navigate failed: .*Playwright Bridge could not start Chromium\./s);
      assert.match(text, /Tried: the executable path you set: \/nonexistent\/chromium/);
      assert.match(text, /Fix: Check the setting playwrightBridge.executablePath/);
      assert.strictEqual(bridge.supervisor.status.state, 'ready', 'the bridge itself stays up');
      const second = convertToolResult('browser_navigate', await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` }));
      assert.match((second[0] as { text: string }).text, /could not start Chromium/, 'a later call tries again and says the same');
    } finally {
      await bridge.dispose();
    }
  });

  it('keeps a persistent profile across restarts', async () => {
    const bridge = makeRealBridge({ profile: 'persistent' });
    try {
      assert.ok(bridge.config.userDataDir?.startsWith(bridge.scratch));
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      await bridge.supervisor.callTool('browser_run_code_unsafe', {
        code: "async (page) => { await page.evaluate(() => localStorage.setItem('kept', 'yes')); }",
      });
      await bridge.supervisor.restart('test');
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      const read = await bridge.supervisor.callTool('browser_run_code_unsafe', { code: "async (page) => page.evaluate(() => localStorage.getItem('kept'))" });
      assert.match(textOf(read), /yes/);
    } finally {
      const scratch = bridge.scratch;
      await bridge.dispose();
      assert.deepStrictEqual(processesMentioning(scratch), []);
    }
  });

  it('a call made during Restart Browser waits for the new browser and succeeds on the persistent profile', async () => {
    const bridge = makeRealBridge({ profile: 'persistent' });
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      for (let round = 1; round <= 3; round++) {
        const restart = bridge.supervisor.restart(`round ${round}`);
        await new Promise(resolve => setTimeout(resolve, 30));
        const during = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
        await restart;
        assert.ok(!during.isError, `round ${round}: ${textOf(during)}`);
        assert.match(textOf(during), /Page Title: Second Page/);
        assert.doesNotMatch(textOf(during), /in use|ProcessSingleton/);
      }
    } finally {
      const scratch = bridge.scratch;
      await bridge.dispose();
      assert.deepStrictEqual(processesMentioning(scratch), []);
    }
  });

  it("package.json lists exactly the tools the pinned child publishes, schemas included, and the host's own", async () => {
    const live = await collectToolManifest(CHILD_SCRIPT);
    const declared: ManifestTool[] = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools;
    assert.deepStrictEqual(
      diffManifests(
        live,
        declared.filter(t => !isHostTool(t.name)),
      ),
      [],
      'run npm run generate:tools',
    );
    assert.deepStrictEqual(
      diffManifests(
        ownToolDefinitions('host').map(t => manifestEntry(t, undefined)),
        declared.filter(t => isHostTool(t.name)),
      ),
      [],
      'run npm run generate:tools',
    );
    assert.ok(live.length > 0);
  });
});
