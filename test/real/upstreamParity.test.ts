import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Browser } from 'playwright';
import { parseConnection } from '../../src/core/settings/browserConnection';
import { FixtureServer } from '../fixtures/fixtureServer';
import { makeRealBridge, openDoor, TEST_BROWSER, textOf } from '../support/realBridge';
import { CdpBrowser, PlaywrightServer, SERVER_LAUNCH_HEADERS } from '../support/remoteBrowsers';
import { PLACEHOLDER_SHOWN } from '../../src/core/egress/pagePlaceholders';

// The test's own Playwright, as a second program on the person's machine would be.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const playwright = require('playwright-core') as typeof import('playwright');

function connectionTo(endpoint: string, headers: Record<string, string> = {}) {
  const parsed = parseConnection(endpoint, headers, false);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.connection;
}

/** The file a result links under `label` (upstream's `- [Label](path)`). */
function linkOf(text: string, label: string): string {
  const link = new RegExp(`- \\[${label}\\]\\(([^)]+)\\)`).exec(text)?.[1];
  if (!link) throw new Error(`no "${label}" link in:\n${text}`);
  return link;
}

/** The JSON browser_get_config answers with. */
function configIn(text: string): {
  browser: {
    browserName?: string;
    cdpEndpoint?: string;
    remoteEndpoint?: string;
    launchOptions: Record<string, unknown> & { args: string[] };
    contextOptions: Record<string, unknown>;
  };
  secrets?: Record<string, string>;
} {
  const json = /### Result\n(\{[\s\S]*\n\})/.exec(text)?.[1];
  if (!json) throw new Error(`no config in:\n${text}`);
  return JSON.parse(json);
}

/**
 * What Playwright's own MCP tests expect of a tool call, through the bridge: each of these passed on
 * bare @playwright/mcp 0.0.83 and failed through the bridge (issue 20).
 */
describe('a tool call behaves as on bare @playwright/mcp (real child, Chromium)', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('keeps the trace where browser_stop_tracing links it, after the browser is gone too', async () => {
    const bridge = makeRealBridge({ capabilities: ['devtools'] });
    try {
      assert.ok(!(await bridge.supervisor.callTool('browser_start_tracing', {})).isError);
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      const stop = textOf(await bridge.supervisor.callTool('browser_stop_tracing', {}));
      const trace = linkOf(stop, 'Trace');
      assert.ok(trace.startsWith(path.join(bridge.config.mcp.outputDir, 'traces')), trace);
      await bridge.supervisor.callTool('browser_close', {});
      assert.ok(fs.existsSync(trace), `the trace the result links is there: ${trace}`);
      assert.match(fs.readFileSync(trace, 'utf8'), new RegExp(`${fixture.url}/second`), 'and it recorded the page');
      assert.ok(fs.existsSync(linkOf(stop, 'Network log')), 'and its network log');
    } finally {
      await bridge.dispose();
    }
  });

  it("keeps the trace of an MCP client's own context (isolation perClient) where the link says", async () => {
    const door = await openDoor({ capabilities: ['devtools'], isolation: 'perClient' });
    try {
      const client = await door.connect('tracer');
      assert.ok(!(await client.call('browser_start_tracing')).result.isError);
      await client.call('browser_navigate', { url: `${fixture.url}/second` });
      const trace = linkOf((await client.call('browser_stop_tracing')).text, 'Trace');
      assert.ok(fs.existsSync(trace), `the client's trace is there: ${trace}`);
      assert.match(fs.readFileSync(trace, 'utf8'), new RegExp(`${fixture.url}/second`));
    } finally {
      await door.dispose();
    }
  });

  it("shows pages no automation flag (navigator.webdriver is false), as upstream's Chromium launch does", async () => {
    const bridge = makeRealBridge();
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      const result = textOf(await bridge.supervisor.callTool('browser_evaluate', { function: '() => navigator.webdriver' }));
      assert.match(result, /### Result\nfalse\n/, result);
    } finally {
      await bridge.dispose();
    }
  });

  it("runs the extensions a persistent profile is given, as upstream's persistent launch does", async () => {
    // A one-line extension that marks every page: loaded only when the launch does not disable extensions.
    const extension = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-ext-'));
    fs.writeFileSync(
      path.join(extension, 'manifest.json'),
      JSON.stringify({
        manifest_version: 3,
        name: 'mark',
        version: '1',
        content_scripts: [{ matches: ['<all_urls>'], js: ['mark.js'], run_at: 'document_start' }],
      }),
    );
    fs.writeFileSync(path.join(extension, 'mark.js'), 'document.documentElement.setAttribute("data-extension", "ran");');
    const bridge = makeRealBridge({ profile: 'persistent', launchArgs: [`--load-extension=${extension}`] });
    try {
      await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/second` });
      const result = textOf(
        await bridge.supervisor.callTool('browser_evaluate', { function: '() => document.documentElement.getAttribute("data-extension")' }),
      );
      assert.match(result, /### Result\n"ran"\n/, result);
    } finally {
      await bridge.dispose();
      fs.rmSync(extension, { recursive: true, force: true });
    }
  });

  it("leaves the emulated media of the person's tab alone when it connects over CDP", async () => {
    const person = new CdpBrowser();
    await person.start();
    // The person's own tooling holds the tab's dark mode (CDP emulation lasts as long as its session).
    let own: Browser | undefined;
    const bridge = makeRealBridge({ connection: connectionTo(person.endpoint), capabilities: ['config'] });
    try {
      own = await playwright.chromium.connectOverCDP(person.endpoint, { noDefaults: true });
      const tab = own.contexts()[0].pages()[0];
      await tab.goto(`${fixture.url}/second`);
      const session = await own.contexts()[0].newCDPSession(tab);
      await session.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
      const dark = () => tab.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
      assert.strictEqual(await dark(), true, 'the person set dark mode');

      const nav = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(!nav.isError, textOf(nav));
      assert.strictEqual(await dark(), true, "the person's tab is still dark after the bridge connected");
      const config = configIn(textOf(await bridge.supervisor.callTool('browser_get_config', {})));
      assert.strictEqual(config.browser.cdpEndpoint, person.endpoint, 'browser_get_config names the browser it connected to');
    } finally {
      await own?.close();
      await bridge.dispose();
      person.stop();
    }
  });

  it("browser_get_config describes the browser the bridge runs, and never shows a secret's value", async () => {
    const value = 'pa"ss\\wd-7731/é';
    const bridge = makeRealBridge({ capabilities: ['config'] }, {}, { secrets: { SHOP_PASSWORD: { value, origins: [] } } });
    try {
      const text = textOf(await bridge.supervisor.callTool('browser_get_config', {}));
      const config = configIn(text);
      assert.strictEqual(config.browser.browserName, 'chromium');
      assert.strictEqual(config.browser.launchOptions.executablePath, TEST_BROWSER);
      assert.strictEqual(config.browser.launchOptions.channel, undefined, 'no "chrome" channel: Chromium runs by its path');
      assert.strictEqual(config.browser.launchOptions.headless, true);
      assert.strictEqual(config.browser.launchOptions.chromiumSandbox, bridge.config.chromiumSandbox);
      assert.ok(config.browser.launchOptions.args.includes('--disable-blink-features=AutomationControlled'), JSON.stringify(config.browser));
      assert.deepStrictEqual(config.browser.contextOptions.viewport, { width: 1280, height: 720 });
      // By name only; the placeholder is inert, like every placeholder in text that passes through upstream (core/egress/pagePlaceholders.ts).
      assert.deepStrictEqual(config.secrets, { SHOP_PASSWORD: `${PLACEHOLDER_SHOWN}SHOP_PASSWORD</secret>` }, 'secrets by name only');
      for (const shown of [value, JSON.stringify(value).slice(1, -1), 'pa"ss', 'wd-7731']) assert.ok(!text.includes(shown), `"${shown}" shown:\n${text}`);
    } finally {
      await bridge.dispose();
    }
  });

  it('browser_get_config names a Playwright server without its user name, password, token or credential header', async () => {
    const [user, password, token, header] = ['grid-user', 'Gr1d-pw-55', 'tok-9f31aa', 'hdr-cred-8812'];
    const server = new PlaywrightServer();
    await server.start();
    const endpoint = `ws://${user}:${password}@127.0.0.1:${server.port}/?token=${token}`;
    const bridge = makeRealBridge(
      { connection: connectionTo(endpoint, SERVER_LAUNCH_HEADERS), capabilities: ['config'] },
      {},
      { connectHeaders: { 'x-grid-key': header } },
    );
    try {
      const text = textOf(await bridge.supervisor.callTool('browser_get_config', {}));
      assert.strictEqual(configIn(text).browser.remoteEndpoint, `ws://***@127.0.0.1:${server.port}/?…`);
      for (const shown of [user, password, token, header]) assert.ok(!text.includes(shown), `"${shown}" shown:\n${text}`);
    } finally {
      await bridge.dispose();
      server.kill();
    }
  });

  it('says what a browser that fails to start printed, and blames no sandbox it did not mention', async () => {
    // Upstream's own test: a "browser" that prints a line and exits 1.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-bogus-'));
    const script = path.join(folder, 'bogus-browser.sh');
    fs.writeFileSync(script, '#!/bin/sh\necho "Bogus browser script"\nexit 1\n', { mode: 0o755 });
    const bridge = makeRealBridge({ executablePath: script });
    const states: string[] = [];
    const subscription = bridge.supervisor.onDidChangeHealth(health => states.push(JSON.stringify(health)));
    try {
      const result = await bridge.supervisor.callTool('browser_navigate', { url: `${fixture.url}/` });
      assert.ok(result.isError, textOf(result));
      assert.match(textOf(result), /The browser printed:\n {2}Bogus browser script\n/, textOf(result));
      assert.doesNotMatch(textOf(result), /sandbox/i, 'Chromium said nothing of its sandbox; only the echoed command line has --no-sandbox');
      assert.ok(
        states.some(state => state.includes('Bogus browser script')),
        `the panel shows it too: ${states.join('\n')}`,
      );
    } finally {
      subscription.dispose();
      await bridge.dispose();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
