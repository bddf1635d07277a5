import * as assert from 'assert';
import { vsixProblems } from '../vsix/packageVsix';

describe('VSIX allow-list', () => {
  const base = [
    'extension/dist/extension.js',
    'extension/dist/child.js',
    'extension/dist/webview/panel.js',
    'extension/node_modules/@playwright/mcp/index.js',
    'extension/node_modules/playwright-core/lib/coreBundle.js',
  ].map(name => ({ name }));

  it('accepts what runs', () => {
    assert.deepStrictEqual(
      vsixProblems([...base, { name: 'extension/package.json' }, { name: 'extension/media/icon.png' }, { name: '[Content_Types].xml' }], 1000),
      [],
    );
  });

  it('names sources, maps, tests, stray files and an oversized package', () => {
    const problems = vsixProblems(
      [
        ...base,
        { name: 'extension/src/extension.ts' },
        { name: 'extension/dist/extension.js.map' },
        { name: 'extension/out/test/unit/x.js' },
        { name: 'extension/node_modules/zod/index.js' },
      ],
      9 * 1024 * 1024,
    );
    assert.deepStrictEqual(problems, [
      'not on the allow-list: extension/src/extension.ts',
      'not on the allow-list: extension/dist/extension.js.map',
      'not on the allow-list: extension/out/test/unit/x.js',
      'not on the allow-list: extension/node_modules/zod/index.js',
      'the VSIX is 9.00 MB, over 8 MB',
    ]);
  });
});
