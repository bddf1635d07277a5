/** Entry that VS Code's extension host calls for the integration suite (extensionTestsPath). */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 180000, color: false, reporter: 'spec', grep: process.env.MOCHA_GREP });
  // In this order: the extension's own checks (from a cold start), chat driving it, then shutdown.
  const order = ['extension.test.js', 'chat.test.js', 'shutdown.test.js'];
  const files = fs.readdirSync(__dirname).filter(f => f.endsWith('.test.js'));
  const unknown = files.filter(f => !order.includes(f));
  if (unknown.length) throw new Error(`Add ${unknown.join(', ')} to the suite order in test/integration/index.ts`);
  for (const file of order.filter(f => files.includes(f))) mocha.addFile(path.join(__dirname, file));
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
