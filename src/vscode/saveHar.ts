/**
 * Save all as HAR: the Network pane's requests as a HAR 1.2 file where the person picks (the child builds
 * it, sanitized as DevTools' default export and masked like every other output; see child/harExport.ts).
 */
import * as fs from 'fs/promises';
import type * as vscodeTypes from 'vscode';
import type { LiveViewStore } from '../core/liveView/liveViewStore';
import { NoBrowserError, type Supervisor } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

export async function saveNetworkHar(vscode: VSCode, supervisor: Supervisor, store: LiveViewStore, version: string, target?: vscodeTypes.Uri): Promise<vscodeTypes.Uri | undefined> {
  let built;
  try {
    built = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Collecting the requests for a HAR file…' },
      () => supervisor.ask('har', { version }));
  } catch (error) {
    const why = error instanceof NoBrowserError ? 'no browser runs, so there are no requests to save. Ask chat to open a page, or press Start Browser.' : (error as Error).message;
    void vscode.window.showWarningMessage(`No HAR file: ${why}`);
    return undefined;
  }
  if (!built.entries) {
    void vscode.window.showInformationMessage('No HAR file: the Network pane lists no requests yet.');
    return undefined;
  }
  const host = (() => { try { return new URL(store.currentTab?.url ?? '').hostname || 'network'; } catch { return 'network'; } })();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  target ??= await vscode.window.showSaveDialog({
    title: `Save the ${built.entries} listed requests as HAR`,
    defaultUri: folder ? vscode.Uri.joinPath(folder, `${host}-${stamp}.har`) : undefined,
    filters: { 'HAR (HTTP Archive)': ['har'] },
  });
  if (!target) return undefined;
  const bytes = Buffer.from(built.har, 'utf8');
  try {
    await vscode.workspace.fs.writeFile(target, bytes);
  } catch (error) {
    if (target.scheme !== 'file') throw error;
    await fs.writeFile(target.fsPath, bytes);
  }
  const omitted = built.omittedBodies ? ` ${built.omittedBodies} large bod${built.omittedBodies === 1 ? 'y was' : 'ies were'} left out.` : '';
  void vscode.window.showInformationMessage(
    `Saved ${built.entries} requests to ${vscode.workspace.asRelativePath(target)} (cookies and authorization headers left out, secrets masked).${omitted}`);
  return target;
}
