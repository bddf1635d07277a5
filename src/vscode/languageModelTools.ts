import type * as vscodeTypes from 'vscode';
import { ShownCodeFiles } from '../core/tools/codeFromFile';
import { presentInvocation } from '../core/results/invocationMessages';
import { convertToolResult } from '../core/results/resultConversion';
import { CancelledError, Supervisor } from '../core/supervision/supervisor';
import { capabilityHint, ManifestTool } from '../core/tools/toolManifest';

/** Where files go and come from: the output folder, and the workspace folders relative code paths start in. */
export interface FilePlaces {
  outputDir(): string;
  roots(): readonly string[];
  /** The names of the person's secrets: code run in the bridge's process could read their values, so its confirmation says so. */
  secretNames?(): readonly string[];
}

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
    private readonly places: FilePlaces,
    private readonly shownCode: ShownCodeFiles,
  ) {}

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<Input>): vscodeTypes.PreparedToolInvocation {
    const codeFilename = this.codeFilename(options.input);
    const presentation = presentInvocation(this.entry.name, this.entry.displayName, options.input, {
      outputDir: this.places.outputDir(),
      codeFile: codeFilename === undefined ? undefined : this.shownCode.show(codeFilename, [this.places.outputDir()]),
      secretNames: this.places.secretNames?.(),
    });
    return {
      // While the person has the browser the call waits for them: say so where chat shows the call.
      invocationMessage: this.supervisor.personHasControl
        ? `${presentation.invocationMessage} (waiting: you have the browser; press Hand back in the browser panel)`
        : presentation.invocationMessage,
      confirmationMessages: presentation.confirmation && {
        title: presentation.confirmation.title,
        message: new this.vscode.MarkdownString(presentation.confirmation.message),
      },
    };
  }

  /** The code file of a `browser_run_code_unsafe` call that gives a file and no code. */
  private codeFilename(input: Input | undefined): string | undefined {
    if (this.entry.name !== 'browser_run_code_unsafe' || !input || typeof input.filename !== 'string' || input.code !== undefined) return undefined;
    return input.filename;
  }

  async invoke(
    options: vscodeTypes.LanguageModelToolInvocationOptions<Input>,
    token: vscodeTypes.CancellationToken,
  ): Promise<vscodeTypes.LanguageModelToolResult> {
    const vscode = this.vscode;
    const codeFilename = this.codeFilename(options.input);
    let input = options.input;
    if (codeFilename !== undefined) {
      // Run exactly the text the confirmation showed, as code, so a file changed meanwhile cannot slip in.
      const taken = this.shownCode.take(codeFilename, [this.places.outputDir()]);
      if ('error' in taken) {
        this.onResult(this.entry.name, true);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`The tool ${this.entry.name} did not run: ${taken.error}`)]);
      }
      const { filename: _file, ...rest } = options.input;
      input = { ...rest, code: taken.code };
    }
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
      const result = await this.supervisor.callTool(this.entry.name, input, { signal: controller.signal });
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
  places: FilePlaces,
): vscodeTypes.Disposable[] {
  const shownCode = new ShownCodeFiles();
  return manifest.map(entry =>
    vscode.lm.registerTool(entry.name, new PlaywrightLanguageModelTool(vscode, entry, supervisor, capabilities, onResult, places, shownCode)));
}
