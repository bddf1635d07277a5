import * as assert from 'assert';
import { BrowserObserver } from '../../src/child/browserObserver';
import { SessionContexts } from '../../src/child/sessionContexts';
import { ObservationEvent } from '../../src/protocol/childMessages';
import { FixtureServer } from '../fixtures/fixtureServer';
import { TEST_BROWSER } from '../support/realBridge';

// The test's own Playwright: the observer is the child's, watching a real Chromium.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const playwright = require('playwright-core') as typeof import('playwright');

/**
 * What the bridge keeps per call or per page must not grow with a long session (issue 21): each
 * structure here stays the same size after many calls.
 */
describe('a long session keeps nothing per call (real Chromium)', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('the live view follows only open requests: after 40 page loads it holds none that ended', async () => {
    const browser = await playwright.chromium.launch({ executablePath: TEST_BROWSER, args: ['--no-sandbox'] });
    const sent: ObservationEvent[] = [];
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const observer = new BrowserObserver(new SessionContexts(context), {
        send: event => sent.push(event),
        congested: () => false,
        viewport: { width: 1280, height: 720 },
        screencast: false,
        engine: 'chromium',
        originRules: false,
        log: () => undefined,
      });
      for (let i = 0; i < 40; i++) {
        await page.goto(`${fixture.url}/`, { waitUntil: 'networkidle' });
      }
      const requests = sent.filter(event => event.kind === 'network').length;
      assert.ok(requests >= 80, `the page's requests were followed (${requests} events)`);
      assert.ok(observer.requestsInFlight <= 2, `${observer.requestsInFlight} requests still followed after 40 loads`);
      await observer.dispose();
    } finally {
      await browser.close();
    }
  });
});
