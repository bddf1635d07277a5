/**
 * Runs an exported test with Playwright Test itself, headless, each run from a cold browser: the
 * workspace's own `@playwright/test` when the workspace is trusted and has one (the test runs where it
 * was written), otherwise the Playwright Test that ships with the bridge (the same Playwright its browser
 * server uses; nothing is downloaded) on a copy in the bridge's own folder, so no code of the workspace
 * runs. No language model and no bridge process take part: it is plain Playwright.
 *
 * Our own config is used, never the workspace's: the bridge's browser, headless, timeouts, a JSON report.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { killTree } from '../childProcess/processTree';

export interface SpecRun {
  /** Runs made (the test times --repeat-each). */
  runs: number;
  passed: number;
  failed: number;
  /** Each run's status in the order they ran (one worker runs the repeats one after another). */
  statuses: string[];
  /** The first failure: its line in the test file, when Playwright names one, and its message. */
  firstFailure?: { line?: number; message: string };
  /** Which runner ran it. */
  runner: 'workspace' | 'bundled';
  durationMs: number;
}

export interface RunnerChoice {
  kind: 'workspace' | 'bundled';
  /** Playwright's command-line script. */
  cli: string;
}

export interface RunOptions {
  /** The test file as written. */
  specFile: string;
  runner: RunnerChoice;
  /** A folder of the bridge's own (global storage), for the copy, the config and the report. */
  workDir: string;
  /** The browser to launch (the bridge's): its path, or a channel (chrome, msedge). */
  executablePath?: string;
  channel?: string;
  browser?: 'chromium' | 'firefox' | 'webkit';
  repeatEach: number;
  /** Extra environment (secrets the test reads, BASE_URL). */
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** Gives up after this long. */
  timeoutMs?: number;
  /** Where relative paths in the test resolve (a login profile's copy): the workspace folder, as `npx playwright test` there. */
  cwd?: string;
}

/** The bundled Playwright Test: the `playwright` package the browser server itself runs on. */
export function bundledRunner(): RunnerChoice {
  // cli.js is not in the package's exports: found beside its package.json.
  return { kind: 'bundled', cli: path.join(path.dirname(require.resolve('playwright/package.json')), 'cli.js') };
}

/** The workspace's own Playwright Test, when the workspace is trusted and has one installed. */
export function chooseRunner(workspaceFolder: string | undefined, trusted: boolean): RunnerChoice {
  if (trusted && workspaceFolder) {
    const cli = path.join(workspaceFolder, 'node_modules', '@playwright', 'test', 'cli.js');
    if (fs.existsSync(cli)) return { kind: 'workspace', cli };
  }
  return bundledRunner();
}

interface JsonReport {
  suites?: JsonSuite[];
  errors?: { message?: string }[];
}
interface JsonSuite {
  suites?: JsonSuite[];
  specs?: { tests?: { results?: { status?: string; error?: { message?: string; location?: { file?: string; line?: number } } }[] }[] }[];
}

function* resultsOf(
  suites: JsonSuite[] | undefined,
): Generator<{ status?: string; error?: { message?: string; location?: { file?: string; line?: number } } }> {
  for (const suite of suites ?? []) {
    for (const spec of suite.specs ?? []) for (const t of spec.tests ?? []) yield* t.results ?? [];
    yield* resultsOf(suite.suites);
  }
}

/** Playwright's messages carry terminal colours. */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * What the run inherits of the editor's environment: enough to start a browser and find temporary folders,
 * nothing else. A test reads secrets from its environment, and the editor's may hold tokens of the person's:
 * the run gets only the secrets it was granted (RunOptions.env), and no BASE_URL that would send it elsewhere.
 */
function runnerEnvironment(): Record<string, string> {
  const keep = [
    'PATH',
    'HOME',
    'USERPROFILE',
    'TEMP',
    'TMP',
    'TMPDIR',
    'SystemRoot',
    'windir',
    'LANG',
    'LC_ALL',
    'DISPLAY',
    'WAYLAND_DISPLAY',
    'XDG_RUNTIME_DIR',
    'XDG_CACHE_HOME',
    'PLAYWRIGHT_BROWSERS_PATH',
    'LOCALAPPDATA',
    'APPDATA',
    'PROGRAMFILES',
    'ProgramFiles',
    'ProgramFiles(x86)',
  ];
  const env: Record<string, string> = {};
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  return env;
}

export async function runSpec(options: RunOptions): Promise<SpecRun> {
  const started = Date.now();
  fs.mkdirSync(options.workDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(options.workDir, 'run-'));
  try {
    let testDir = path.dirname(options.specFile);
    let testFile = path.basename(options.specFile);
    const env: Record<string, string> = { ...runnerEnvironment(), ...options.env, CI: '1', FORCE_COLOR: '0' };
    if (options.runner.kind === 'bundled') {
      // A copy in our own folder, where `@playwright/test` resolves to the bundled runner and nothing of
      // the workspace's (its node_modules, its config) is found.
      testDir = path.join(work, 'tests');
      fs.mkdirSync(testDir);
      testFile = path.basename(options.specFile);
      fs.copyFileSync(options.specFile, path.join(testDir, testFile));
      const shim = path.join(work, 'node_modules', '@playwright', 'test');
      fs.mkdirSync(shim, { recursive: true });
      fs.writeFileSync(path.join(shim, 'package.json'), JSON.stringify({ name: '@playwright/test', main: 'index.js' }));
      // The runner's own copy of playwright/test: two copies in one run refuse to work together.
      fs.writeFileSync(path.join(shim, 'index.js'), `module.exports = require(${JSON.stringify(path.join(path.dirname(options.runner.cli), 'test.js'))});\n`);
    }
    const report = path.join(work, 'report.json');
    // This one file, by its whole path (a file of the same name in a subfolder is another test).
    const testMatch = `^${path
      .join(testDir, testFile)
      .split(path.sep)
      .join('/')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
    const config = {
      testDir,
      outputDir: path.join(work, 'results'),
      timeout: 30_000,
      expect: { timeout: 5_000 },
      workers: 1,
      retries: 0,
      reporter: [['json', { outputFile: report }]],
      use: {
        headless: true,
        browserName: options.browser ?? 'chromium',
        actionTimeout: 10_000,
        navigationTimeout: 15_000,
        ...(options.executablePath ? { launchOptions: { executablePath: options.executablePath } } : {}),
        ...(options.channel ? { channel: options.channel } : {}),
      },
    };
    const configFile = path.join(work, 'playwright.config.js');
    fs.writeFileSync(configFile, `module.exports = { ...${JSON.stringify(config)}, testMatch: new RegExp(${JSON.stringify(testMatch)}) };\n`);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, [options.runner.cli, 'test', '--config', configFile, `--repeat-each=${options.repeatEach}`], {
        cwd: options.cwd ?? work,
        env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const stop = () => killTree(child.pid);
      const timer = options.timeoutMs ? setTimeout(stop, options.timeoutMs) : undefined;
      options.signal?.addEventListener('abort', stop, { once: true });
      child.on('error', reject);
      child.on('close', code => {
        if (timer) clearTimeout(timer);
        options.signal?.removeEventListener('abort', stop);
        if (!fs.existsSync(report)) reject(new Error(`Playwright Test wrote no report (exit ${code}): ${plain(output).trim().slice(-2000)}`));
        else resolve(code);
      });
    });
    const parsed = JSON.parse(fs.readFileSync(report, 'utf8')) as JsonReport;
    const results = [...resultsOf(parsed.suites)];
    const failed = results.filter(r => r.status !== 'passed' && r.status !== 'skipped');
    const first = failed[0]?.error;
    const loadError = parsed.errors?.[0]?.message;
    const run: SpecRun = {
      runs: results.length,
      passed: results.filter(r => r.status === 'passed').length,
      failed: failed.length + (results.length === 0 ? 1 : 0),
      statuses: results.map(r => r.status ?? 'unknown'),
      runner: options.runner.kind,
      durationMs: Date.now() - started,
    };
    if (first)
      run.firstFailure = {
        ...(first.location?.line ? { line: first.location.line } : {}),
        message: plain(first.message ?? 'failed')
          .split('\n')
          .slice(0, 12)
          .join('\n'),
      };
    else if (!results.length) run.firstFailure = { message: plain(loadError ?? `no test ran (exit ${exitCode})`) };
    return run;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
