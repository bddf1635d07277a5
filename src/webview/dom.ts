/**
 * What every part of the panel's script shares: the one VS Code API handle (it can be acquired once per
 * webview), posting to the extension, and small DOM helpers.
 */
import type { PanelToHost } from '../protocol/panelMessages';

declare function acquireVsCodeApi(): { postMessage(message: PanelToHost): void; getState(): unknown; setState(state: unknown): void };

export const vscode = acquireVsCodeApi();
export const post = (message: PanelToHost) => vscode.postMessage(message);
export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function el(tag: string, className: string, text?: string): HTMLElement {
  const element = document.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}
