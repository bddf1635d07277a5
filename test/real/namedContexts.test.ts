/**
 * A named context (@playwright/mcp 0.0.86: `browser_tabs` new with `isolatedContext`) is a context everywhere the
 * bridge shows or acts on one: the panel lists its tabs with its name and follows the agent into it, its console and
 * requests reach the panel, the bridge's own tools act on its tab, and under isolation `perClient` a second client
 * can neither list nor reach it. Real child, real Chromium, the fixture site.
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import type { ObservationEvent, TabInfo } from '../../src/protocol/childMessages';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, openDoor, textOf, waitFor } from '../support/realBridge';

describe('a named context (isolatedContext) is a context everywhere (real child, Chromium)', function () {
  this.timeout(240000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it("the panel lists its tab with its name and follows the agent into it; its console and requests are the panel's; the bridge's audit acts on it", async () => {
    const bridge = makeRealBridge();
    const events: ObservationEvent[] = [];
    bridge.supervisor.onObservation(event => events.push(event));
    const lastTabs = (): TabInfo[] => (events.filter(event => event.kind === 'tabs').at(-1) as { tabs: TabInfo[] } | undefined)?.tabs ?? [];
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` }, { door: 'tool' });
      const opened = await bridge.supervisor.callTool(
        'browser_tabs',
        { action: 'new', url: `${fixture.url}/console-lab`, isolatedContext: 'alice' },
        { door: 'tool' },
      );
      assert.match(textOf(opened), /isolatedContext: alice/, textOf(opened));
      await waitFor(
        () => lastTabs().length === 2 && lastTabs()[1].current,
        20000,
        () => `the panel's tabs: ${JSON.stringify(lastTabs())}`,
      );
      const [own, named] = lastTabs();
      assert.strictEqual(own.context, undefined, JSON.stringify(own));
      assert.strictEqual(named.context, 'alice', JSON.stringify(named));
      assert.match(named.url, /\/console-lab$/);
      assert.ok(!own.current, 'the panel still shows the first tab as the one the agent works in');

      const consoleTexts = () => events.flatMap(event => (event.kind === 'console' ? [event.entry.text] : []));
      await waitFor(
        () => consoleTexts().some(text => /save failed: HTTP 503/.test(text)),
        20000,
        () => `console: ${JSON.stringify(consoleTexts())}`,
      );
      const requested = events.flatMap(event => (event.kind === 'network' ? [event.entry.url] : []));
      assert.ok(
        requested.some(url => url.endsWith('/console-lab.js')),
        `the named tab's script is not in the panel's requests: ${requested.join(', ')}`,
      );

      // The bridge's own tool on the current tab: the named one, not the first.
      const audit = textOf(await bridge.supervisor.callTool('bridge_accessibility_audit', {}, { door: 'tool' }));
      assert.match(audit, /Console Lab|console-lab/, audit);
      assert.doesNotMatch(audit, /Fixture Home/, audit);

      // Back to the first tab: the panel follows, and the named tab keeps its name.
      await bridge.supervisor.callTool('browser_tabs', { action: 'select', index: 0 }, { door: 'tool' });
      await waitFor(
        () => lastTabs()[0]?.current === true,
        20000,
        () => JSON.stringify(lastTabs()),
      );
      assert.strictEqual(lastTabs()[1].context, 'alice');
    } finally {
      await bridge.dispose();
    }
  });

  it("attacked by a second client (perClient): B cannot list, select, audit or open A's named context by its name", async () => {
    const d = await openDoor({ isolation: 'perClient' });
    try {
      const a = await d.connect('owner-a');
      const b = await d.connect('attacker-b');
      const sid = `sid-${randomBytes(8).toString('hex')}`;
      const signedIn = await a.call('browser_tabs', { action: 'new', url: `${fixture.url}/session-login?sid=${sid}`, isolatedContext: 'bank' });
      assert.match(signedIn.text, /Signed In/, signedIn.text);
      await b.call('browser_navigate', { url: `${fixture.url}/` });

      const listed = await b.call('browser_tabs', { action: 'list' });
      assert.doesNotMatch(listed.text, /session-login|bank/, `B lists A's named tab: ${listed.text}`);
      const selected = await b.call('browser_tabs', { action: 'select', index: 1 });
      assert.ok(selected.result.isError, `B selected a tab it does not have: ${selected.text}`);
      // The same name in B is B's own, fresh context, not a way into A's.
      const same = await b.call('browser_tabs', { action: 'new', url: `${fixture.url}/`, isolatedContext: 'bank' });
      assert.doesNotMatch(same.text, /Signed In|session-login/, `B's "bank" shows A's tab: ${same.text}`);
      const sessions = await b.call('bridge_session_list');
      assert.doesNotMatch(sessions.text, /session-login|Signed In/, `B's session list shows A's named tab: ${sessions.text}`);
      const audit = await b.call('bridge_accessibility_audit');
      assert.doesNotMatch(audit.text, /Signed In|session-login/, `B's audit reached A's named tab: ${audit.text}`);

      // A still has it, signed in.
      const aList = await a.call('browser_tabs', { action: 'list' });
      assert.match(aList.text, /Signed In.*isolatedContext: bank/, aList.text);
    } finally {
      await d.dispose();
    }
  });
});
