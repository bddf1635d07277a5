/**
 * bridge_export_test: chat asks for the session as a Playwright test. The confirmation says exactly what
 * happens (which file is written, how many steps, that Playwright Test then runs it), and the answer
 * says whether it passed and where it failed.
 */
import type * as vscodeTypes from 'vscode';
import { EXPORT_TEST_TOOL } from '../core/tools/hostTools';
import { TestExport, VERIFY_REPEATS } from './exportTest';

type VSCode = typeof vscodeTypes;

interface ExportInput {
  title?: string;
  file?: string;
  lastSteps?: number;
}

class ExportTestTool implements vscodeTypes.LanguageModelTool<ExportInput> {
  constructor(private readonly vscode: VSCode, private readonly exporter: TestExport) {}

  prepareInvocation(options: vscodeTypes.LanguageModelToolInvocationPrepareOptions<ExportInput>): vscodeTypes.PreparedToolInvocation {
    const plan = this.exporter.plan({ ...options.input, byModel: true });
    if (plan.problem || !plan.file) return { invocationMessage: 'Exporting the browser session as a Playwright test' };
    const shown = this.exporter.shown(plan.file);
    const steps = plan.steps.filter(s => s.ok && s.answer.code.length).length;
    return {
      invocationMessage: `Exporting ${steps} browser steps to ${shown}`,
      confirmationMessages: {
        title: 'Export the browser session as a Playwright test?',
        message: new this.vscode.MarkdownString(
          `Writes **${shown}** from ${steps} step${steps === 1 ? '' : 's'} of this session (reads and failed calls leave nothing), opens it, ` +
          `and runs it ${VERIFY_REPEATS} times with Playwright Test, headless, in a browser of its own. A test that fails is renamed \`*.failing.spec.ts\`.`),
      },
    };
  }

  async invoke(options: vscodeTypes.LanguageModelToolInvocationOptions<ExportInput>, token: vscodeTypes.CancellationToken): Promise<vscodeTypes.LanguageModelToolResult> {
    const outcome = await this.exporter.run({ ...options.input, byModel: true, token });
    return new this.vscode.LanguageModelToolResult([new this.vscode.LanguageModelTextPart(outcome.text)]);
  }
}

export function registerExportTestTool(vscode: VSCode, exporter: TestExport): vscodeTypes.Disposable {
  return vscode.lm.registerTool(EXPORT_TEST_TOOL, new ExportTestTool(vscode, exporter));
}
