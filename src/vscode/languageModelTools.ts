import type * as vscodeTypes from 'vscode';
import { ShownCodeFiles } from '../core/tools/codeFromFile';
import { presentInvocation } from '../core/results/invocationMessages';
import { convertToolResult } from '../core/pipeline/callResult';
import { CancelledError, Supervisor } from '../core/supervision/supervisor';
import { ManifestTool } from '../core/tools/toolManifest';
import { toolRecord } from '../core/tools/toolRegistry';

/** Where files go and come from: the output folder, and the workspace folders relative code paths start in. */
export interface FilePlaces {
  outputDir(): string;
  roots(): readonly string[];
  /** The names of the person's secrets: code run in the bridge's process could read their values, so its confirmation says so. */
  secretNames?(): readonly string[];
}

type VSCode = typeof vscodeTypes;
type Input = Record<string, unknown>;

/**
 * How a tool the host answers itself shows a call before it runs (what it will do, the person's confirmation),
 * in place of the words core/results/invocationMessages.ts has for the child's tools. The call itself goes
 * through the pipeline like every other.
 */
export type ToolPresenter = (input: Input) => vscodeTypes.PreparedToolInvocation;

/** One Playwright tool as a VS Code language-model tool: arguments go to the child as they are. */
export class PlaywrightLanguageModelTool implements vscodeTypes.LanguageModelTool<Input> {
  constructor(
    private readonly vscode: VSCode,
    private readonly entry: ManifestTool,
    private readonly supervisor: Supervisor,
    private readonly onResult: (name: string, isError: boolean) => void,
    private readonly places: FilePlaces,
    private readonly shownCode: ShownCodeFiles,
    private readonly presenter?: ToolPresenter,
  ) {}

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<Input>): vscodeTypes.PreparedToolInvocation {
    if (this.presenter) {
      const own = this.presenter(options.input ?? {});
      return this.supervisor.personHasControl
        ? { ...own, invocationMessage: `${String(own.invocationMessage)} (waiting: you have the browser; press Hand back in the browser panel)` }
        : own;
    }
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

  /** The code file of a call to a tool that runs code from a file (its record's `runsCode.fileArgument`), given a file and no code. */
  private codeFilename(input: Input | undefined): string | undefined {
    const runner = toolRecord(this.entry.name)?.runsCode;
    if (!runner?.fileArgument || !input) return undefined;
    const file = input[runner.fileArgument];
    return typeof file === 'string' && input[runner.argument] === undefined ? file : undefined;
  }

  async invoke(
    options: vscodeTypes.LanguageModelToolInvocationOptions<Input>,
    token: vscodeTypes.CancellationToken,
  ): Promise<vscodeTypes.LanguageModelToolResult> {
    const vscode = this.vscode;
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    try {
      // Every check, refusal and note is the call pipeline's (core/pipeline); this door only serializes the result.
      const result = await this.supervisor.callTool(this.entry.name, options.input, {
        signal: controller.signal,
        // Run exactly the text the confirmation showed, as code, so a file changed meanwhile cannot slip in.
        codeShown: filename => this.shownCode.take(filename, [this.places.outputDir()]),
      });
      this.onResult(this.entry.name, !!result.isError);
      const parts = convertToolResult(this.entry.name, result).map(part =>
        part.kind === 'text' ? new vscode.LanguageModelTextPart(part.text) : vscode.LanguageModelDataPart.image(part.data, part.mimeType),
      );
      return new vscode.LanguageModelToolResult(parts);
    } catch (error) {
      if (error instanceof CancelledError || token.isCancellationRequested) throw new vscode.CancellationError();
      throw error;
    } finally {
      subscription.dispose();
    }
  }
}

/**
 * Registers every tool the manifest declares (VS Code refuses names it does not declare), the host's own
 * with their presenters: every call goes through the supervisor's pipeline.
 */
export function registerLanguageModelTools(
  vscode: VSCode,
  manifest: ManifestTool[],
  supervisor: Supervisor,
  onResult: (name: string, isError: boolean) => void,
  places: FilePlaces,
  presenters: ReadonlyMap<string, ToolPresenter> = new Map(),
): vscodeTypes.Disposable[] {
  const shownCode = new ShownCodeFiles();
  return manifest.map(entry =>
    vscode.lm.registerTool(entry.name, new PlaywrightLanguageModelTool(vscode, entry, supervisor, onResult, places, shownCode, presenters.get(entry.name))),
  );
}
