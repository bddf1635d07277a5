import * as fs from 'fs/promises';
import type * as vscodeTypes from 'vscode';
import { LiveViewStore } from '../core/liveView/liveViewStore';
import { Supervisor } from '../core/supervision/supervisor';
import { defaultSaveTarget, fileStamp, rememberSaveFolder, type SaveFolderMemory } from './saveFolders';

type VSCode = typeof vscodeTypes;

/** Named for the page's host and the time ("example.com-2026-12-02T14-03-11.png"). */
export function saveFileName(url: string | undefined, fallback: string, extension: string): string {
  const host = (() => {
    try {
      return new URL(url ?? '').hostname || fallback;
    } catch {
      return fallback;
    }
  })();
  return `${host}-${fileStamp()}.${extension}`;
}

/** A full-resolution PNG of the current page, saved where the person picks. */
export async function saveScreenshot(vscode: VSCode, supervisor: Supervisor, store: LiveViewStore, folders: SaveFolderMemory): Promise<void> {
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
    defaultUri: defaultSaveTarget(vscode, 'screenshot', saveFileName(shot.url, 'page', 'png'), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, folders),
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
  await rememberSaveFolder('screenshot', target, folders);
  void vscode.window.showInformationMessage(`Screenshot saved to ${vscode.workspace.asRelativePath(target)}.`);
}
