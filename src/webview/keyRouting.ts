/**
 * Whose a key pressed on the picture is: the page gets typing and editing, VS Code gets commands.
 * Decided by the key's kind (a character, an editing or moving key, a modifier, a function key) and its
 * modifiers, not by a list of VS Code's commands, so a shortcut VS Code (or the person) adds later reaches
 * VS Code without this changing. A key for VS Code is left alone (no preventDefault, no stopPropagation):
 * VS Code's webview host forwards it to the workbench's keybindings. Shift+Esc leaves the picture.
 */

/** A keydown as the picture's key field reads it. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** getModifierState('AltGraph'): the key's character came from AltGr (which also sets Ctrl and Alt on Windows). */
  altGraph: boolean;
}

/** 'page': send it to the page; 'vscode': leave it to VS Code; 'leave': move the focus out of the picture. */
export type KeyRoute = 'page' | 'vscode' | 'leave';

/** The keys that edit text or move in a page; with Shift, Ctrl, Alt or Cmd they still do (select, jump by word, …). */
const EDITING_KEYS = new Set([
  'Enter',
  'Tab',
  'Escape',
  'Backspace',
  'Delete',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Insert',
]);
/** Ctrl+Tab and Ctrl+PageUp/PageDown switch VS Code's editors; a browser uses them for its own tabs, not the page's. */
const EDITOR_SWITCHING = new Set(['Tab', 'PageUp', 'PageDown']);
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph']);
/** Ctrl/Cmd with these edits the page's text: select all, copy, paste, cut, redo, undo. */
const EDITING_SHORTCUTS = new Set(['a', 'c', 'v', 'x', 'y', 'z']);

export function routeKey(press: KeyPress): KeyRoute {
  const { key, ctrlKey, altKey, metaKey, shiftKey, altGraph } = press;
  if (/^F([1-9]|1\d|2[0-4])$/.test(key)) return 'vscode';
  if (MODIFIER_KEYS.has(key)) return 'page';
  const character = key.length === 1 || key === 'Space';
  // AltGr's characters are typing (Windows reports them with Ctrl and Alt held).
  if (character && (altGraph || (!ctrlKey && !altKey && !metaKey))) return 'page';
  if (key === 'Escape' && shiftKey && !ctrlKey && !altKey && !metaKey) return 'leave';
  if (EDITING_KEYS.has(key)) return ctrlKey && !metaKey && EDITOR_SWITCHING.has(key) ? 'vscode' : 'page';
  // Exactly one of Ctrl and Cmd, no Alt: the editing shortcuts; Shift only for redo (Ctrl+Shift+Z).
  if (character && ctrlKey !== metaKey && !altKey) {
    const letter = key.toLowerCase();
    if (EDITING_SHORTCUTS.has(letter) && (!shiftKey || letter === 'z')) return 'page';
  }
  return 'vscode';
}
