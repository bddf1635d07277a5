import { spawn } from 'child_process';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import { BROWSER_LABELS } from '../core/settings/browserDiscovery';
import { SETTINGS_SECTION } from '../core/contributionIds';
import { killTree } from '../core/childProcess/processTree';
import { stripAnsi } from '../core/results/ansi';
import { BrowserName, BROWSERS } from '../core/settings/settings';

type VSCode = typeof vscodeTypes;

/**
 * Runs Playwright's own installer (through @playwright/mcp's CLI, on the editor's runtime) with
 * progress in a notification. Cancelling kills the installer and everything it started.
 */
export async function installBrowser(vscode: VSCode, extensionPath: string, log: vscodeTypes.LogOutputChannel, current: BrowserName): Promise<void> {
  const picked = await vscode.window.showQuickPick(
    BROWSERS.filter((id): id is BrowserName => id !== 'auto').map(id => ({
      id,
      label: BROWSER_LABELS[id],
      description: id === current ? 'the browser in use' : undefined,
    })),
    { title: 'Install a browser for Playwright Bridge', placeHolder: 'Which browser should Playwright download and install?' },
  );
  if (!picked) return;
  const cli = path.join(extensionPath, 'node_modules', '@playwright', 'mcp', 'cli.js');
  log.info(`Installing ${picked.id} with Playwright's installer`);
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Installing ${picked.label}`, cancellable: true },
    (progress, token) =>
      new Promise<{ code: number | null; tail: string; cancelled: boolean }>(resolve => {
        const child = spawn(process.execPath, [cli, 'install-browser', picked.id], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, windowsHide: true });
        let tail = '';
        let cancelled = false;
        const onOutput = (chunk: Buffer) => {
          const text = stripAnsi(chunk.toString('utf8'));
          tail = (tail + text).slice(-2000);
          for (const line of text
            .split(/\r?\n|\r/)
            .map(l => l.trim())
            .filter(Boolean)) {
            log.info(`[install] ${line}`);
            progress.report({ message: line.slice(0, 120) });
          }
        };
        child.stdout.on('data', onOutput);
        child.stderr.on('data', onOutput);
        token.onCancellationRequested(() => {
          cancelled = true;
          if (child.pid) killTree(child.pid);
        });
        child.on('error', error => resolve({ code: -1, tail: error.message, cancelled }));
        child.on('close', code => resolve({ code, tail, cancelled }));
      }),
  );
  if (outcome.cancelled) {
    void vscode.window.showInformationMessage(`Installing ${picked.label} was cancelled.`);
  } else if (outcome.code === 0) {
    const other = picked.id !== current;
    const question = `${picked.label} is installed.${other ? ' Use it for Playwright Bridge?' : ''}`;
    const choice = await vscode.window.showInformationMessage(question, ...(other ? ['Use It'] : []));
    if (choice === 'Use It') await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('browser', picked.id, vscode.ConfigurationTarget.Global);
  } else {
    const last = outcome.tail.trim().split('\n').slice(-3).join(' ');
    const choice = await vscode.window.showErrorMessage(`Installing ${picked.label} failed: ${last || `exit code ${outcome.code}`}`, 'Show Log');
    if (choice === 'Show Log') log.show();
  }
}
