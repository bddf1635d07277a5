import * as assert from 'assert';
import * as path from 'path';
import { namedFileRead, namedFileWritten, resolveNamedFiles, resolveWrittenFile } from '../../src/core/tools/fileTools';
import { presentInvocation } from '../../src/core/results/invocationMessages';

const OUT = path.resolve('/out/pwb');

describe('where a relative file name points, for readers and writers alike', () => {
  it('storage state is written and read back under the same rule: relative names in the output folder', () => {
    assert.strictEqual(namedFileWritten('browser_storage_state', { filename: 'rt.json' }), 'rt.json');
    assert.strictEqual(namedFileRead('browser_set_storage_state', { filename: 'rt.json' }), 'rt.json');
    assert.deepStrictEqual(resolveWrittenFile('rt.json', OUT), { path: path.join(OUT, 'rt.json') });
    assert.ok('error' in resolveWrittenFile('../rt.json', OUT), 'climbing out with .. is refused');
  });

  it('the confirmation to read storage state shows the exact absolute file', () => {
    const shown = presentInvocation('browser_set_storage_state', 'Set storage state', { filename: 'rt.json' }, { outputDir: OUT });
    assert.ok(shown.confirmation, 'asks first');
    assert.ok(shown.confirmation!.message.includes(path.join(OUT, 'rt.json')), shown.confirmation!.message);
  });

  it('files handed to the page (upload, drop) are found where writers put them, by the same rule', () => {
    for (const tool of ['browser_file_upload', 'browser_drop']) {
      assert.deepStrictEqual(resolveNamedFiles(tool, { paths: ['a.txt', '/abs/b.txt'] }, OUT), {
        args: { paths: [path.join(OUT, 'a.txt'), path.resolve('/abs/b.txt')] },
      });
      const climbing = resolveNamedFiles(tool, { paths: ['a.txt', '../../etc/passwd'] }, OUT);
      assert.ok('error' in climbing && /leaves the output folder/.test(climbing.error), JSON.stringify(climbing));
      const shown = presentInvocation(tool, 'Upload', { paths: ['a.txt'] }, { outputDir: OUT });
      assert.ok(shown.confirmation!.message.includes(path.join(OUT, 'a.txt')), shown.confirmation!.message);
    }
    assert.deepStrictEqual(resolveNamedFiles('browser_click', { target: 'e1' }, OUT), { args: { target: 'e1' } }, 'other calls pass as given');
  });

  it('a file name of spaces only is refused, not written under that name in the workspace root', () => {
    const refused = resolveNamedFiles('browser_take_screenshot', { filename: '   ' }, '/out');
    assert.ok('error' in refused && /blank/.test(refused.error), JSON.stringify(refused));
    assert.deepStrictEqual(
      resolveNamedFiles('browser_take_screenshot', { filename: '' }, '/out'),
      { args: { filename: '' } },
      'an empty name is upstream\'s "none"',
    );
  });
});
