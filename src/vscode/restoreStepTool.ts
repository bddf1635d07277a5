/**
 * bridge_restore_step: chat puts the browser back to an earlier step (to undo its own last steps). The
 * confirmation names the step and says what comes back and what does not; the answer says the same.
 */
import type * as vscodeTypes from 'vscode';
import { RESTORE_STEP_TOOL } from '../core/tools/hostTools';
import { NOT_RESTORED, stepFromEnd } from '../core/timeTravel/stepRestore';
import type { TimeTravel } from './timeTravel';

type VSCode = typeof vscodeTypes;

interface RestoreInput {
  step?: number;
  stepsBack?: number;
}

class RestoreStepTool implements vscodeTypes.LanguageModelTool<RestoreInput> {
  /** What the person confirmed: the input, the step it named then, and the newest step then (stepsBack counts from it). */
  private confirmed: { input: string; index: number | string; newest: number } | undefined;

  constructor(private readonly vscode: VSCode, private readonly timeTravel: TimeTravel) {}

  private newest(): number {
    return this.timeTravel.timeline.steps.at(-1)?.index ?? 0;
  }

  private target(input: RestoreInput): number | string {
    if (input.step !== undefined && input.stepsBack !== undefined) return 'Give either step or stepsBack, not both.';
    if (input.step !== undefined) return Number.isInteger(input.step) && input.step >= 1 ? input.step : 'step must be a whole number from 1.';
    const back = input.stepsBack ?? 1;
    if (!Number.isInteger(back) || back < 1) return 'stepsBack must be a whole number from 1.';
    return stepFromEnd(this.timeTravel.timeline, back);
  }

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<RestoreInput>): vscodeTypes.PreparedToolInvocation {
    const index = this.target(options.input);
    this.confirmed = { input: JSON.stringify(options.input), index, newest: this.newest() };
    const step = typeof index === 'number' ? this.timeTravel.timeline.step(index) : undefined;
    if (!step) return { invocationMessage: 'Putting the browser back to an earlier step' };
    const where = step.page?.value.title || step.page?.value.url || 'its page';
    return {
      invocationMessage: `Putting the browser back to step ${index} (${where})`,
      confirmationMessages: {
        title: `Put the browser back to step ${index}?`,
        message: new this.vscode.MarkdownString(
          `Step ${index}: *${step.title.replace(/[*_`[\]\\<>]/g, '')}*. The browser's cookies, local and session storage and IndexedDB go back to how they were ` +
          `right after it, in one fresh tab at that step's address (other tabs close). What was done after it in the browser is undone; ${NOT_RESTORED}.`),
      },
    };
  }

  async invoke(options: vscodeTypes.LanguageModelToolInvocationOptions<RestoreInput>): Promise<vscodeTypes.LanguageModelToolResult> {
    // The step the person confirmed, not one counted again after the browser took more steps meanwhile.
    const confirmed = this.confirmed?.input === JSON.stringify(options.input) ? this.confirmed : undefined;
    this.confirmed = undefined;
    const index = confirmed ? confirmed.index : this.target(options.input);
    if (confirmed && options.input.stepsBack !== undefined && confirmed.newest !== this.newest()) {
      return new this.vscode.LanguageModelToolResult([new this.vscode.LanguageModelTextPart(
        `Not restored: the browser took ${this.newest() - confirmed.newest} more step(s) after the person confirmed, so "stepsBack" no longer names the step they saw. Ask again, or give "step".`)]);
    }
    const outcome = typeof index === 'string' ? { text: index } : await this.timeTravel.restore(index, 'tool');
    return new this.vscode.LanguageModelToolResult([new this.vscode.LanguageModelTextPart(outcome.text)]);
  }
}

export function registerRestoreStepTool(vscode: VSCode, timeTravel: TimeTravel): vscodeTypes.Disposable {
  return vscode.lm.registerTool(RESTORE_STEP_TOOL, new RestoreStepTool(vscode, timeTravel));
}
