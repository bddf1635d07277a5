/**
 * Runs the integration suite (test/integration) inside a real VS Code through @vscode/test-electron.
 * PLAYWRIGHT_BRIDGE_VSCODE picks the host: `desktop` (download a desktop VS Code), `server`
 * (code-server's VS Code server build with a headless Chromium window, for machines that cannot
 * download VS Code), or `auto` (the default: desktop when it can be downloaded, else server).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';
import { REPO_ROOT, TEST_BROWSER } from '../support/realBridge';
import { cacheRoot } from './codeServerInstall';

export async function pickHost(): Promise<{ executable: string; description: string }> {
  const choice = process.env.PLAYWRIGHT_BRIDGE_VSCODE ?? 'auto';
  if (!['auto', 'desktop', 'server'].includes(choice)) throw new Error(`PLAYWRIGHT_BRIDGE_VSCODE must be auto, desktop or server; got ${choice}`);
  if (choice !== 'server') {
    try {
      const executable = await downloadAndUnzipVSCode({ version: 'stable', cachePath: path.join(cacheRoot(), 'vscode-desktop'), timeout: 20000 });
      return { executable, description: `desktop VS Code (${executable})` };
    } catch (error) {
      if (choice === 'desktop') throw new Error(`No desktop VS Code could be downloaded: ${(error as Error).message}`, { cause: error });
      console.log(
        `[real-vscode] no desktop VS Code can be downloaded here (${String((error as Error).message).split('\n')[0]}); using VS Code's server build from code-server`,
      );
    }
  }
  return { executable: path.join(REPO_ROOT, 'test', 'vscode', 'code-server-launcher.sh'), description: 'VS Code server build (code-server)' };
}

async function main(): Promise<void> {
  const started = Date.now();
  const host = await pickHost();
  // With PLAYWRIGHT_BRIDGE_VSIX the suite runs against that package installed into VS Code, not this clone.
  const vsix = process.env.PLAYWRIGHT_BRIDGE_VSIX;
  if (vsix && !host.executable.endsWith('code-server-launcher.sh'))
    throw new Error('The installed-VSIX run needs the code-server host (PLAYWRIGHT_BRIDGE_VSCODE=server).');
  console.log(`[real-vscode] running the integration suite in ${host.description}${vsix ? `, against the installed ${path.basename(vsix)}` : ''}`);
  const totals = { passed: 0, failed: 0, skipped: 0 };
  // PLAYWRIGHT_BRIDGE_WINDOW=mcp runs only the windows whose name holds that text (while working on one).
  const only = process.env.PLAYWRIGHT_BRIDGE_WINDOW;
  const windows = WINDOWS.filter(window => !only || window.name.includes(only));
  if (!windows.length) throw new Error(`No window's name holds "${only}": ${WINDOWS.map(w => w.name).join(', ')}`);
  for (const window of windows) {
    const counts = await runWindow(host.executable, window, vsix);
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  }
  const resultsFile = process.env.PLAYWRIGHT_BRIDGE_RESULTS_FILE;
  if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(totals));
  console.log(
    `[real-vscode] ${windows.length} window${windows.length === 1 ? '' : 's'}: ${totals.passed} passed, ${totals.failed} failed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exitCode = totals.failed ? 1 : 0;
}

/**
 * Each window is a fresh VS Code (new profile, new workspace, extension not yet active), so no test
 * leans on a browser another test started. The chat scenario gets one window per exposure.
 */
export interface SuiteWindow {
  name: string;
  files: string[];
  /** The person's own settings for this window besides the test browser's (user settings: a workspace may not open a door). */
  settings: Record<string, unknown>;
}

const WINDOWS: SuiteWindow[] = [
  { name: 'extension', files: ['extension.test.js', 'panel.test.js', 'shutdown.test.js'], settings: {} },
  { name: 'chat through language-model tools', files: ['chat.test.js', 'shutdown.test.js'], settings: { 'playwrightBridge.exposure': 'languageModelTools' } },
  { name: 'chat through the MCP server', files: ['chat.test.js', 'shutdown.test.js'], settings: { 'playwrightBridge.exposure': 'mcp' } },
];

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Runs one window's files in a fresh VS Code; `env`: more for the suite inside it (the bench's output file). */
export async function runWindow(executable: string, window: SuiteWindow, vsix: string | undefined, env: Record<string, string> = {}): Promise<Counts> {
  const started = Date.now();
  console.log(`\n[real-vscode] window: ${window.name}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-it-'));
  const workspace = path.join(scratch, 'workspace');
  const resultsFile = path.join(scratch, 'results.json');
  const artifacts = path.join(REPO_ROOT, '.test-artifacts', vsix ? 'vsix' : 'dev');
  const vscodeLog = path.join(artifacts, `vscode-${window.name.replace(/\W+/g, '-')}.log`);
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  // An isolated profile keeps runs independent; a workspace may choose it (it narrows what agents keep).
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({ 'playwrightBridge.profile': 'isolated' }, null, 2));
  // Which program runs and which doors chat has are the person's choice, not the workspace's: the test browser
  // (Debian's Chromium) and the window's settings are user settings.
  const userSettings = path.join(scratch, 'user-data', 'User', 'settings.json');
  fs.mkdirSync(path.dirname(userSettings), { recursive: true });
  fs.writeFileSync(
    userSettings,
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'playwrightBridge.browser': 'chromium',
        'playwrightBridge.executablePath': TEST_BROWSER,
        ...window.settings,
      },
      null,
      2,
    ),
  );
  try {
    const code = await runTests({
      vscodeExecutablePath: executable,
      // The installed-VSIX run still needs a development extension: a do-nothing one, so ours comes from the VSIX.
      extensionDevelopmentPath: vsix ? path.join(REPO_ROOT, 'test', 'vscode', 'vsix-host') : REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace,
        `--user-data-dir=${path.join(scratch, 'user-data')}`,
        `--extensions-dir=${path.join(scratch, 'extensions')}`,
        ...(vsix ? [`--install-extension=${path.resolve(vsix)}`] : []),
        `--pwb-link-extension=${path.join(REPO_ROOT, 'test', 'vscode', 'chat-helper')}`,
      ],
      extensionTestsEnv: {
        PLAYWRIGHT_BRIDGE_TEST_BROWSER: TEST_BROWSER,
        PLAYWRIGHT_BRIDGE_HOST: executable.endsWith('code-server-launcher.sh') ? 'server' : 'desktop',
        PLAYWRIGHT_BRIDGE_ARTIFACTS: artifacts,
        PLAYWRIGHT_BRIDGE_VSCODE_LOG: vscodeLog,
        PLAYWRIGHT_BRIDGE_SUITE_FILES: window.files.join(','),
        PLAYWRIGHT_BRIDGE_RESULTS_FILE: resultsFile,
        ...(vsix ? { PLAYWRIGHT_BRIDGE_EXPECT_INSTALLED: '1' } : {}),
        ...env,
      },
    });
    const counts: Counts = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
    // A window that never reported (VS Code did not start, the run timed out) is a failure, not zero tests.
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    console.log(
      `[real-vscode] window "${window.name}" finished with code ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s; VS Code's own log: ${path.relative(REPO_ROOT, vscodeLog)}`,
    );
    return counts;
  } catch (error) {
    console.error(`[real-vscode] window "${window.name}" failed: ${error instanceof Error ? error.message : error}`);
    const counts: Counts = fs.existsSync(resultsFile) ? JSON.parse(fs.readFileSync(resultsFile, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
    return { ...counts, failed: Math.max(1, counts.failed) };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

// The bench imports the windows' runner; only running this file runs the suite.
if (require.main === module) void main();
