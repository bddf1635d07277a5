/**
 * Wiring only: the real `vscode` to the extension (src/vscode/bridgeExtension.ts builds all of it, so a
 * plain Node test can start it whole against a fake). Nothing is spawned here; the first tool call
 * starts the browser server.
 */
import * as vscode from 'vscode';
import { BridgeExtension, PlaywrightBridgeApi, startBridgeExtension } from './vscode/bridgeExtension';

export type { PlaywrightBridgeApi };

let running: BridgeExtension | undefined;

export function activate(context: vscode.ExtensionContext): PlaywrightBridgeApi {
  running = startBridgeExtension(vscode, context);
  return running.api;
}

/** VS Code waits for this: the whole process tree is gone before the window closes. */
export async function deactivate(): Promise<void> {
  const current = running;
  running = undefined;
  await current?.dispose();
}
