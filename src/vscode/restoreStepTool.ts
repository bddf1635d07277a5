/**
 * bridge_restore_step: chat puts the browser back to an earlier step (to undo its own last steps). The
 * confirmation names the step and says what comes back and what does not; the answer says the same. The call
 * goes through the pipeline like every tool's (policy, readonly, the person's control, notes): this file
 * gives its presentation and its handler.
 */
import type * as vscodeTypes from 'vscode';
import type { HostToolAnswer } from '../core/pipeline/callContext';
import type { Supervisor } from '../core/supervision/supervisor';
import { RESTORE_STEP_TOOL } from '../core/tools/ownTools';
import { RESTORE_STEP } from '../core/tools/own/restoreStep';
import { NOT_RESTORED, stepFromEnd } from '../core/timeTravel/stepRestore';
import type { ToolPresenter } from './languageModelTools';
import type { TimeTravel } from './timeTravel';

type VSCode = typeof vscodeTypes;

type RestoreInput = Record<string, unknown>;

class RestoreStep {
  /** What the person confirmed: the input, the step it named then, and the newest step then (stepsBack counts from it). */
  private confirmed: { input: string; index: number | string; newest: number } | undefined;

  constructor(
    private readonly vscode: VSCode,
    private readonly timeTravel: TimeTravel,
  ) {}

  private newest(): number {
    return this.timeTravel.timeline.steps.at(-1)?.index ?? 0;
  }

  private target(input: RestoreInput): number | string {
    // Each argument as its definition types it (own/restoreStep.ts); which of the two is this tool's own rule.
    const parsed = RESTORE_STEP.parse(input);
    if ('badArgs' in parsed) return `${parsed.badArgs}.`;
    const { step, stepsBack } = parsed.args;
    if (step !== undefined && stepsBack !== undefined) return 'Give either step or stepsBack, not both.';
    return step ?? stepFromEnd(this.timeTravel.timeline, stepsBack ?? 1);
  }

  readonly present: ToolPresenter = input => {
    const index = this.target(input);
    this.confirmed = { input: JSON.stringify(input), index, newest: this.newest() };
    const step = typeof index === 'number' ? this.timeTravel.timeline.step(index) : undefined;
    if (!step) return { invocationMessage: 'Putting the browser back to an earlier step' };
    const where = step.page?.value.title || step.page?.value.url || 'its page';
    return {
      invocationMessage: `Putting the browser back to step ${index} (${where})`,
      confirmationMessages: {
        title: `Put the browser back to step ${index}?`,
        message: new this.vscode.MarkdownString(
          `Step ${index}: *${step.title.replace(/[*_`[\]\\<>]/g, '')}*. The browser's cookies, local and session storage and IndexedDB go back to how they were ` +
            `right after it, in one fresh tab at that step's address (other tabs close). What was done after it in the browser is undone; ${NOT_RESTORED}.`,
        ),
      },
    };
  };

  async answer(input: RestoreInput): Promise<HostToolAnswer> {
    // The step the person confirmed, not one counted again after the browser took more steps meanwhile.
    const confirmed = this.confirmed?.input === JSON.stringify(input) ? this.confirmed : undefined;
    this.confirmed = undefined;
    const index = confirmed ? confirmed.index : this.target(input);
    if (confirmed && input.stepsBack !== undefined && confirmed.newest !== this.newest()) {
      return {
        failed: true,
        text: `Not restored: the browser took ${this.newest() - confirmed.newest} more step(s) after the person confirmed, so "stepsBack" no longer names the step they saw. Ask again, or give "step".`,
      };
    }
    if (typeof index === 'string') return { failed: true, text: index };
    const outcome = await this.timeTravel.restore(index, 'tool');
    return { failed: !outcome.ok, text: outcome.text, ...(outcome.checkpoint ? { checkpoint: outcome.checkpoint } : {}) };
  }
}

/** The tool's presenter for the language-model door, and its handler in the supervisor's pipeline. */
export function restoreStepTool(
  vscode: VSCode,
  timeTravel: TimeTravel,
  supervisor: Supervisor,
): { presenter: ToolPresenter; disposable: vscodeTypes.Disposable } {
  const tool = new RestoreStep(vscode, timeTravel);
  return { presenter: tool.present, disposable: supervisor.registerHostTool(RESTORE_STEP_TOOL, args => tool.answer(args)) };
}
