/**
 * The whole extension, as VS Code's activate() builds it, started in plain Node against the fake `vscode`
 * (test/support/fakeVscode.ts) with the real child and a real Chromium: what it registers, a chat tool call
 * and an MCP client's call on the same browser, and a stop that leaves no process behind. The real-VS-Code
 * suite (test/integration) is the smaller one; this one needs no editor.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isAlive, listDescendants } from '../../src/core/childProcess/processTree';
import { MCP_PROVIDER_ID, PANEL_VIEW_ID } from '../../src/core/contributionIds';
import { startBridgeExtension } from '../../src/vscode/bridgeExtension';
import { FixtureServer } from '../fixtures/fixtureServer';
import { CancellationTokenSource, createFakeVscode, LanguageModelTextPart, McpHttpServerDefinition, Uri } from '../support/fakeVscode';
import { contextFor } from '../support/extensionContext';
import { REPO_ROOT, TEST_BROWSER, waitFor } from '../support/realBridge';

const packageJson = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));

describe('the whole extension started against a fake vscode, on a real child and Chromium', () => {
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('registers every tool, command, the MCP server and the panel; chat and an MCP client drive one browser; stopping leaves nothing running', async () => {
    const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-front-'));
    const fake = createFakeVscode({ settings: { 'playwrightBridge.executablePath': TEST_BROWSER } });
    const extension = startBridgeExtension(fake.vscode, contextFor(storage));
    let client: Client | undefined;
    try {
      // What VS Code would show: every declared tool and command has its handler, the MCP server and the panel their providers.
      const declaredTools: string[] = packageJson.contributes.languageModelTools.map((tool: { name: string }) => tool.name);
      assert.deepStrictEqual([...fake.tools.keys()].sort(), [...declaredTools].sort());
      const declaredCommands: string[] = packageJson.contributes.commands.map((command: { command: string }) => command.command);
      assert.deepStrictEqual(
        declaredCommands.filter(command => !fake.commands.has(command)),
        [],
        'every command in package.json has a handler',
      );
      assert.ok(fake.providers.has(MCP_PROVIDER_ID), 'the MCP server definition provider is registered');
      assert.ok(fake.viewProviders.has(PANEL_VIEW_ID), 'the browser panel view is registered');
      assert.ok(
        fake.statusBarItems.some(item => item.shown),
        'the status bar item shows',
      );
      assert.strictEqual(extension.api.childPid, undefined, 'nothing starts before the first call');
      assert.ok(
        fake.logLines.some(line => /Activated in .* tools registered/.test(line)),
        fake.logLines.join('\n'),
      );

      // Chat's tool, as VS Code invokes it: the browser starts and opens the page.
      const navigate = fake.tools.get('browser_navigate') as { invoke(options: unknown, token: unknown): Promise<{ content: unknown[] }> };
      const result = await navigate.invoke({ input: { url: `${fixture.url}/` } }, new CancellationTokenSource().token);
      const text = result.content
        .filter((part): part is LanguageModelTextPart => part instanceof LanguageModelTextPart)
        .map(part => part.value)
        .join('\n');
      assert.match(text, /Page URL: http:\/\/127\.0\.0\.1:\d+\//, text);
      const pid = extension.api.childPid;
      assert.ok(pid, 'the child runs after the first call');
      const tree = [pid!, ...listDescendants(pid!)];

      // An MCP client, through the definition VS Code's MCP client would resolve: the same browser, on the same page.
      const provider = fake.providers.get(MCP_PROVIDER_ID) as { resolveMcpServerDefinition(server: McpHttpServerDefinition): Promise<McpHttpServerDefinition> };
      const server = await provider.resolveMcpServerDefinition(new McpHttpServerDefinition('Playwright Bridge', Uri.parse('http://127.0.0.1:1/mcp'), {}));
      client = new Client({ name: 'front-door-test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.uri.toString()), { requestInit: { headers: server.headers } }));
      const snapshot = (await client.callTool({ name: 'browser_snapshot', arguments: {} })) as { content: { type: string; text?: string }[] };
      assert.match(snapshot.content.map(part => part.text ?? '').join('\n'), new RegExp(`Page URL: ${fixture.url.replace(/\./g, '\\.')}/`));
      await client.close();
      client = undefined;

      await extension.dispose();
      await waitFor(
        () => tree.every(p => !isAlive(p)),
        10000,
        () => `the child and its browser to be gone: ${tree.filter(isAlive).join(', ')} still run`,
      );
    } finally {
      await client?.close().catch(() => undefined);
      await extension.dispose();
      fs.rmSync(storage, { recursive: true, force: true });
    }
  });
});
