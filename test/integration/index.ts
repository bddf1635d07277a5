/** Entry that VS Code's extension host calls for the integration suite (extensionTestsPath). */
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';
import { SUITE_LINE_MARK } from '../vscode/suiteOutput';

/**
 * The installed VSIX ships panel.js without the tests' describe hook; the suite reads the panel through it,
 * so it puts the test bundle beside the installed one (the panel picks panel-test.js when it is there).
 */
function addPanelTestHook(): void {
  if (process.env.PLAYWRIGHT_BRIDGE_EXPECT_INSTALLED !== '1') return;
  const installed = vscode.extensions.getExtension(EXTENSION_ID);
  if (!installed) throw new Error(`${EXTENSION_ID} is not installed`);
  const target = path.join(installed.extensionPath, 'dist', 'webview', 'panel-test.js');
  if (fs.existsSync(target)) throw new Error('The installed VSIX holds panel-test.js: the test hook must not ship');
  fs.copyFileSync(path.join(__dirname, '..', '..', '..', 'dist', 'webview', 'panel-test.js'), target);
}

export function run(): Promise<void> {
  addPanelTestHook();
  const mocha = new Mocha({ ui: 'bdd', timeout: 180000, color: false, reporter: 'spec', grep: process.env.MOCHA_GREP });
  // The runner opens a window per group of files (PLAYWRIGHT_BRIDGE_SUITE_FILES) and names them in order;
  // every file must belong to some window, or it would silently never run.
  const known = ['extension.test.js', 'panel.test.js', 'chat.test.js', 'shutdown.test.js', 'panelBench.test.js'];
  const files = fs.readdirSync(__dirname).filter(f => f.endsWith('.test.js'));
  const unknown = files.filter(f => !known.includes(f));
  if (unknown.length) throw new Error(`Add ${unknown.join(', ')} to a window in test/vscode/runIntegration.ts and to the list in test/integration/index.ts`);
  const wanted = (process.env.PLAYWRIGHT_BRIDGE_SUITE_FILES ?? known.join(',')).split(',');
  for (const file of wanted) {
    if (!files.includes(file)) throw new Error(`The window asks for ${file}, which was not built`);
    mocha.addFile(path.join(__dirname, file));
  }
  // Mocha's report carries a mark (the tests print through helpers' note(), which marks too), so the
  // launcher can show it and put VS Code's own log lines in a file instead of between the results.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const write = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => write(`${SUITE_LINE_MARK}${format(...args)}`);
  return new Promise((resolve, reject) => {
    const runner = mocha.run(failures => {
      // The runner outside VS Code adds these to its closing totals.
      const resultsFile = process.env.PLAYWRIGHT_BRIDGE_RESULTS_FILE;
      if (resultsFile) {
        const stats = runner.stats;
        fs.writeFileSync(resultsFile, JSON.stringify({ passed: stats?.passes ?? 0, failed: stats?.failures ?? 0, skipped: stats?.pending ?? 0 }));
      }
      if (failures) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
  });
}
