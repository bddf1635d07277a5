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
  constructor(private readonly vscode: VSCode, private readonly timeTravel: TimeTravel) {}

  private target(input: RestoreInput): number | string {
    if (input.step !== undefined && input.stepsBack !== undefined) return 'Give either step or stepsBack, not both.';
    if (input.step !== undefined) return Number.isInteger(input.step) && input.step >= 1 ? input.step : 'step must be a whole number from 1.';
    const back = input.stepsBack ?? 1;
    if (!Number.isInteger(back) || back < 1) return 'stepsBack must be a whole number from 1.';
    return stepFromEnd(this.timeTravel.timeline, back);
  }

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<RestoreInput>): vscodeTypes.PreparedToolInvocation {
    const index = this.target(options.input);
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
    const index = this.target(options.input);
    const outcome = typeof index === 'string' ? { text: index } : await this.timeTravel.restore(index, 'tool');
    return new this.vscode.LanguageModelToolResult([new this.vscode.LanguageModelTextPart(outcome.text)]);
  }
}

export function registerRestoreStepTool(vscode: VSCode, timeTravel: TimeTravel): vscodeTypes.Disposable {
  return vscode.lm.registerTool(RESTORE_STEP_TOOL, new RestoreStepTool(vscode, timeTravel));
}
