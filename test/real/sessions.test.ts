import * as assert from 'assert';
import { ObservationEvent } from '../../src/protocol/childMessages';
import { BridgeSettings } from '../../src/core/settings/settings';
import { FixtureServer } from '../fixtures/fixtureServer';
import { openDoor, textOf, waitFor } from '../support/realBridge';

/** A bridge behind its MCP door, and a way to connect named clients to it. */
function door(overrides: Partial<BridgeSettings>, sessionIdleMs?: number) {
  return openDoor(overrides, sessionIdleMs ? { sessionIdleMs } : {});
}

const cookieOf = '() => document.cookie';

describe('sessions: isolation per MCP client on a real child and Chromium', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it("perClient: cookies, tabs and navigations of two clients stay apart, and chat keeps the window's context", async () => {
    const d = await door({ isolation: 'perClient' });
    try {
      const a = await d.connect('agent-a');
      const b = await d.connect('agent-b');
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      await b.call('browser_navigate', { url: `${fixture.url}/` });
      await a.call('browser_evaluate', { function: '() => { document.cookie = "who=A; path=/"; return document.cookie; }' });
      assert.match((await a.call('browser_evaluate', { function: cookieOf })).text, /who=A/);
      assert.doesNotMatch((await b.call('browser_evaluate', { function: cookieOf })).text, /who=A/, "B does not see A's cookie");
      const windowCookie = await d.bridge.supervisor.callTool('browser_evaluate', { function: cookieOf }, { door: 'tool' });
      assert.doesNotMatch(textOf(windowCookie), /who=A/, "chat's tools (the window) do not see it either");

      await a.call('browser_tabs', { action: 'new', url: `${fixture.url}/second` });
      assert.match((await a.call('browser_tabs', { action: 'list' })).text, /Second Page/);
      const bTabs = (await b.call('browser_tabs', { action: 'list' })).text;
      assert.doesNotMatch(bTabs, /Second Page/, `B sees only its own tabs: ${bTabs}`);

      // A's navigation waits on a held response while B navigates: neither aborts the other.
      const held = a.call('browser_navigate', { url: `${fixture.url}/hold` });
      await waitFor(() => fixture.count('/hold') === 1, 10000, "A's request to reach the fixture");
      const bNav = await b.call('browser_navigate', { url: `${fixture.url}/form` });
      assert.ok(!bNav.result.isError, bNav.text);
      fixture.release();
      const aNav = await held;
      assert.ok(!aNav.result.isError, `A's navigation finished: ${aNav.text}`);
      assert.match(aNav.text, /Released/);

      const list = (await a.call('bridge_session_list')).text;
      assert.match(list, /Isolation is "perClient"/);
      assert.match(list, /client "agent-a"\), yours/);
      assert.doesNotMatch(list, /agent-b|^- window/m, `A sees only its own session: ${list}`);
      assert.match(list, /^2 other sessions/m, "and a count of the others (B's and the window's)");
      const all = textOf(await d.bridge.supervisor.callTool('bridge_session_list', {}, { door: 'tool' }));
      assert.match(all, /client "agent-a"\)[\s\S]*client "agent-b"\)/, `chat's tools see every session: ${all}`);
      assert.match(all, /^- window \(chat's tools\), yours/m);
    } finally {
      await d.dispose();
    }
  });

  it("perClient: an idle client's context closes (its next call is told), and a client that leaves takes its context along", async () => {
    const d = await door({ isolation: 'perClient' }, 1500);
    try {
      const a = await d.connect('idle-a');
      const b = await d.connect('leaving-b');
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      await a.call('browser_evaluate', { function: '() => { document.cookie = "kept=1; path=/"; }' });
      await b.call('browser_navigate', { url: `${fixture.url}/second` });
      await b.transport.terminateSession();
      await b.client.close();
      await waitFor(() => d.bridge.logs.some(line => /client "leaving-b"\) closed: its MCP client left/.test(line)), 10000, "B's context closed when B left");

      await waitFor(() => d.bridge.logs.some(line => /client "idle-a"\) closed: idle for over/.test(line)), 10000, "A's context closed after its idle time");
      const observer = await d.connect('observer');
      const list = (await observer.call('bridge_session_list')).text;
      assert.doesNotMatch(list, /idle-a|leaving-b/, `their contexts are gone: ${list}`);

      const after = await a.call('browser_evaluate', { function: cookieOf });
      assert.match(after.text, /state was lost|was closed/i, `A is told its context was closed: ${after.text}`);
      assert.doesNotMatch(after.text, /kept=1/, 'a fresh context, without the old cookie');
    } finally {
      await d.dispose();
    }
  });

  it("perClient: a client closes only its own session; chat's tools may close a client's; the window's cannot be closed this way", async () => {
    const d = await door({ isolation: 'perClient' });
    try {
      const a = await d.connect('closer');
      const b = await d.connect('closed');
      await b.call('browser_navigate', { url: `${fixture.url}/second` });
      const bId = b.transport.sessionId!;
      const refused = await a.call('bridge_session_close', { id: bId.slice(0, 8) });
      assert.ok(refused.result.isError && /can close only its own session/.test(refused.text), refused.text);
      assert.match((await b.call('browser_tabs', { action: 'list' })).text, /Second Page/, 'B kept its context');
      const windowClose = await a.call('bridge_session_close', { id: 'window' });
      assert.ok(windowClose.result.isError && /only its own session/.test(windowClose.text), windowClose.text);

      const all = textOf(await d.bridge.supervisor.callTool('bridge_session_list', {}, { door: 'tool' }));
      const short = /^- (\S+) \(client "closed"\)/m.exec(all)?.[1];
      assert.strictEqual(short, bId.slice(0, 8), `chat sees B by its short id: ${all}`);
      const closed = textOf(await d.bridge.supervisor.callTool('bridge_session_close', { id: short }, { door: 'tool' }));
      assert.match(closed, /Closed session/);
      assert.match((await b.call('browser_tabs', { action: 'list' })).text, /closed .*bridge_session_close/i, 'B is told on its next call');

      const own = await b.call('bridge_session_close', { id: bId });
      assert.match(own.text, /Closed your session/, own.text);
    } finally {
      await d.dispose();
    }
  });

  it('perClient: the panel lists the sessions, shows the one the person picks, and falls back to the window when it closes', async () => {
    const d = await door({ isolation: 'perClient' });
    try {
      const events: ObservationEvent[] = [];
      d.bridge.supervisor.onObservation(event => events.push(event));
      d.bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });
      await d.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` }, { door: 'tool' });
      const a = await d.connect('watched-agent');
      await a.call('browser_navigate', { url: `${fixture.url}/second` });
      const sessionsNow = () =>
        (events.filter(e => e.kind === 'sessions').at(-1) as Extract<ObservationEvent, { kind: 'sessions' }> | undefined)?.sessions ?? [];
      await waitFor(() => sessionsNow().length === 2, 5000, 'the client in the session list');
      const agent = sessionsNow().find(s => s.label.includes('watched-agent'))!;
      assert.ok(agent && !agent.watched && sessionsNow()[0].watched, JSON.stringify(sessionsNow()));
      // Before the switch the panel hears nothing of the client's page.
      const tabsOf = () => (events.filter(e => e.kind === 'tabs').at(-1) as Extract<ObservationEvent, { kind: 'tabs' }>).tabs;
      assert.deepStrictEqual(
        tabsOf().map(t => t.title),
        ['Fixture Home'],
      );

      const from = events.length;
      d.bridge.supervisor.tell('watchContext', { sessionId: agent.id });
      await waitFor(() => tabsOf().some(t => t.title === 'Second Page'), 5000, "the client's tabs on the panel");
      await waitFor(() => events.slice(from).some(e => e.kind === 'frame'), 5000, 'a frame of the client page');
      assert.ok(sessionsNow().find(s => s.id === agent.id)?.watched, 'the list says which session is watched');
      // The window's own calls go on without reaching the panel while it watches the client.
      const quietFrom = events.length;
      await d.bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/form` }, { door: 'tool' });
      assert.ok(
        !events.slice(quietFrom).some(e => e.kind === 'tabs' && e.tabs.some(t => t.title === 'Guest Book')),
        'no window tabs while watching the client',
      );

      await a.transport.terminateSession();
      await waitFor(() => sessionsNow().length === 1 && sessionsNow()[0].watched, 5000, 'back to the window when the client left');
      await waitFor(() => tabsOf().some(t => t.title === 'Guest Book'), 5000, "the window's tabs again");
    } finally {
      await d.dispose();
    }
  });

  it('shared (the default): every client drives the one context, as before', async () => {
    const d = await door({});
    try {
      const a = await d.connect('shared-a');
      const b = await d.connect('shared-b');
      await a.call('browser_navigate', { url: `${fixture.url}/` });
      await a.call('browser_evaluate', { function: '() => { document.cookie = "who=shared; path=/"; }' });
      assert.match((await b.call('browser_evaluate', { function: cookieOf })).text, /who=shared/);
      assert.match((await a.call('bridge_session_list')).text, /Isolation is "shared"/);
      const refused = await a.call('bridge_session_close', { id: 'whatever1' });
      assert.ok(refused.result.isError && /one session/.test(refused.text), refused.text);
    } finally {
      await d.dispose();
    }
  });
});
