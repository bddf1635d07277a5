/**
 * Where the bridge's save dialogs open (src/vscode/saveFolders.ts), on real folders: never one that does not
 * exist (an export offered a tests/ folder the workspace did not have), the workspace's own test folder for a
 * test, and the folder the person last saved that kind of file in.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { rememberSaveFolder, saveDialogFolder, workspaceTestFolder, type SaveFolderMemory } from '../../src/vscode/saveFolders';

function memory(): SaveFolderMemory & { kept: Map<string, unknown> } {
  const kept = new Map<string, unknown>();
  return { kept, get: <T>(key: string) => kept.get(key) as T | undefined, update: async (key, value) => void kept.set(key, value) };
}

describe('save dialog folders', () => {
  let workspace: string;
  beforeEach(() => (workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-save-'))));
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it('offers the workspace folder for a test when it has no test folder, never a tests/ that does not exist', () => {
    assert.strictEqual(workspaceTestFolder(workspace), undefined);
    assert.strictEqual(saveDialogFolder('test', workspace, memory()), workspace);
  });

  it("offers the Playwright config's testDir, else the first of tests/, e2e/, test/ that exists", () => {
    fs.mkdirSync(path.join(workspace, 'test'));
    assert.strictEqual(saveDialogFolder('test', workspace, memory()), path.join(workspace, 'test'));
    fs.mkdirSync(path.join(workspace, 'e2e'));
    assert.strictEqual(saveDialogFolder('test', workspace, memory()), path.join(workspace, 'e2e'));
    fs.mkdirSync(path.join(workspace, 'specs', 'browser'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'playwright.config.ts'), "export default defineConfig({\n  testDir: './specs/browser',\n});\n");
    assert.strictEqual(saveDialogFolder('test', workspace, memory()), path.join(workspace, 'specs', 'browser'));
    // A testDir outside the workspace, or one not made yet, is not offered.
    fs.writeFileSync(path.join(workspace, 'playwright.config.ts'), "export default { testDir: '../elsewhere' };");
    assert.strictEqual(saveDialogFolder('test', workspace, memory()), path.join(workspace, 'e2e'));
  });

  it('opens where the person last saved that kind of file, kinds apart, and forgets a folder since deleted', async () => {
    const kept = memory();
    const shots = path.join(workspace, 'shots');
    fs.mkdirSync(shots);
    assert.strictEqual(saveDialogFolder('screenshot', workspace, kept), workspace);
    await rememberSaveFolder('screenshot', { scheme: 'file', fsPath: path.join(shots, 'a.png') } as never, kept);
    assert.strictEqual(saveDialogFolder('screenshot', workspace, kept), shots);
    assert.strictEqual(saveDialogFolder('har', workspace, kept), workspace, 'a HAR is another kind');
    fs.rmSync(shots, { recursive: true });
    assert.strictEqual(saveDialogFolder('screenshot', workspace, kept), workspace);
    assert.strictEqual(saveDialogFolder('trace', undefined, kept), undefined, 'no workspace: VS Code chooses');
  });
});
