/** A key pressed on the panel's picture goes to the page when it types or edits, to VS Code when it is a command. */
import * as assert from 'assert';
import { KeyPress, KeyRoute, routeKey } from '../../src/webview/keyRouting';

/** "Ctrl+Shift+P", "AltGr+@", "F1", "Shift+Escape": the key last, its modifiers before it. */
function press(spelled: string): KeyPress {
  const parts = spelled === '+' ? ['+'] : spelled.split(/\+(?=.)/);
  const key = parts.pop()!;
  const held = new Set(parts);
  const altGraph = held.has('AltGr');
  return {
    key,
    // Windows reports AltGr as Ctrl and Alt held.
    ctrlKey: held.has('Ctrl') || altGraph,
    altKey: held.has('Alt') || altGraph,
    metaKey: held.has('Cmd'),
    shiftKey: held.has('Shift'),
    altGraph,
  };
}
const routes = (spelled: string[]) => Object.fromEntries(spelled.map(s => [s, routeKey(press(s))]));
const all = (spelled: string[], route: KeyRoute) => Object.fromEntries(spelled.map(s => [s, route])) as Record<string, KeyRoute>;

describe("the picture's keys: the page gets typing and editing, VS Code gets commands", () => {
  it('gives the page the characters typed, with Shift or AltGr too', () => {
    const typed = ['a', 'Z', 'Shift+A', '1', 'Shift+!', ' ', 'Space', 'é', 'ß', '€', '+', 'AltGr+@', 'AltGr+€', 'AltGr+{', 'Shift+AltGr+|'];
    assert.deepStrictEqual(routes(typed), all(typed, 'page'));
  });

  it('gives the page the editing and moving keys, with any modifier (selecting, jumping by word)', () => {
    const editing = [
      'Enter',
      'Tab',
      'Shift+Tab',
      'Escape',
      'Backspace',
      'Ctrl+Backspace',
      'Delete',
      'Alt+Delete',
      'ArrowLeft',
      'Shift+ArrowRight',
      'Ctrl+Shift+ArrowLeft',
      'Cmd+ArrowUp',
      'Alt+ArrowDown',
      'Home',
      'Ctrl+End',
      'Shift+PageUp',
      'PageDown',
      'Insert',
      'Ctrl+Enter',
      'Shift+Enter',
      'Alt+Tab',
      'Cmd+Tab',
    ];
    assert.deepStrictEqual(routes(editing), all(editing, 'page'));
  });

  it("gives the page Ctrl or Cmd with A, C, V, X, Y, Z (and Ctrl+Shift+Z, redo): its text's editing", () => {
    const shortcuts = ['Ctrl+a', 'Ctrl+c', 'Ctrl+v', 'Ctrl+x', 'Ctrl+y', 'Ctrl+z', 'Ctrl+Shift+Z', 'Cmd+a', 'Cmd+c', 'Cmd+v', 'Cmd+x', 'Cmd+z', 'Cmd+Shift+Z'];
    assert.deepStrictEqual(routes(shortcuts), all(shortcuts, 'page'));
  });

  it('gives the page a modifier pressed alone, so Shift+click and the like reach it', () => {
    const modifiers = ['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'Ctrl+Shift', 'Shift+Control'];
    assert.deepStrictEqual(routes(modifiers), all(modifiers, 'page'));
  });

  it('gives VS Code the function keys, with or without modifiers', () => {
    const functionKeys = ['F1', 'F2', 'F5', 'F11', 'F12', 'Shift+F12', 'Ctrl+F5', 'F13', 'F24'];
    assert.deepStrictEqual(routes(functionKeys), all(functionKeys, 'vscode'));
  });

  it('gives VS Code its editor switching: Ctrl+Tab, Ctrl+Shift+Tab, Ctrl+PageUp/PageDown', () => {
    const switching = ['Ctrl+Tab', 'Ctrl+Shift+Tab', 'Ctrl+PageUp', 'Ctrl+PageDown', 'Ctrl+Alt+PageDown'];
    assert.deepStrictEqual(routes(switching), all(switching, 'vscode'));
  });

  it('gives VS Code every other Ctrl, Alt or Cmd chord: its command palette, quick open, side bar, terminal, …', () => {
    const commands = [
      'Ctrl+Shift+P',
      'Cmd+Shift+P',
      'Ctrl+P',
      'Ctrl+p',
      'Ctrl+b',
      'Ctrl+`',
      'Ctrl+,',
      'Ctrl+Shift+X',
      'Ctrl+Shift+C',
      'Ctrl+Shift+V',
      'Ctrl+Shift+A',
      'Ctrl+Alt+a',
      'Alt+x',
      'Cmd+w',
      'Ctrl+Cmd+a',
      'Ctrl+k',
      'Ctrl+1',
    ];
    assert.deepStrictEqual(routes(commands), all(commands, 'vscode'));
  });

  it('leaves the picture on Shift+Esc, and only with Shift alone', () => {
    assert.strictEqual(routeKey(press('Shift+Escape')), 'leave');
    assert.deepStrictEqual(
      routes(['Escape', 'Ctrl+Shift+Escape', 'Alt+Shift+Escape', 'Cmd+Escape']),
      all(['Escape', 'Ctrl+Shift+Escape', 'Alt+Shift+Escape', 'Cmd+Escape'], 'page'),
    );
  });

  it('leaves to the field what is neither: an IME or dead key, a lock key (no modifiers, not a character)', () => {
    // Not the page's as keys (the composition brings the text), and no command either: left alone.
    const other = ['Process', 'Dead', 'Unidentified', 'CapsLock', 'ContextMenu'];
    assert.deepStrictEqual(routes(other), all(other, 'vscode'));
  });
});
