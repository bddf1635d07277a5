import * as fs from 'fs/promises';
import type * as vscodeTypes from 'vscode';
import { LiveViewStore } from '../core/liveView/liveViewStore';
import { Supervisor } from '../core/supervision/supervisor';

type VSCode = typeof vscodeTypes;

/** In the first workspace folder, named for the page's host and the time ("example.com-2026-12-02T14-03-11.png"). */
export function defaultSaveUri(vscode: VSCode, url: string | undefined, fallback: string, extension: string): vscodeTypes.Uri | undefined {
  const host = (() => {
    try {
      return new URL(url ?? '').hostname || fallback;
    } catch {
      return fallback;
    }
  })();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, `${host}-${stamp}.${extension}`) : undefined;
}

/** A full-resolution PNG of the current page, saved where the person picks. */
export async function saveScreenshot(vscode: VSCode, supervisor: Supervisor, store: LiveViewStore): Promise<void> {
  let shot;
  try {
    const taken = await supervisor.ask('screenshot', {});
    shot = { ...taken, data: Buffer.from(taken.data, 'base64') };
  } catch (error) {
    void vscode.window.showWarningMessage(`No screenshot: ${(error as Error).message} Ask chat to open a page, or press Start Browser.`);
    return;
  }
  const target = await vscode.window.showSaveDialog({
    title: `Save a screenshot of ${store.currentTab?.title || shot.url}`,
    defaultUri: defaultSaveUri(vscode, shot.url, 'page', 'png'),
    filters: { 'PNG image': ['png'] },
  });
  if (!target) return;
  try {
    await vscode.workspace.fs.writeFile(target, shot.data);
  } catch (error) {
    // Remote or virtual file systems first; a plain path as a fallback.
    if (target.scheme !== 'file') throw error;
    await fs.writeFile(target.fsPath, shot.data);
  }
  void vscode.window.showInformationMessage(`Screenshot saved to ${vscode.workspace.asRelativePath(target)}.`);
}
