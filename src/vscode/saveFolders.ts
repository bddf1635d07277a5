/**
 * Where the bridge's save dialogs open. The folder the person last saved that kind of file in (this workspace
 * remembers it), else for a test the workspace's own test folder (the Playwright config's testDir, then tests/,
 * e2e/ or test/), else the workspace folder. Never a folder that does not exist: a dialog told to open in one
 * opens somewhere else without saying so (an export offered a tests/ folder the workspace did not have).
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as vscodeTypes from 'vscode';
import { isInside } from '../core/tools/fileTools';

export type SaveKind = 'screenshot' | 'har' | 'trace' | 'test';

/** What a save dialog's folder is read from and kept in (the workspace's memento). */
export interface SaveFolderMemory {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

const keyOf = (kind: SaveKind) => `playwrightBridge.saveFolder.${kind}`;
const CONFIG_NAMES = ['playwright.config.ts', 'playwright.config.js', 'playwright.config.mjs', 'playwright.config.cjs', 'playwright.config.mts'];
const TEST_FOLDERS = ['tests', 'e2e', 'test'];

const isFolder = (folder: string) => {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
};

/** The workspace's test folder, if it has one: the testDir its Playwright config names, else the first of tests/, e2e/, test/ that exists. */
export function workspaceTestFolder(workspaceFolder: string): string | undefined {
  for (const name of CONFIG_NAMES) {
    let text: string;
    try {
      text = fs.readFileSync(path.join(workspaceFolder, name), 'utf8');
    } catch {
      continue;
    }
    const testDir = /\btestDir\s*:\s*['"`]([^'"`]+)['"`]/.exec(text)?.[1];
    const folder = testDir ? path.resolve(workspaceFolder, testDir) : undefined;
    if (folder && isInside(workspaceFolder, folder) && isFolder(folder)) return folder;
  }
  return TEST_FOLDERS.map(name => path.join(workspaceFolder, name)).find(isFolder);
}

/** The folder a save dialog for `kind` opens in (undefined: no workspace and nothing remembered, VS Code chooses). */
export function saveDialogFolder(kind: SaveKind, workspaceFolder: string | undefined, memory: SaveFolderMemory): string | undefined {
  const remembered = memory.get<string>(keyOf(kind));
  if (remembered && isFolder(remembered)) return remembered;
  if (!workspaceFolder) return undefined;
  return (kind === 'test' && workspaceTestFolder(workspaceFolder)) || workspaceFolder;
}

/** The time in a saved file's name ("2026-12-02T14-03-11"). */
export const fileStamp = (): string => new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);

/** The dialog's default: `fileName` in the folder above. */
export function defaultSaveTarget(
  vscode: { Uri: typeof vscodeTypes.Uri },
  kind: SaveKind,
  fileName: string,
  workspaceFolder: string | undefined,
  memory: SaveFolderMemory,
): vscodeTypes.Uri | undefined {
  const folder = saveDialogFolder(kind, workspaceFolder, memory);
  return folder ? vscode.Uri.file(path.join(folder, fileName)) : undefined;
}

/** After a save on this machine: the next dialog of that kind opens in the same folder. */
export async function rememberSaveFolder(kind: SaveKind, target: vscodeTypes.Uri, memory: SaveFolderMemory): Promise<void> {
  if (target.scheme === 'file') await memory.update(keyOf(kind), path.dirname(target.fsPath));
}
