/** An exported test in a workspace without @playwright/test: the export says why its import is marked, and how to fix it. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { withoutPlaywrightTest } from '../../src/vscode/exportTest';

describe('an exported test says when the workspace lacks @playwright/test', () => {
  it('names the install command in a workspace without it, and says nothing where it resolves', () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-no-pwtest-'));
    try {
      assert.match(withoutPlaywrightTest(path.join(bare, 'tests', 'session.spec.ts')), /no @playwright\/test.*npm i -D @playwright\/test/);
      // A workspace that has it installed (found from the test's own folder up, as Node resolves it).
      fs.mkdirSync(path.join(bare, 'node_modules', '@playwright', 'test'), { recursive: true });
      fs.writeFileSync(path.join(bare, 'node_modules', '@playwright', 'test', 'package.json'), '{"name":"@playwright/test","version":"1.0.0"}');
      assert.strictEqual(withoutPlaywrightTest(path.join(bare, 'tests', 'session.spec.ts')), '', 'nothing to say where it is installed');
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});
