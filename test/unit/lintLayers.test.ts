import * as assert from 'assert';
import * as path from 'path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { importZones } from '../support/lint';
import { REPO_ROOT } from '../support/realBridge';

/** What the layer rule says of one import written in a file of src (no message: allowed). */
function verdict(file: string, importLine: string): string | undefined {
  const linter = new Linter({ configType: 'flat', cwd: REPO_ROOT });
  const messages = linter.verify(
    importLine,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { layers: { rules: { 'import-zones': importZones } } },
        rules: { 'layers/import-zones': 'error' },
      },
    ],
    { filename: path.join(REPO_ROOT, 'src', file) },
  );
  return messages.map(m => m.message).join('; ') || undefined;
}

describe('Layers: the lint rule that keeps src/protocol, core, child, vscode and webview apart', () => {
  it('refuses vscode outside src/vscode and src/extension.ts', () => {
    assert.match(verdict('core/supervision/x.ts', "import * as vscode from 'vscode';") ?? '', /src\/core must not import vscode/);
    assert.match(verdict('child/x.ts', "const vscode = require('vscode');") ?? '', /src\/child must not import vscode/);
    assert.strictEqual(verdict('vscode/x.ts', "import * as vscode from 'vscode';"), undefined);
    assert.strictEqual(verdict('extension.ts', "import * as vscode from 'vscode';"), undefined);
  });

  it('lets protocol import nothing of ours, core not import child or vscode code, the webview only protocol', () => {
    assert.match(verdict('protocol/x.ts', "import { a } from '../core/emitter';") ?? '', /src\/protocol must not import src\/core/);
    assert.match(verdict('core/tools/x.ts', "import { a } from '../../child/main';") ?? '', /src\/core must not import src\/child/);
    assert.match(verdict('core/tools/x.ts', "export { a } from '../../vscode/log';") ?? '', /src\/core must not import src\/vscode/);
    assert.match(verdict('webview/x.ts', "import { a } from '../core/emitter';") ?? '', /src\/webview must not import src\/core/);
    assert.match(verdict('webview/x.ts', "import * as fs from 'fs';") ?? '', /src\/webview imports only src\/protocol/);
    assert.match(verdict('child/x.ts', "const m = import('../vscode/log');") ?? '', /src\/child must not import src\/vscode/);
    assert.strictEqual(verdict('webview/x.ts', "import { a } from '../protocol/panelMessages';"), undefined);
    assert.strictEqual(verdict('child/x.ts', "import { a } from '../core/results/ansi';"), undefined);
  });
});
