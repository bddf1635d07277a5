/**
 * The reviewer's origin entries (issue 42) on the whole extension as activate() builds it (the fake `vscode`, the
 * real child and Chromium, pages on 127.0.0.1 and on `*.localhost`, which Chromium resolves to loopback): a cloned
 * workspace's allowedOrigins entries that upstream would read wider than the bridge did, and a person's blocked
 * origin in upper case that upstream would not apply. What reaches the server decides.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startBridgeExtension } from '../../src/vscode/bridgeExtension';
import { FixtureServer } from '../fixtures/fixtureServer';
import { contextFor } from '../support/extensionContext';
import { CancellationTokenSource, createFakeVscode, LanguageModelTextPart } from '../support/fakeVscode';
import { TEST_BROWSER } from '../support/realBridge';

type Tool = { invoke(options: unknown, token: unknown): Promise<{ content: unknown[] }> };

describe("a cloned workspace's origin entries against the person's own, on a real child and Chromium (issue 42)", function () {
  this.timeout(180000);
  const site = new FixtureServer();
  before(() => site.start());
  after(() => site.stop());

  it('the workspace\'s "http://**.localhost:*" and "HTTP://*?.localhost:*" reach no page the person\'s list blocks, and the person\'s "HTTP://blocked.localhost:*" blocks', async () => {
    const port = new URL(site.url).port;
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-origins-'));
    const fake = createFakeVscode({
      settings: {
        'playwrightBridge.executablePath': TEST_BROWSER,
        'playwrightBridge.network.allowedOrigins': ['http://*.localhost:*'],
        'playwrightBridge.network.blockedOrigins': ['HTTP://blocked.localhost:*'],
      },
      // Two entries within the person's list (the page the test starts on, and the site the person blocks), and the two
      // the reviewer found; a workspace list left with no entry would allow nothing at all.
      workspaceSettings: {
        'playwrightBridge.network.allowedOrigins': ['http://app.localhost:*', 'http://blocked.localhost:*', 'http://**.localhost:*', 'HTTP://*?.localhost:*'],
      },
    });
    const extension = startBridgeExtension(fake.vscode, contextFor(storage));
    const call = async (name: string, input: Record<string, unknown>) => {
      const result = await (fake.tools.get(name) as Tool).invoke({ input }, new CancellationTokenSource().token);
      return result.content
        .filter((part): part is LanguageModelTextPart => part instanceof LanguageModelTextPart)
        .map(part => part.value)
        .join('\n');
    };
    try {
      // A page the person's list allows, from which the page's own requests are tried.
      const opened = await call('browser_navigate', { url: `http://app.localhost:${port}/calm` });
      assert.match(opened, /Page Title: Fixture Home/, opened);

      // `**` crosses `/` upstream (a path on 127.0.0.1 that holds ".localhost:1"); `HTTP://*?` is `http://*` there;
      // the upper-case blocked origin was a glob that matched nothing.
      const targets = [`http://127.0.0.1:${port}/x.localhost:1/secret-page`, `http://127.0.0.1:${port}/any/page`, `http://blocked.localhost:${port}/second`];
      const fetched = await call('browser_evaluate', {
        function: `async () => Promise.all(${JSON.stringify(targets)}.map(url => fetch(url, { mode: 'no-cors' }).then(() => 'reached ' + url, () => 'blocked ' + url)))`,
      });
      assert.deepStrictEqual(
        targets.map(url => (fetched.includes(`reached ${url}`) ? `reached ${url}` : `blocked ${url}`)),
        targets.map(url => `blocked ${url}`),
        fetched,
      );
      for (const pathname of ['/x.localhost:1/secret-page', '/any/page', '/second'])
        assert.strictEqual(site.count(pathname), 0, `${pathname} never reached the server`);

      // And the reviewer's navigation, last (a blocked navigation's error page may still commit after it).
      const secret = await call('browser_navigate', { url: targets[0] });
      assert.match(secret, /blocked by the origin rules/, secret);
      assert.strictEqual(site.count('/x.localhost:1/secret-page'), 0, 'the secret page was never reached');

      // The person is told which workspace entries were left out and why.
      const warned = fake.logLines.join('\n');
      assert.match(warned, /allowedOrigins in this workspace's settings holds "http:\/\/\*\*\.localhost:\*", which has "\*\*"/, warned);
      assert.match(warned, /allowedOrigins in this workspace's settings holds "HTTP:\/\/\*\?\.localhost:\*", which has "\?"/, warned);
      assert.doesNotMatch(warned, /blockedOrigins/, 'the upper-case blocked origin is read, not refused');
    } finally {
      await extension.dispose();
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
