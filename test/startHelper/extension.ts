/**
 * `npm start` only, never shipped: once the window is up, the browser panel opens beside the demo README
 * (VS Code opens that itself, by the demo workspace's `workbench.startupEditor`), so a newcomer sees both.
 */
import * as vscode from 'vscode';

export function activate(): void {
  void vscode.commands.executeCommand('playwrightBridge.openPanel');
}
