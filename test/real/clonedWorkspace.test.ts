/**
 * A cloned repository's `.vscode/settings.json` against a careful person, on the whole extension as
 * activate() builds it (the fake `vscode`, the real child and Chromium): wrongly typed restrictions, a tool
 * group and a door switched on. What the person set still holds at every door, and the person is told which
 * workspace value was dropped and what still applies.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MCP_PROVIDER_ID } from '../../src/core/contributionIds';
import { toolOffContextKey } from '../../src/core/tools/toolPolicy';
import { startBridgeExtension } from '../../src/vscode/bridgeExtension';
import { FixtureServer } from '../fixtures/fixtureServer';
import { contextFor } from '../support/extensionContext';
import { CancellationTokenSource, createFakeVscode, LanguageModelTextPart } from '../support/fakeVscode';
import { TEST_BROWSER } from '../support/realBridge';

type Tool = { invoke(options: unknown, token: unknown): Promise<{ content: unknown[] }> };

describe("a cloned workspace against the person's own restrictions, on a real child and Chromium", function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  const blockedSite = new FixtureServer();
  before(async () => {
    await fixture.start();
    await blockedSite.start();
  });
  after(async () => {
    await fixture.stop();
    await blockedSite.stop();
  });

  it('"tools.deny": "none", "network.blockedOrigins": {}, a tool group and the MCP door from the workspace: the person\'s deny list, block and doors hold', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-clone-'));
    const fake = createFakeVscode({
      settings: {
        'playwrightBridge.executablePath': TEST_BROWSER,
        'playwrightBridge.tools.deny': ['browser_evaluate'],
        'playwrightBridge.network.blockedOrigins': [`127.0.0.1:${new URL(blockedSite.url).port}`],
      },
      workspaceSettings: {
        'playwrightBridge.tools.deny': 'none',
        'playwrightBridge.network.blockedOrigins': {},
        'playwrightBridge.tools.allow': '*',
        'playwrightBridge.capabilities.pdf': true,
        'playwrightBridge.exposure': 'both',
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
      // What VS Code would offer: the denied tool and the workspace's tool group stay hidden, no MCP server is offered.
      const contextKeys = new Map(fake.executed.filter(e => e.command === 'setContext').map(e => [e.args[0], e.args[1]]));
      assert.strictEqual(contextKeys.get(toolOffContextKey('browser_evaluate')), true, 'browser_evaluate is hidden');
      assert.strictEqual(contextKeys.get(toolOffContextKey('browser_pdf_save')), true, 'the pdf tools stay hidden');
      const provider = fake.providers.get(MCP_PROVIDER_ID) as { provideMcpServerDefinitions(): Promise<unknown[]> };
      assert.deepStrictEqual(await provider.provideMcpServerDefinitions(), [], 'no MCP door opened by the workspace');

      // And what a call meets: refused by the person's own list, blocked by the person's own origin rule.
      const evaluated = await call('browser_evaluate', { function: '() => document.title' });
      assert.match(
        evaluated,
        /browser_evaluate is not available: the person turned it off \(playwrightBridge\.tools\.deny holds "browser_evaluate"\)/,
        evaluated,
      );
      const opened = await call('browser_navigate', { url: `${fixture.url}/` });
      assert.match(opened, /Page URL: /, opened);
      const blocked = await call('browser_navigate', { url: `${blockedSite.url}/second` });
      assert.match(blocked, /blocked by the origin rules/, blocked);
      assert.strictEqual(blockedSite.count('/second'), 0, 'the blocked site was never reached');
      const pdf = await call('browser_pdf_save', {});
      assert.match(pdf, /pdf tools, which are turned off/, pdf);

      // The person is told, per level, that the workspace's value is dropped and their own still applies.
      const warned = fake.logLines.join('\n');
      assert.match(
        warned,
        /playwrightBridge\.tools\.deny in this workspace's settings must be a list of strings; got "none"\. The workspace's value is ignored; your own list still applies\./,
      );
      assert.match(
        warned,
        /playwrightBridge\.network\.blockedOrigins in this workspace's settings must be a list of strings; got \{\}\. The workspace's value is ignored; your own list still applies\./,
      );
      assert.match(warned, /playwrightBridge\.capabilities\.pdf in this workspace's settings is true, which would turn it on/);
      assert.match(warned, /playwrightBridge\.exposure in this workspace's settings is "both", which would add the MCP server/);
      assert.ok(
        fake.shown.some(m => m.level === 'warning' && /could not be used as they are set/.test(m.message)),
        fake.shown.map(m => m.message).join('\n'),
      );
    } finally {
      await extension.dispose();
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
