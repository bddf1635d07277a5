import type * as vscodeTypes from 'vscode';
import { isToolOffered, toolOffContextKey, ToolPolicySettings } from '../core/tools/toolPolicy';

/**
 * Hides the language-model tools the tool policy turns off: each manifest entry's `when` clause
 * holds `!playwrightBridge.toolOff.<name>`, and this sets those keys. Only changed keys are sent.
 */
export class ToolPolicyKeys {
  private readonly off = new Set<string>();

  constructor(private readonly vscode: typeof vscodeTypes, private readonly toolNames: readonly string[]) {}

  apply(policy: ToolPolicySettings): void {
    for (const name of this.toolNames) {
      const off = !isToolOffered(name, policy);
      if (off === this.off.has(name)) continue;
      if (off) this.off.add(name);
      else this.off.delete(name);
      void this.vscode.commands.executeCommand('setContext', toolOffContextKey(name), off);
    }
  }
}
