/**
 * Stands in for the desktop VS Code executable that @vscode/test-electron's runTests starts: it
 * accepts the same flags (--extensionDevelopmentPath=, --extensionTestsPath=, --user-data-dir=,
 * --extensions-dir=, a folder), runs the suite in code-server's real extension host with a
 * headless Chromium as the window, prints the suite's output, and exits with the suite's code.
 */
import * as fs from 'fs';
import * as path from 'path';
import { format } from 'util';
import { suiteLine } from './suiteOutput';
import { actInPanel, PanelAct } from './panelHands';
import { spawnSync } from 'child_process';
import { CodeServerSession, linkExtension } from './codeServerSession';
import { ensureCodeServer } from './codeServerInstall';
import { processesMentioning } from '../support/realBridge';

const SUITE_TIMEOUT_MS = Number(process.env.PLAYWRIGHT_BRIDGE_SUITE_TIMEOUT_MS ?? 20 * 60 * 1000);

function flag(args: string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  const hit = args.find(a => a.startsWith(prefix));
  if (hit) return hit.slice(prefix.length);
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const developmentPath = flag(args, 'extensionDevelopmentPath');
  const testsPath = flag(args, 'extensionTestsPath');
  if (!developmentPath || !testsPath) throw new Error('launcher: --extensionDevelopmentPath and --extensionTestsPath are required');
  const folder = args.filter(a => !a.startsWith('--') && path.isAbsolute(a)).pop() ?? process.cwd();
  const userDataDir = flag(args, 'user-data-dir') ?? fs.mkdtempSync('/tmp/pwb-ud-');
  const extensionsDir = flag(args, 'extensions-dir') ?? fs.mkdtempSync('/tmp/pwb-ext-');
  const install = ensureCodeServer();
  // Test-only helper extensions (the scripted chat model) are linked into the extensions folder.
  for (const arg of args.filter(a => a.startsWith('--pwb-link-extension='))) linkExtension(arg.slice('--pwb-link-extension='.length), extensionsDir);
  // A quiet workbench: no welcome page over the views the suite looks at.
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  if (!fs.existsSync(settingsFile)) {
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify({ 'workbench.startupEditor': 'none' }, null, 2));
  }
  // Install a packaged VSIX first, as a person would, when the run asks for it.
  const vsix = flag(args, 'install-extension');
  if (vsix) {
    const installed = spawnSync(install.node, [install.entry, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix], {
      encoding: 'utf8',
      env: { ...process.env, HOME: userDataDir },
    });
    process.stdout.write(`[real-vscode] installed ${path.basename(vsix)}: ${(installed.stdout || installed.stderr || '').trim().split('\n').pop()}\n`);
    if (installed.status !== 0) throw new Error(`installing ${vsix} failed: ${installed.stderr || installed.stdout}`);
  }
  // A JSON file found at run time.
  const codeServer = JSON.parse(fs.readFileSync(path.join(path.dirname(install.entry), '..', '..', 'package.json'), 'utf8')) as { version: string };
  process.stdout.write(
    `[real-vscode] host: code-server ${codeServer.version}, VS Code ${install.vscodeVersion} (server build, Node extension host, headless Chromium window)\n`,
  );

  // The extension host gets the environment runTests gave us (extensionTestsEnv), minus noise.
  const extensionEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && (key.startsWith('PLAYWRIGHT_BRIDGE_') || key === 'MOCHA_GREP')) extensionEnv[key] = value;
  }
  const session = new CodeServerSession({
    install,
    folder,
    userDataDir,
    extensionsDir,
    smokeTestDriver: true,
    payload: remoteUri => [
      ['extensionDevelopmentPath', remoteUri(path.resolve(developmentPath))],
      ['extensionTestsPath', remoteUri(path.resolve(testsPath))],
      ['extensionEnvironment', JSON.stringify(extensionEnv)],
    ],
    env: process.env,
    browserPath: process.env.PLAYWRIGHT_BRIDGE_TEST_BROWSER ?? '/usr/bin/chromium',
    headless: true,
    onLog: line => {
      if (process.env.PLAYWRIGHT_BRIDGE_VERBOSE) process.stdout.write(`${line}\n`);
    },
  });
  // VS Code's own log lines go here (the console shows the suite's), when the runner names a file.
  const logFile = process.env.PLAYWRIGHT_BRIDGE_VSCODE_LOG;
  if (logFile) fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const vscodeLog = logFile ? fs.createWriteStream(logFile) : undefined;
  let finish!: (code: number) => void;
  const finished = new Promise<number>(resolve => (finish = resolve));
  const stopOnSignal = () => finish(130);
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  const timer = setTimeout(() => {
    process.stdout.write(`[real-vscode] the suite did not finish within ${SUITE_TIMEOUT_MS} ms\n`);
    finish(1);
  }, SUITE_TIMEOUT_MS);
  try {
    await session.startServer();
    await session.openWorkbench({
      codeAutomationLog: (type: string, logArgs: unknown[]) => {
        // The workbench forwards console calls as (format, ...values), like console.log.
        const text = format(...(Array.isArray(logArgs) ? logArgs : [logArgs]));
        // The suite asks for a picture of the workbench this way (it cannot take one from inside).
        // [[pwb-screenshot:FILE]] photographs the workbench; [[pwb-screenshot:FILE|SELECTOR]] one part of it.
        const shot = /\[\[pwb-screenshot:(.+?)(?:\|(.+?))?\]\]/.exec(text);
        if (shot) {
          const [, file, selector] = shot;
          const taking = selector ? session.page?.locator(selector).first().screenshot({ path: file }) : session.page?.screenshot({ path: file });
          void taking?.catch(error => process.stderr.write(`[real-vscode] screenshot failed: ${error}\n`));
          return;
        }
        // The suite asks for a person's hands in the browser panel: [[pwb-panel:{"action":...,"done":FILE}]].
        const act = /\[\[pwb-panel:(\{.*\})\]\]/.exec(text);
        if (act) {
          const request = JSON.parse(act[1]) as PanelAct & { done: string };
          void actInPanel(session.page!, request).then(
            answer => fs.writeFileSync(request.done, `ok${answer ? `\n${answer}` : ''}`),
            error => fs.writeFileSync(request.done, `failed: ${error instanceof Error ? error.message : error}`),
          );
          return;
        }
        // The suite's lines to the console; VS Code's own log lines to a file, when one is named.
        const ours = suiteLine(text);
        if (ours !== undefined || !vscodeLog) (type === 'error' ? process.stderr : process.stdout).write(`${ours ?? text}\n`);
        else vscodeLog.write(`[${type}] ${text}\n`);
      },
      codeAutomationExit: (code: number) => finish(code),
    });
    const code = await finished;
    return code;
  } finally {
    clearTimeout(timer);
    await new Promise(resolve => (vscodeLog ? vscodeLog.end(resolve) : resolve(undefined)));
    const marker = session.scratch;
    await session.stop();
    // Nothing we started may outlive the run: the extension's children carry the scratch TMPDIR.
    await new Promise(resolve => setTimeout(resolve, 500));
    const leftovers = processesMentioning(marker);
    if (leftovers.length) {
      process.stderr.write(`[real-vscode] processes left running after the run: ${leftovers.join(', ')}; killing them\n`);
      for (const pid of leftovers)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      process.exitCode = 1;
    }
  }
}

main().then(
  code => process.exit(process.exitCode || code),
  error => {
    process.stderr.write(`[real-vscode] ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  },
);
