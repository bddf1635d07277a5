/**
 * Secrets made of every printable ASCII character, typed on their own site, whose page then spreads them
 * into every place a browser writes text (a URL's path, query and fragment, replaceState, the title, a
 * cookie, headers, bodies, the console, user timing, an attribute), on a real child and Chromium. Every
 * output is then decoded every way by the tests' own decoders (test/support/secretSpellings.ts, written
 * apart from the mask): answers at both doors, the panel's events and Activity, the HAR, the trace file
 * and the other files, the exported test, the log and the copies (cURL, fetch, Add to Chat).
 * `npm run harden` counts each output as an attack of its `egress` section.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { toChatMarkdown, toCurl, toFetch } from '../../src/core/liveView/requestCopies';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import { writeSpec } from '../../src/core/testExport/specWriter';
import { bankSite } from '../fixtures/secretSites';
import { connectMcpClient, makeRealBridge, refOf, textOf, waitFor, type RealBridge } from '../support/realBridge';
import { ASCII_SECRETS, LEGACY_SECRET, reveals } from '../support/secretSpellings';

/** The secrets: every printable ASCII character in two orders, and one past ASCII that a legacy page writes in its own charset. */
const SECRETS: Record<string, string> = { ...ASCII_SECRETS, LEGACY: LEGACY_SECRET };

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(entry => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

describe('secrets of every printable ASCII character, spread by their own site into everything a browser writes (real child and Chromium)', function () {
  this.timeout(240000);
  const bank = bankSite();
  let bridge: RealBridge;
  let store: LiveViewStore;
  let endpoint: McpEndpoint;
  let journal: StepJournal;
  let mcp: Client | undefined;
  const outputs: Record<string, string[]> = {};
  const panelEvents: string[] = [];
  const activity: string[] = [];

  before(async () => {
    await bank.start();
    const sites = [bank.url];
    bridge = makeRealBridge({}, {}, { secrets: Object.fromEntries(Object.entries(SECRETS).map(([name, value]) => [name, { value, origins: sites }])) });
    store = new LiveViewStore(bridge.supervisor, () => 'Chromium');
    endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
    journal = new StepJournal(bridge.supervisor, () => false);
    store.onMessage(message => panelEvents.push(JSON.stringify(message)));
    bridge.supervisor.onObservation(event => {
      if (event.kind !== 'frame') panelEvents.push(JSON.stringify(event));
    });
    bridge.supervisor.onToolCall(record => activity.push(JSON.stringify({ ...record, thumbnail: undefined })));
    bridge.supervisor.setLiveView({ enabled: true, maxWidth: 320, maxHeight: 320 });

    // What the Network pane holds now, saved as HAR and each request opened and copied (the list starts again on a new page).
    const sitesByName = Object.fromEntries(Object.keys(SECRETS).map(name => [name, sites]));
    outputs.HAR = [];
    outputs['request details and the copies (cURL, fetch, Add to Chat)'] = [];
    const networkOutputs = async () => {
      const ids = store.snapshot().network.flatMap(row => ('id' in row ? [row.id] : []));
      outputs.HAR.push((await bridge.supervisor.ask('har', { version: '0.0.0-test', ids })).har);
      for (const id of ids) {
        // A row the observer no longer keeps (the panel says so when it is opened) has nothing to copy.
        const detail = await bridge.supervisor.ask('requestDetail', { id }).catch(() => undefined);
        if (detail)
          outputs['request details and the copies (cURL, fetch, Add to Chat)'].push(
            JSON.stringify(detail),
            toCurl(detail, sitesByName),
            toFetch(detail),
            toChatMarkdown(detail),
          );
      }
    };
    const answers: string[] = [];
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await bridge.supervisor.callTool(name, args, { door: 'tool' });
      answers.push(textOf(result));
      return textOf(result);
    };
    await call('browser_navigate', { url: `${bank.url}/spread` });
    const form = await call('browser_snapshot');
    await call('browser_type', { element: 'First', target: refOf(form, /textbox "First"/), text: 'ASCII_IN_ORDER' });
    await call('browser_type', { element: 'Second', target: refOf(form, /textbox "Second"/), text: 'ASCII_SCRAMBLED' });
    // The spreading is traced: its user-timing marks and requests go into the trace file.
    await call('bridge_performance_trace', { during: 'nextCall' });
    await call('browser_click', { element: 'Spread', target: refOf(form, /button "Spread"/) });
    await call('browser_wait_for', { text: 'Spread', time: 20 });
    await waitFor(() => bank.requests.filter(r => r.path.startsWith('/api/text')).length === 2, 20000, 'the page to send its text bodies');
    const spread = await call('browser_snapshot');
    // A click on the button named with a value: the code Playwright writes for it quotes that name.
    await call('browser_click', { element: 'Copy', target: refOf(spread, /button "Copy /) });
    await call('browser_console_messages', { level: 'debug' });
    const requests = await call('browser_network_requests', {});
    for (const index of [...requests.matchAll(/^(\d+)\. /gm)].map(m => Number(m[1]))) {
      await call('browser_network_request', { index });
      await call('browser_network_request', { index, part: 'request-body' });
    }
    await call('browser_tabs', { action: 'list' });
    await call('bridge_accessibility_audit', {});
    await networkOutputs();
    const copied = outputs['request details and the copies (cURL, fetch, Add to Chat)'].length / 4;
    assert.ok(copied >= 8, `the page's requests could be opened and copied: ${copied}`);
    // The legacy page: its form sends the value in windows-1252, its script logs it through escape() and btoa().
    await call('browser_navigate', { url: `${bank.url}/legacy` });
    const legacy = await call('browser_snapshot');
    await call('browser_type', { element: 'Password', target: refOf(legacy, /textbox "Password"/), text: 'LEGACY', submit: true });
    await call('browser_wait_for', { text: 'Sent', time: 20 });
    await call('browser_console_messages', { level: 'debug' });
    await call('browser_network_requests', {});
    await call('browser_tabs', { action: 'list' });
    await call('browser_network_requests', { filename: 'requests-check.md' });
    await networkOutputs();
    outputs['answers at the language-model door'] = answers;

    mcp = await connectMcpClient(await endpoint.start(), 'spellings');
    const mcpAnswers: string[] = [];
    for (const [name, args] of [
      ['browser_snapshot', {}],
      ['browser_console_messages', { level: 'debug' }],
      ['browser_network_requests', {}],
      ['browser_tabs', { action: 'list' }],
      ['bridge_accessibility_audit', {}],
    ] as const) {
      mcpAnswers.push(textOf((await mcp.callTool({ name, arguments: args })) as CallToolResult));
    }
    outputs['answers at the MCP door'] = mcpAnswers;

    outputs['the exported test'] = [
      writeSpec(journal.steps, {
        title: 'spread',
        readSnapshot: () => undefined,
        readUpload: () => undefined,
        secretNames: Object.keys(SECRETS),
      }).text,
    ];
    panelEvents.push(JSON.stringify(store.snapshot()));
  });

  after(async () => {
    await mcp?.close().catch(() => undefined);
    await endpoint?.dispose();
    journal?.dispose();
    store?.dispose();
    await bridge?.dispose();
    await bank.stop();
  });

  it('the page really spread the values: the site received each in its URLs, headers and bodies', () => {
    const received = bank.requests.map(r => `${r.path}${r.query} ${r.body}`).join('\n');
    for (const [name, secret] of Object.entries(SECRETS)) assert.ok(reveals(received, secret), `the bank received ${name}`);
    const legacyForm = bank.requests.find(r => r.path === '/legacy-done');
    assert.ok(
      legacyForm && /%E4/.test(legacyForm.query) && !/%C3/.test(legacyForm.query),
      `the legacy form was sent in windows-1252, not UTF-8: ${legacyForm?.query}`,
    );
  });

  const places: [string, () => string[]][] = [
    ['answers at the language-model door', () => outputs['answers at the language-model door']],
    ['answers at the MCP door', () => outputs['answers at the MCP door']],
    ["the panel's events (tabs, console, network)", () => panelEvents],
    ['Activity (every call as recorded)', () => activity],
    ['Save all as HAR', () => outputs.HAR],
    ['the trace file and every other file the bridge wrote', () => filesUnder(bridge.config.mcp.outputDir).map(file => fs.readFileSync(file, 'utf8'))],
    ['the exported test', () => outputs['the exported test']],
    ['the log', () => bridge.logs],
    ['request details and the copies (cURL, fetch, Add to Chat)', () => outputs['request details and the copies (cURL, fetch, Add to Chat)']],
  ];
  for (const [place, texts] of places) {
    it(`${place}: no secret decodes out of it, however it was written`, () => {
      const all = texts();
      assert.ok(all.length > 0 && all.some(text => text.length > 0), `${place} holds something to search`);
      for (const [name, secret] of Object.entries(SECRETS)) {
        const leaked = all.find(text => reveals(text, secret));
        assert.strictEqual(leaked, undefined, `${name} decodes out of ${place}: …${leaked?.slice(0, 600)}`);
      }
    });
  }

  it('masked, not merely absent: the places that held the values name the secrets', () => {
    for (const place of ['answers at the language-model door', 'HAR'] as const) {
      for (const name of Object.keys(ASCII_SECRETS))
        assert.ok(
          outputs[place].some(text => text.includes(`<secret>${name}</secret>`)),
          `${place} names ${name}`,
        );
    }
    assert.ok(
      filesUnder(bridge.config.mcp.outputDir).some(file => /\.json$/.test(file) && fs.readFileSync(file, 'utf8').includes('<secret>ASCII_IN_ORDER</secret>')),
      'the trace file holds the user-timing mark as its placeholder',
    );
  });
});
