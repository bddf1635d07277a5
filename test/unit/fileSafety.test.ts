import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { Tool } from '@modelcontextprotocol/sdk/types.js';
import { OutputBudget, WRITTEN_RECORD } from '../../src/child/outputBudget';
import { ShownCodeFiles } from '../../src/core/tools/codeFromFile';
import { namedFileWritten, publishTool, resolveWrittenFile } from '../../src/core/tools/fileTools';

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-files-'));
}

function write(file: string, bytes: number, ageSeconds: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(bytes, 1));
  const when = Date.now() / 1000 - ageSeconds;
  fs.utimesSync(file, when, when);
}

describe('file safety', () => {
  describe('published tools', () => {
    const snapshot: Tool = {
      name: 'browser_snapshot',
      inputSchema: {
        type: 'object',
        properties: { filename: { type: 'string', description: 'Save snapshot to a file. Relative file names are resolved against the workspace root.' } },
      },
      annotations: { readOnlyHint: true, title: 'Snapshot' },
    };

    it('tells the readers too where a relative name points, and run code that code and file together are refused', () => {
      const runCode: Tool = {
        name: 'browser_run_code_unsafe',
        inputSchema: {
          type: 'object',
          properties: {
            filename: {
              type: 'string',
              description:
                'Load code from the specified file. Relative file names are resolved against the workspace root. If both code and filename are provided, code will be ignored.',
            },
          },
        },
      };
      const description = (publishTool(runCode).inputSchema.properties as Record<string, { description: string }>).filename.description;
      assert.strictEqual(
        description,
        'Load code from the specified file. Relative file names are resolved against the Playwright Bridge output folder, ' +
          'where the other tools write their files. Give code or filename, not both: a call with both is refused.',
      );
    });

    it('never advertises a tool that writes a named file as read-only, and says where relative names go', () => {
      const published = publishTool(snapshot);
      assert.strictEqual(published.annotations?.readOnlyHint, false);
      assert.strictEqual(published.annotations?.title, 'Snapshot');
      const description = (published.inputSchema.properties as Record<string, { description: string }>).filename.description;
      assert.match(description, /resolved against the Playwright Bridge output folder/);
      assert.doesNotMatch(description, /workspace root/);
    });

    it('leaves tools alone that write nothing or read their file', () => {
      const tabs: Tool = { name: 'browser_tabs', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } };
      assert.strictEqual(publishTool(tabs), tabs);
      const restore: Tool = { name: 'browser_set_storage_state', inputSchema: { type: 'object', properties: { filename: { type: 'string' } } } };
      assert.strictEqual(publishTool(restore), restore);
      assert.strictEqual(namedFileWritten('browser_set_storage_state', { filename: 'x' }), undefined);
      assert.strictEqual(namedFileWritten('browser_snapshot', { filename: 'x' }), 'x');
      assert.strictEqual(namedFileWritten('browser_snapshot', {}), undefined);
    });

    it('puts relative names in the output folder and refuses ones that climb out', () => {
      assert.deepStrictEqual(resolveWrittenFile('a/b.yml', '/out/pb'), { path: '/out/pb/a/b.yml' });
      assert.deepStrictEqual(resolveWrittenFile('/ws/x.yml', '/out/pb'), { path: '/ws/x.yml' });
      assert.match((resolveWrittenFile('../../.vscode/tasks.json', '/out/pb') as { error: string }).error, /leaves the output folder/);
    });
  });

  describe('output budget', () => {
    it('deletes only files it saw a call write, oldest first, and never a file someone else put there', () => {
      const dir = path.join(scratch(), 'playwright-bridge');
      write(path.join(dir, 'theirs-before.txt'), 3000, 1000);
      const budget = new OutputBudget(dir, 2500, () => undefined);
      write(path.join(dir, 'ours-1.yml'), 1000, 300);
      budget.afterCall(`- [Snapshot](${path.join(dir, 'ours-1.yml')})`);
      write(path.join(dir, 'ours-2.yml'), 1000, 200);
      write(path.join(dir, 'dropped-by-the-person.txt'), 1000, 250);
      budget.afterCall(`- [Snapshot](${path.join(dir, 'ours-2.yml')})`);
      write(path.join(dir, 'sub', 'ours-3.png'), 1000, 100);
      budget.afterCall(`- [Screenshot](${pathToFileURL(path.join(dir, 'sub', 'ours-3.png')).href})`);
      assert.ok(!fs.existsSync(path.join(dir, 'ours-1.yml')), 'the oldest of ours went');
      assert.ok(fs.existsSync(path.join(dir, 'ours-2.yml')) && fs.existsSync(path.join(dir, 'sub', 'ours-3.png')));
      assert.ok(fs.existsSync(path.join(dir, 'theirs-before.txt')), 'a file that was there before is never ours');
      assert.ok(fs.existsSync(path.join(dir, 'dropped-by-the-person.txt')), 'nor one that appeared but no call reported writing');
      assert.strictEqual(budget.writtenBytes, 2000);
    });

    it('keeps its record across restarts and forgets a file someone replaced instead of deleting it', () => {
      const dir = path.join(scratch(), 'playwright-bridge');
      const first = new OutputBudget(dir, 10_000, () => undefined);
      write(path.join(dir, 'ours.yml'), 1000, 500);
      first.afterCall(path.join(dir, 'ours.yml'));
      assert.ok(fs.existsSync(path.join(dir, WRITTEN_RECORD)));
      assert.strictEqual(fs.statSync(path.join(dir, WRITTEN_RECORD)).mode & 0o777, 0o600);
      write(path.join(dir, 'ours.yml'), 1500, 400); // replaced by the person
      const second = new OutputBudget(dir, 1000, () => undefined);
      write(path.join(dir, 'new.yml'), 900, 10);
      second.afterCall(path.join(dir, 'new.yml'));
      assert.ok(fs.existsSync(path.join(dir, 'ours.yml')), 'a replaced file is theirs now');
      assert.ok(fs.existsSync(path.join(dir, 'new.yml')));
    });

    it('keeps at most its number of files, however small: a long session of snapshots does not grow its record', () => {
      const dir = path.join(scratch(), 'playwright-bridge');
      const budget = new OutputBudget(dir, 1024 * 1024 * 1024, () => undefined, 10);
      write(path.join(dir, 'theirs.txt'), 10, 1000);
      for (let i = 0; i < 25; i++) {
        write(path.join(dir, `page-${String(i).padStart(2, '0')}.yml`), 100, 500 - i);
        budget.afterCall(`- [Snapshot](${path.join(dir, `page-${String(i).padStart(2, '0')}.yml`)})`);
      }
      const left = fs
        .readdirSync(dir)
        .filter(name => name.endsWith('.yml'))
        .sort();
      assert.deepStrictEqual(
        left,
        Array.from({ length: 10 }, (_, i) => `page-${i + 15}.yml`),
        'the newest ten of ours',
      );
      assert.strictEqual(budget.writtenBytes, 1000);
      assert.ok(fs.existsSync(path.join(dir, 'theirs.txt')));
      assert.strictEqual(JSON.parse(fs.readFileSync(path.join(dir, WRITTEN_RECORD), 'utf8')).length, 10, 'the record on disk holds ten');
    });

    it('ignores a record that names files outside its folder', () => {
      const root = scratch();
      const dir = path.join(root, 'playwright-bridge');
      fs.mkdirSync(dir, { recursive: true });
      const victim = path.join(root, 'victim.txt');
      write(victim, 5000, 1000);
      const stat = fs.statSync(victim);
      fs.writeFileSync(path.join(dir, WRITTEN_RECORD), JSON.stringify([{ path: victim, size: stat.size, mtimeMs: stat.mtimeMs }]));
      const budget = new OutputBudget(dir, 10, () => undefined);
      write(path.join(dir, 'ours.yml'), 100, 1);
      budget.afterCall(path.join(dir, 'ours.yml'));
      assert.ok(fs.existsSync(victim));
    });
  });

  describe('code from a file', () => {
    it('runs exactly what was shown, once, and nothing if the file changed', () => {
      const root = scratch();
      fs.writeFileSync(path.join(root, 'script.js'), 'await page.goto("a")');
      const shown = new ShownCodeFiles();
      assert.deepStrictEqual(shown.take('script.js', [root]), {
        error: `The content of ${path.join(root, 'script.js')} was not shown for confirmation, so it does not run.`,
      });
      assert.deepStrictEqual(shown.show('script.js', [root]), { path: path.join(root, 'script.js'), content: 'await page.goto("a")' });
      assert.deepStrictEqual(shown.take('script.js', [root]), { code: 'await page.goto("a")' });
      assert.ok('error' in shown.take('script.js', [root]), 'one showing, one run');
      shown.show('script.js', [root]);
      fs.writeFileSync(path.join(root, 'script.js'), 'require("child_process").execSync("rm -rf ~")');
      assert.match((shown.take('script.js', [root]) as { error: string }).error, /changed after it was shown/);
    });
  });
});
