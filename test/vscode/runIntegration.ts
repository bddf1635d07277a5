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

async function pickHost(): Promise<{ executable: string; description: string }> {
  const choice = process.env.PLAYWRIGHT_BRIDGE_VSCODE ?? 'auto';
  if (!['auto', 'desktop', 'server'].includes(choice)) throw new Error(`PLAYWRIGHT_BRIDGE_VSCODE must be auto, desktop or server; got ${choice}`);
  if (choice !== 'server') {
    try {
      const executable = await downloadAndUnzipVSCode({ version: 'stable', cachePath: path.join(cacheRoot(), 'vscode-desktop'), timeout: 20000 });
      return { executable, description: `desktop VS Code (${executable})` };
    } catch (error) {
      if (choice === 'desktop') throw new Error(`No desktop VS Code could be downloaded: ${(error as Error).message}`);
      console.log(`[real-vscode] no desktop VS Code can be downloaded here (${String((error as Error).message).split('\n')[0]}); using VS Code's server build from code-server`);
    }
  }
  return { executable: path.join(REPO_ROOT, 'test', 'vscode', 'code-server-launcher.sh'), description: 'VS Code server build (code-server)' };
}

async function main(): Promise<void> {
  const started = Date.now();
  const host = await pickHost();
  // With PLAYWRIGHT_BRIDGE_VSIX the suite runs against that package installed into VS Code, not this clone.
  const vsix = process.env.PLAYWRIGHT_BRIDGE_VSIX;
  if (vsix && !host.executable.endsWith('code-server-launcher.sh')) throw new Error('The installed-VSIX run needs the code-server host (PLAYWRIGHT_BRIDGE_VSCODE=server).');
  console.log(`[real-vscode] running the integration suite in ${host.description}${vsix ? `, against the installed ${path.basename(vsix)}` : ''}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-it-'));
  const workspace = path.join(scratch, 'workspace');
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  // The test browser is Debian's Chromium; an isolated profile keeps runs independent.
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify({
    'playwrightBridge.browser': 'chromium',
    'playwrightBridge.executablePath': TEST_BROWSER,
    'playwrightBridge.profile': 'isolated',
  }, null, 2));
  try {
    const code = await runTests({
      vscodeExecutablePath: host.executable,
      // The installed-VSIX run still needs a development extension: a do-nothing one, so ours comes from the VSIX.
      extensionDevelopmentPath: vsix ? path.join(REPO_ROOT, 'test', 'vscode', 'vsix-host') : REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [
        workspace, `--user-data-dir=${path.join(scratch, 'user-data')}`, `--extensions-dir=${path.join(scratch, 'extensions')}`,
        ...(vsix ? [`--install-extension=${path.resolve(vsix)}`] : []),
        `--pwb-link-extension=${path.join(REPO_ROOT, 'test', 'vscode', 'chat-helper')}`,
      ],
      extensionTestsEnv: {
        PLAYWRIGHT_BRIDGE_TEST_BROWSER: TEST_BROWSER,
        PLAYWRIGHT_BRIDGE_HOST: host.executable.endsWith('code-server-launcher.sh') ? 'server' : 'desktop',
        PLAYWRIGHT_BRIDGE_ARTIFACTS: path.join(REPO_ROOT, '.test-artifacts', vsix ? 'vsix' : 'dev'),
        ...(vsix ? { PLAYWRIGHT_BRIDGE_EXPECT_INSTALLED: '1' } : {}),
        ...(process.env.PLAYWRIGHT_BRIDGE_RESULTS_FILE ? { PLAYWRIGHT_BRIDGE_RESULTS_FILE: process.env.PLAYWRIGHT_BRIDGE_RESULTS_FILE } : {}),
      },
    });
    console.log(`[real-vscode] suite finished with code ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    process.exitCode = code;
  } catch (error) {
    console.error(`[real-vscode] the integration suite failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
