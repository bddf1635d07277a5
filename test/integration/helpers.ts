/** What the integration tests share: the extension's API, waiting, and calling tools as chat does. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PanelAct } from '../vscode/panelHands';
import { format } from 'util';
import * as vscode from 'vscode';
import { SUITE_LINE_MARK } from '../vscode/suiteOutput';
import { listDescendants } from '../../src/core/childProcess/processTree';
export { isAlive } from '../../src/core/childProcess/processTree';
export { refOf, waitFor } from '../support/realBridge';
import { waitFor } from '../support/realBridge';
import type { PlaywrightBridgeApi } from '../../src/vscode/bridgeExtension';

export const EXTENSION_ID = 'playwright-bridge.playwright-bridge';

/** What the extension hands its integration tests (its activate() result). */
export type Api = PlaywrightBridgeApi;

/** Prints a line of the suite's own (a figure, a step) to the console; VS Code's log lines go to a file. */
export function note(...args: unknown[]): void {
  console.log(`${SUITE_LINE_MARK}${format(...args)}`);
}

/** Asks the launcher to act in the browser panel as a person would (the code-server host only). */
export async function panelHands(act: PanelAct, timeoutMs = 20000): Promise<string> {
  if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') throw new Error('acting in the panel needs the code-server host');
  const done = path.join(os.tmpdir(), `pwb-hands-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  note(`[[pwb-panel:${JSON.stringify({ ...act, done })}]]`);
  // The launcher writes its answer in one call; a file seen before its first byte is not the answer yet.
  await waitFor(() => fs.existsSync(done) && fs.statSync(done).size > 0, timeoutMs, `the launcher to ${act.action} in the panel`, 100);
  const outcome = fs.readFileSync(done, 'utf8');
  fs.rmSync(done, { force: true });
  if (!outcome.startsWith('ok')) throw new Error(`acting in the panel (${act.action}) ${outcome}`);
  return outcome.slice(3);
}

/** Asks the launcher (the code-server host) to photograph the workbench, or one part of it; a desktop host has none. */
export async function screenshotWorkbench(file: string, selector?: string): Promise<boolean> {
  if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') return false;
  fs.rmSync(file, { force: true });
  note(`[[pwb-screenshot:${file}${selector ? `|${selector}` : ''}]]`);
  const deadline = Date.now() + 15000;
  while (!fs.existsSync(file) && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 200));
  return fs.existsSync(file);
}

/** Our browser servers below this extension host (found by the script they run). */
export function bridgeChildren(): number[] {
  return listDescendants(process.pid).filter(pid => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${path.sep}dist${path.sep}child.js`);
    } catch {
      return false;
    }
  });
}

export async function invoke(name: string, input: object): Promise<{ text: string; images: { mimeType: string; data: Uint8Array }[] }> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  let text = '';
  const images: { mimeType: string; data: Uint8Array }[] = [];
  for (const part of result.content as unknown[]) {
    const p = part as { value?: unknown; mimeType?: string; data?: Uint8Array };
    if (typeof p.value === 'string') text += `${p.value}\n`;
    else if (p.mimeType && p.data) images.push({ mimeType: p.mimeType, data: p.data });
  }
  return { text, images };
}
