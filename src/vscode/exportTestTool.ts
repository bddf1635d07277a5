/**
 * bridge_export_test: chat asks for the session as a Playwright test. The confirmation says exactly what
 * happens (which file is written, how many steps, that Playwright Test then runs it), and the answer says
 * whether it passed and where it failed. The call goes through the pipeline like every tool's: this file
 * gives its presentation and its handler.
 */
import type * as vscodeTypes from 'vscode';
import type { HostToolAnswer } from '../core/pipeline/callContext';
import type { Supervisor } from '../core/supervision/supervisor';
import { EXPORT_TEST_TOOL } from '../core/tools/ownTools';
import { EXPORT_TEST } from '../core/tools/own/exportTest';
import { TestExport, VERIFY_REPEATS } from './exportTest';
import type { ToolPresenter } from './languageModelTools';

type VSCode = typeof vscodeTypes;

/** The tool's presenter for the language-model door, and its handler in the supervisor's pipeline. */
export function exportTestTool(vscode: VSCode, exporter: TestExport, supervisor: Supervisor): { presenter: ToolPresenter; disposable: vscodeTypes.Disposable } {
  const presenter: ToolPresenter = input => {
    const parsed = EXPORT_TEST.parse(input);
    if ('badArgs' in parsed) return { invocationMessage: 'Exporting the browser session as a Playwright test' };
    const plan = exporter.plan({ ...parsed.args, byModel: true });
    if (plan.problem || !plan.file) return { invocationMessage: 'Exporting the browser session as a Playwright test' };
    const shown = exporter.shown(plan.file);
    const steps = plan.steps.filter(s => s.ok && s.answer.code.length).length;
    return {
      invocationMessage: `Exporting ${steps} browser steps to ${shown}`,
      confirmationMessages: {
        title: 'Export the browser session as a Playwright test?',
        message: new vscode.MarkdownString(
          `Writes **${shown}** from ${steps} step${steps === 1 ? '' : 's'} of this session (reads and failed calls leave nothing), opens it, ` +
            `and runs it ${VERIFY_REPEATS} times with Playwright Test, headless, in a browser of its own. A test that fails is renamed \`*.failing.spec.ts\`.`,
        ),
      },
    };
  };
  const answer = async (args: Record<string, unknown>, signal: AbortSignal | undefined): Promise<HostToolAnswer> => {
    // Each argument as its definition types it (own/exportTest.ts).
    const parsed = EXPORT_TEST.parse(args);
    if ('badArgs' in parsed) return { failed: true, text: `No test was written: ${parsed.badArgs}.` };
    const input = parsed.args;
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener('abort', onAbort);
    try {
      const outcome = await exporter.run({ ...input, byModel: true, token: cancel.token });
      // A test that was written but fails is an answer (where it failed); no test written is a failure of the call.
      return { failed: !outcome.written, text: outcome.text };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  };
  return { presenter, disposable: supervisor.registerHostTool(EXPORT_TEST_TOOL, (args, call) => answer(args, call.signal)) };
}
