/** Last in the suite: the extension's deactivate() ends everything it started. */
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { listDescendants } from '../../src/core/childProcess/processTree';
import { Api, bridgeChildren, EXTENSION_ID, isAlive, invoke, waitFor } from './helpers';

describe('Playwright Bridge shutdown', function () {
  this.timeout(120000);

  it('leaves no process behind on deactivation', async () => {
    await invoke('browser_tabs', { action: 'list' });
    const pid = (await extension().activate()).childPid!;
    assert.ok(pid, 'a browser server runs before deactivation');
    const tree = [pid, ...listDescendants(pid)];
    // The same module instance VS Code loaded: its deactivate() is what VS Code calls on shutdown.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the very module instance VS Code loaded
    const main = require(path.join(extension().extensionPath, 'dist', 'extension.js')) as { deactivate(): Promise<void> };
    await main.deactivate();
    await waitFor(() => tree.every(p => !isAlive(p)), 10000, 'every process of the tree to end');
    assert.deepStrictEqual(bridgeChildren(), []);
  });
});

function extension(): vscode.Extension<Api> {
  return vscode.extensions.getExtension<Api>(EXTENSION_ID)!;
}
