/**
 * Save all as HAR: the Network pane's requests as a HAR 1.2 file where the person picks (the child builds
 * it, sanitized as DevTools' default export and masked like every other output; see child/harExport.ts).
 */
import type * as vscodeTypes from 'vscode';
import type { LiveViewStore } from '../core/liveView/liveViewStore';
import { NoBrowserError, type Supervisor } from '../core/supervision/supervisor';
import { defaultSaveTarget, rememberSaveFolder, type SaveFolderMemory } from './saveFolders';
import { saveFileName } from './saveScreenshot';

type VSCode = typeof vscodeTypes;

export async function saveNetworkHar(
  vscode: VSCode,
  supervisor: Supervisor,
  store: LiveViewStore,
  version: string,
  folders: SaveFolderMemory,
  target?: vscodeTypes.Uri,
): Promise<vscodeTypes.Uri | undefined> {
  // The requests as the panel lists them now (after Clear, or a navigation that started the list again).
  const ids = store.snapshot().network.flatMap(row => ('id' in row ? [row.id] : []));
  if (!supervisor.running) {
    void vscode.window.showWarningMessage('No HAR file: no browser runs, so there are no requests to save. Ask chat to open a page, or press Start Browser.');
    return undefined;
  }
  if (!ids.length) {
    void vscode.window.showInformationMessage('No HAR file: the Network pane lists no requests yet.');
    return undefined;
  }
  target ??= await vscode.window.showSaveDialog({
    title: `Save the ${ids.length} listed requests as HAR (it holds their bodies: keep it out of version control)`,
    defaultUri: defaultSaveTarget(
      vscode,
      'har',
      saveFileName(store.currentTab?.url, 'network', 'har'),
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
      folders,
    ),
    filters: { 'HAR (HTTP Archive)': ['har'] },
  });
  if (!target) return undefined;
  let built;
  try {
    // A file on this machine is written by the child itself: a HAR of large bodies never crosses the pipe.
    const file = target.scheme === 'file' ? target.fsPath : undefined;
    built = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Saving ${ids.length} requests as HAR…` }, () =>
      supervisor.ask('har', { version, ids, ...(file ? { file } : {}) }),
    );
    if (!file) await vscode.workspace.fs.writeFile(target, Buffer.from(built.har, 'utf8'));
  } catch (error) {
    const why = error instanceof NoBrowserError ? 'no browser runs, so there are no requests to save.' : (error as Error).message;
    void vscode.window.showWarningMessage(`No HAR file: ${why}`);
    return undefined;
  }
  await rememberSaveFolder('har', target, folders);
  if (!built.entries) {
    void vscode.window.showInformationMessage('No HAR file: the browser no longer has the listed requests (it restarted).');
    return undefined;
  }
  // The child's figure counts bodies left out and requests written as stubs (child/harBudget.ts: one budget for the whole file).
  const omitted = built.omittedBodies
    ? ` ${built.omittedBodies} part${built.omittedBodies === 1 ? ' was' : 's were'} left out to keep the file within its size budget, or for holding a secret in binary ` +
      "(a request or response body, or a request's address and headers): each entry's comment says what it lost."
    : '';
  void vscode.window.showInformationMessage(
    `Saved ${built.entries} requests to ${vscode.workspace.asRelativePath(target)}. Cookie and authorization headers are left out and the bridge's secrets masked; ` +
      `other tokens in headers, addresses and bodies stay.${omitted}`,
  );
  return target;
}
