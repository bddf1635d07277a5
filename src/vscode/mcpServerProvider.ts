import type * as vscodeTypes from 'vscode';
import { McpEndpoint, mcpDefinitionVersion } from '../core/mcpDoor/mcpEndpoint';
import { SETTINGS_SECTION } from '../core/contributionIds';
import type { Exposure } from '../core/settings/settings';

type VSCode = typeof vscodeTypes;

export const MCP_SERVER_LABEL = 'Playwright Bridge';

/**
 * Offers VS Code's MCP client our loopback endpoint while the exposure setting asks for it. The
 * definition's version names only what VS Code must reconnect to (address, token, exposure): VS
 * Code stops and restarts a server whose version changes, killing any call in flight. A changed
 * tool list travels on the live session as `notifications/tools/list_changed` instead.
 */
export class PlaywrightMcpServerProvider implements vscodeTypes.McpServerDefinitionProvider<vscodeTypes.McpHttpServerDefinition>, vscodeTypes.Disposable {
  private readonly changed: vscodeTypes.EventEmitter<void>;
  readonly onDidChangeMcpServerDefinitions: vscodeTypes.Event<void>;
  private readonly disposables: vscodeTypes.Disposable[] = [];

  /** `exposure`: the doors as the bridge reads its settings (a workspace may close a door, never open one). */
  constructor(
    private readonly vscode: VSCode,
    private readonly endpoint: McpEndpoint,
    private readonly doors: () => Exposure,
  ) {
    this.changed = new vscode.EventEmitter<void>();
    this.onDidChangeMcpServerDefinitions = this.changed.event;
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration(event => {
        if (event.affectsConfiguration(`${SETTINGS_SECTION}.exposure`)) this.changed.fire();
      }),
    );
  }

  get exposure(): Exposure {
    return this.doors();
  }

  async provideMcpServerDefinitions(): Promise<vscodeTypes.McpHttpServerDefinition[]> {
    if (this.exposure === 'languageModelTools') return [];
    return [await this.definition()];
  }

  async resolveMcpServerDefinition(server: vscodeTypes.McpHttpServerDefinition): Promise<vscodeTypes.McpHttpServerDefinition> {
    // The endpoint may have been closed since VS Code last asked (a reloaded extension host): make sure it listens.
    const current = await this.definition();
    server.uri = current.uri;
    server.headers = current.headers;
    return server;
  }

  private async definition(): Promise<vscodeTypes.McpHttpServerDefinition> {
    const address = await this.endpoint.start();
    return new this.vscode.McpHttpServerDefinition(
      MCP_SERVER_LABEL,
      this.vscode.Uri.parse(address.url),
      { Authorization: `Bearer ${address.token}` },
      mcpDefinitionVersion(address, this.exposure),
    );
  }

  dispose(): void {
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }
}

/**
 * Puts a ready configuration for MCP clients outside VS Code on the clipboard, after a warning:
 * whoever holds it controls the browser until this window closes.
 */
export async function copyMcpClientConfig(vscode: VSCode, endpoint: McpEndpoint): Promise<void> {
  const copy = 'Copy Configuration';
  const choice = await vscode.window.showWarningMessage(
    'Copy a configuration that lets an MCP client outside VS Code drive this browser?',
    {
      modal: true,
      detail:
        'It holds a secret token. Anyone who has it can control the browser (open pages, read what they show, type, run code in them, ' +
        'type your browser secrets on their sites, where code it runs can read them) without VS Code asking, while this window stays open. ' +
        'The endpoint listens on 127.0.0.1 only; a new token is made for every window.',
    },
    copy,
  );
  if (choice !== copy) return;
  const address = await endpoint.start();
  const config = { mcpServers: { 'playwright-bridge': { type: 'http', url: address.url, headers: { Authorization: `Bearer ${address.token}` } } } };
  await vscode.env.clipboard.writeText(`${JSON.stringify(config, null, 2)}\n`);
  void vscode.window.showInformationMessage(
    `MCP client configuration copied (endpoint ${address.url}). Paste it into your client's MCP settings; it works until this window closes.`,
  );
}
