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
import { packageVsix } from '../vsix/packageVsix';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Titles of the failed tests, repeated at the very end: CI shows only the tail of a long log. */
  failures?: string[];
}

function findTests(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap(entry => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findTests(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    })
    .sort();
}

/** The message's first lines, enough to name what differed, short enough for a log's tail. */
function tailOf(message: string): string {
  const lines = message
    .split('\n')
    .filter(line => line.trim())
    .slice(0, 30)
    .map(line => line.slice(0, 300));
  return lines.join('\n    ');
}

async function runNodeSuites(): Promise<Counts> {
  const mocha = new Mocha({ timeout: 120000, reporter: 'spec' });
  for (const dir of ['unit', 'real']) for (const file of findTests(path.join(REPO_ROOT, 'out', 'test', dir))) mocha.addFile(file);
  return new Promise(resolve => {
    const failures: string[] = [];
    const runner = mocha.run(() =>
      resolve({ passed: runner.stats?.passes ?? 0, failed: runner.stats?.failures ?? 0, skipped: runner.stats?.pending ?? 0, failures }),
    );
    runner.on('fail', (test, error: Error) => failures.push(`${test.fullTitle()}: ${tailOf(String(error?.message ?? error))}`));
  });
}

function runVsCodeSuite(extraEnv: NodeJS.ProcessEnv = {}): Counts {
  const resultsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-results-')), 'integration.json');
  const run = spawnSync(process.execPath, [path.join(REPO_ROOT, 'out', 'test', 'vscode', 'runIntegration.js')], {
    stdio: 'inherit',
    env: { ...process.env, ...extraEnv, PLAYWRIGHT_BRIDGE_RESULTS_FILE: resultsFile },
  });
  let counts: Counts = { passed: 0, failed: 0, skipped: 0 };
  if (fs.existsSync(resultsFile)) counts = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as Counts;
  fs.rmSync(path.dirname(resultsFile), { recursive: true, force: true });
  // A suite that never reported (VS Code did not start, the run timed out) is a failure, not zero tests.
  if (run.status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/**
 * The VSIX as people get it: packed and checked against the allow-list and size (one check, counted
 * as one test), then installed into VS Code and the whole suite run against it (skipped, and counted
 * so, where only a desktop VS Code is used: installing a VSIX needs the server host).
 */
async function runVsixSuites(): Promise<Counts> {
  console.log('\n[vsix] packaging the extension and running the suite against the installed VSIX');
  const { file, problems } = await packageVsix();
  const packaged: Counts = { passed: problems.length ? 0 : 1, failed: problems.length ? 1 : 0, skipped: 0 };
  console.log(
    problems.length
      ? `  ✗ the VSIX holds only allowed files and is under 8 MB:\n    ${problems.join('\n    ')}`
      : '  ✔ the VSIX holds only allowed files and is under 8 MB',
  );
  if (!fs.existsSync(file)) {
    console.log('[vsix] no VSIX was written: the installed-VSIX run is skipped');
    return { ...packaged, skipped: 1 };
  }
  if (process.env.PLAYWRIGHT_BRIDGE_VSCODE === 'desktop') {
    console.log('[vsix] SKIPPED: the installed-VSIX run needs the code-server host (PLAYWRIGHT_BRIDGE_VSCODE=desktop was asked for)');
    return { ...packaged, skipped: 1 };
  }
  const installed = runVsCodeSuite({ PLAYWRIGHT_BRIDGE_VSIX: file, PLAYWRIGHT_BRIDGE_VSCODE: 'server' });
  return { passed: packaged.passed + installed.passed, failed: packaged.failed + installed.failed, skipped: installed.skipped };
}

async function main(): Promise<void> {
  const node = await runNodeSuites();
  const vscode = runVsCodeSuite();
  const vsix = await runVsixSuites();
  const passed = node.passed + vscode.passed + vsix.passed;
  const failed = node.failed + vscode.failed + vsix.failed;
  const skipped = node.skipped + vscode.skipped + vsix.skipped;
  console.log('');
  console.log(
    `plain Node: ${node.passed} passed, ${node.failed} failed; real VS Code: ${vscode.passed} passed, ${vscode.failed} failed; VSIX (package check + installed run): ${vsix.passed} passed, ${vsix.failed} failed${vsix.skipped ? `, ${vsix.skipped} skipped` : ''}`,
  );
  for (const failure of node.failures ?? []) console.log(`failed (plain Node): ${failure}`);
  console.log(`tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed || passed === 0 ? 1 : 0);
}

void main();
