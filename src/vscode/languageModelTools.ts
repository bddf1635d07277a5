import type * as vscodeTypes from 'vscode';
import { presentInvocation } from '../core/invocationMessages';
import { convertToolResult } from '../core/resultConversion';
import { CancelledError, Supervisor } from '../core/supervisor';
import { capabilityHint, ManifestTool } from '../core/toolManifest';

/** Which capability groups the settings turn on, and which the running browser server has. */
export interface CapabilityState {
  inSettings(): readonly string[];
  inRunningChild(): readonly string[] | undefined;
}

type VSCode = typeof vscodeTypes;
type Input = Record<string, unknown>;

/** One Playwright tool as a VS Code language-model tool: arguments go to the child as they are. */
export class PlaywrightLanguageModelTool implements vscodeTypes.LanguageModelTool<Input> {
  constructor(
    private readonly vscode: VSCode,
    private readonly entry: ManifestTool,
    private readonly supervisor: Supervisor,
    private readonly capabilities: CapabilityState,
    private readonly onResult: (name: string, isError: boolean) => void,
  ) {}

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<Input>): vscodeTypes.PreparedToolInvocation {
    const presentation = presentInvocation(this.entry.name, this.entry.displayName, options.input);
    return {
      invocationMessage: presentation.invocationMessage,
      confirmationMessages: presentation.confirmation && {
        title: presentation.confirmation.title,
        message: new this.vscode.MarkdownString(presentation.confirmation.message),
      },
    };
  }

  async invoke(options: vscodeTypes.LanguageModelToolInvocationOptions<Input>, token: vscodeTypes.CancellationToken): Promise<vscodeTypes.LanguageModelToolResult> {
    const vscode = this.vscode;
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    const hint = capabilityHint(this.entry, this.capabilities.inSettings(), this.capabilities.inRunningChild());
    if (hint) {
      // The child would only say "not found"; the person needs to know which setting to change.
      this.onResult(this.entry.name, true);
      subscription.dispose();
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`The tool ${this.entry.name} could not run: ${hint}`)]);
    }
    try {
      const result = await this.supervisor.callTool(this.entry.name, options.input, { signal: controller.signal });
      this.onResult(this.entry.name, !!result.isError);
      const parts = convertToolResult(this.entry.name, result).map(part =>
        part.kind === 'text' ? new vscode.LanguageModelTextPart(part.text) : vscode.LanguageModelDataPart.image(part.data, part.mimeType));
      return new vscode.LanguageModelToolResult(parts);
    } catch (error) {
      if (error instanceof CancelledError || token.isCancellationRequested) throw new vscode.CancellationError();
      this.onResult(this.entry.name, true);
      const message = error instanceof Error ? error.message : String(error);
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`The tool ${this.entry.name} could not run: ${message}`)]);
    } finally {
      subscription.dispose();
    }
  }
}

/** Registers every tool the manifest declares (VS Code refuses names it does not declare). */
export function registerLanguageModelTools(
  vscode: VSCode,
  manifest: ManifestTool[],
  supervisor: Supervisor,
  capabilities: CapabilityState,
  onResult: (name: string, isError: boolean) => void,
): vscodeTypes.Disposable[] {
  return manifest.map(entry => vscode.lm.registerTool(entry.name, new PlaywrightLanguageModelTool(vscode, entry, supervisor, capabilities, onResult)));
}
