/**
 * npm test after the build: the plain-Node suites (unit and real-browser), then the suite inside a
 * real VS Code, then one closing line with the totals of both.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import Mocha from 'mocha';
import { REPO_ROOT } from './realBridge';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.js') ? [full] : [];
  }).sort();
}

async function runNodeSuites(): Promise<Counts> {
  const mocha = new Mocha({ timeout: 120000, reporter: 'spec' });
  for (const dir of ['unit', 'real']) for (const file of findTests(path.join(REPO_ROOT, 'out', 'test', dir))) mocha.addFile(file);
  return new Promise(resolve => {
    const runner = mocha.run(() => resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, skipped: runner.stats?.pending ?? 0 }));
  });
}

function runVsCodeSuite(): Counts {
  const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-results-')), 'integration.json');
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'out', 'test', 'vscode', 'runIntegration.js')], {
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_BRIDGE_RESULTS_FILE: resultsFile },
  });
  let counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  if (fs.existsSync(resultsFile)) counts = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Counts;
  fs.rmSync(path.dirname(resultsFile), { recursive: true, force: true });
  // A suite that never reported (VS Code did not start, the run timed out) is a failure, not zero tests.
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

async function main(): Promise<void> {
  const node = await runNodeSuites();
  const vscode = runVsCodeSuite();
  const passed = node.passed + vscode.passed;
  const failed = node.failed + vscode.failed;
  const skipped = node.skipped + vscode.skipped;
  console.log('');
  console.log(`plain Node: ${node.passed} passed, ${node.failed} failed; real VS Code: ${vscode.passed} passed, ${vscode.failed} failed`);
  console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed || passed === 0 ? 1 : 0);
}

void main();
