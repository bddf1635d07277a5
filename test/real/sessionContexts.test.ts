/**
 * A session's contexts (src/child/sessionContexts.ts) on a real Chromium shared by two sessions, as isolation
 * `perClient` shares one: what a session opens through the browser its own context answers is claimed as its own,
 * in the order its tabs open; what another session opens is not; and its named contexts close with it while the
 * other's stay. The named context reached by the real child and a second MCP client is in namedContexts.test.ts.
 */
import * as assert from 'assert';
import { SessionContexts } from '../../src/child/sessionContexts';
import { TEST_BROWSER } from '../support/realBridge';

// The test's own Playwright, as the child's: a browser shared by two sessions' contexts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const playwright = require('playwright-core') as typeof import('playwright');

describe("a session's contexts in a browser it shares (real Chromium)", function () {
  this.timeout(120000);

  it("claims what the session opens through its own context's browser, in tab order; never another session's; closes only its own", async () => {
    const browser = await playwright.chromium.launch({ executablePath: TEST_BROWSER, args: ['--no-sandbox'] });
    try {
      const a = new SessionContexts(await browser.newContext());
      const b = new SessionContexts(await browser.newContext());
      const first = await a.main.newPage();
      // As upstream opens a named context: from the context it was handed.
      const named = await a.main.browser()!.newContext();
      const second = await named.newPage();
      a.callEnded('alice');
      const third = await a.main.newPage();
      const theirs = await (await b.main.browser()!.newContext()).newPage();
      b.callEnded('alice');

      assert.deepStrictEqual(a.contexts(), [a.main, named]);
      assert.deepStrictEqual(a.pages(), [first, second, third], "upstream's tab order: the order the tabs opened, across contexts");
      assert.deepStrictEqual([a.contextName(first), a.contextName(second), a.contextName(third)], [undefined, 'alice', undefined]);
      assert.ok(!a.pages().includes(theirs) && !a.contexts().includes(theirs.context()), "B's named context is not A's");
      // A context opened from a named one is the session's too (its browser() is the same view).
      const nested = await named.browser()!.newContext();
      assert.ok(a.contexts().includes(nested));
      // A call that names a context upstream already has opens none: the one code opened meanwhile keeps no name.
      a.callEnded('alice');
      assert.strictEqual(a.contextName(await nested.newPage()), undefined);
      assert.strictEqual(a.named('alice'), named);

      const seen: string[] = [];
      a.onPage(page => seen.push(page.url()));
      assert.strictEqual(seen.length, 4, 'the pages already open are handed over at once');
      await (await named.newPage()).goto('about:blank#later');
      assert.strictEqual(seen.length, 5, 'and each one opened later');

      await a.closeNamed();
      assert.deepStrictEqual(a.contexts(), [a.main], "A's named contexts closed with it");
      assert.ok(!theirs.isClosed() && b.contexts().length === 2, "B's stayed open");
      assert.ok(browser.contexts().includes(a.main), "A's own context is closed by whoever opened it, not here");
    } finally {
      await browser.close();
    }
  });
});
