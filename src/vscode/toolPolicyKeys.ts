import type * as vscodeTypes from 'vscode';
import type { BridgeSettings } from '../core/settings/settings';
import { isToolEnabled, type ManifestTool } from '../core/tools/toolManifest';
import { isToolOffered, toolOffContextKey, ToolPolicySettings } from '../core/tools/toolPolicy';

/**
 * Hides the language-model tools the bridge does not offer: each manifest entry's `when` clause holds
 * `!playwrightBridge.toolOff.<name>`, and this sets those keys. A tool is off when the tool policy turns it
 * off, or when the settings as the bridge reads them leave its group or chat's door closed: VS Code's own
 * `config.` clauses see a workspace's value as it is, which may not open a group or a door (scopePolicy.ts).
 * Only changed keys are sent.
 */
export class ToolPolicyKeys {
  private readonly off = new Set<string>();

  constructor(
    private readonly vscode: typeof vscodeTypes,
    private readonly tools: readonly Pick<ManifestTool, 'name' | 'when'>[],
  ) {}

  apply(policy: ToolPolicySettings, settings: Pick<BridgeSettings, 'capabilities' | 'exposure'>): void {
    for (const tool of this.tools) {
      const off = !isToolOffered(tool.name, policy) || !isToolEnabled(tool, settings.capabilities, settings.exposure);
      if (off === this.off.has(tool.name)) continue;
      if (off) this.off.add(tool.name);
      else this.off.delete(tool.name);
      void this.vscode.commands.executeCommand('setContext', toolOffContextKey(tool.name), off);
    }
  }
}
