import type * as vscodeTypes from 'vscode';
import { resultText, withoutErrorHeading } from '../core/results/resultText';
import { Supervisor } from '../core/supervision/supervisor';
import { BridgeHost } from './bridgeHost';
import { NAVIGATE } from '../core/tools/upstreamTools';

type VSCode = typeof vscodeTypes;

/** Restart Browser: a new browser with the settings as they are now, or the reason it failed. */
export function restartBrowser(vscode: VSCode, bridge: BridgeHost, log: vscodeTypes.LogOutputChannel): Thenable<void> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Restarting the browser' }, async () => {
    try {
      await bridge.restart('Restart Browser command');
    } catch (error) {
      const choice = await vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error), 'Show Log');
      if (choice === 'Show Log') log.show();
    }
  });
}

/** Start Browser: a blank page, so the browser launches and the panel has something to show. */
export async function startBrowser(vscode: VSCode, supervisor: Supervisor): Promise<void> {
  let failure: string | undefined;
  try {
    const result = await supervisor.callTool(NAVIGATE, { url: 'about:blank' }, { door: 'panel' });
    if (result.isError) failure = resultText(result);
  } catch (error) {
    failure = (error as Error).message;
  }
  // A launch that failed is told once, by the health's notice (browserFailureNotifier.ts) with its fixes; anything else in words.
  if (!failure || supervisor.health.failed === 'browser') return;
  const words = withoutErrorHeading(failure)
    .replace(/^Error:\s*/, '')
    .slice(0, 500);
  void vscode.window.showErrorMessage(`The browser did not start: ${words}`);
}
