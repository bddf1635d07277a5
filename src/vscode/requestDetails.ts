/**
 * The Network pane's request details, on the host's side: fetched from the child when the person opens a
 * request (never streamed for every request), and its actions: Copy as cURL, Copy as fetch, Add to Chat.
 */
import type * as vscodeTypes from 'vscode';
import { toChatMarkdown, toCurl, toFetch } from '../core/liveView/requestCopies';
import { NoBrowserError, type Supervisor } from '../core/supervision/supervisor';
import type { RequestDetailParams } from '../protocol/childMessages';
import type { HostToPanel } from '../protocol/panelMessages';
import { attachToChat } from './addToChat';

type VSCode = typeof vscodeTypes;

/**
 * `bodyChars`: the start of each body (the panel); `pretty`: JSON pretty-printed by the child before it masks
 * (the panel and chat); neither: the bodies as sent (Copy as cURL and fetch).
 */
export async function requestDetailMessage(supervisor: Supervisor, id: string, view: Omit<RequestDetailParams, 'id'> = {}): Promise<HostToPanel> {
  // An answer asked ahead of a click says so: the panel keeps it for the click, and shows it only to an open waiting for it.
  const ahead = view.ahead ? { ahead: true as const } : {};
  try {
    return { type: 'requestDetail', id, detail: await supervisor.ask('requestDetail', { id, ...view }), ...ahead };
  } catch (error) {
    const problem = error instanceof NoBrowserError ? 'The browser is not running: its requests are gone.' : (error as Error).message.split('\n')[0];
    return { type: 'requestDetail', id, problem, ...ahead };
  }
}

/** `secretSites`: the bridge's secrets and their sites (a copied cURL reads a secret from the environment only on its own sites). */
export async function runRequestAction(
  vscode: VSCode,
  supervisor: Supervisor,
  outputDir: string,
  secretSites: Readonly<Record<string, readonly string[]>>,
  id: string,
  action: 'copyCurl' | 'copyFetch' | 'addToChat',
): Promise<void> {
  const answer = await requestDetailMessage(supervisor, id, { pretty: action === 'addToChat' });
  if (answer.type !== 'requestDetail' || !answer.detail) {
    void vscode.window.showWarningMessage(`Playwright Bridge: ${answer.type === 'requestDetail' ? answer.problem : 'no such request'}`);
    return;
  }
  if (action === 'addToChat') {
    await attachToChat(vscode, outputDir, 'request', toChatMarkdown(answer.detail));
    return;
  }
  await vscode.env.clipboard.writeText(action === 'copyCurl' ? toCurl(answer.detail, secretSites) : toFetch(answer.detail));
  vscode.window.setStatusBarMessage(`Copied ${answer.detail.method} ${answer.detail.url} as ${action === 'copyCurl' ? 'cURL' : 'fetch'}`, 4000);
}
