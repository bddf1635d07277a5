/**
 * `npm run lint` (and the first step of `npm test`): ESLint with typescript-eslint over src and test,
 * configured here rather than in a top-level file (the repository's top level is kept to what the
 * product card names). Two kinds of rule:
 * - the layers (`layers/import-zones`): which folder of src may import which, and who may import
 *   `vscode`. The table is LAYERS below; src/core/README.md and src/protocol/README.md say why.
 * - promises: a promise nobody awaits or handles (`no-floating-promises`), and one handed where a
 *   plain callback is expected (`no-misused-promises`): both lose errors silently.
 */
import * as path from 'path';
import { ESLint, type Linter, type Rule } from 'eslint';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { REPO_ROOT } from './realBridge';

/** Folder of src -> the folders of src it may import. `extension.ts` (the wiring) may import any. */
export const LAYERS: Record<string, readonly string[]> = {
  protocol: ['protocol'],
  core: ['protocol', 'core'],
  child: ['protocol', 'core', 'child'],
  vscode: ['protocol', 'core', 'vscode'],
  webview: ['protocol', 'webview'],
  build: ['protocol', 'core', 'build'],
};
/** Only these may import the `vscode` module: everything else runs and is tested in plain Node. */
const VSCODE_IMPORTERS = new Set(['vscode', 'extension.ts']);

const SRC = path.join(REPO_ROOT, 'src');

/** The folder of src a file is in (`extension.ts` for the wiring), or undefined outside src. */
function layerOf(file: string): string | undefined {
  const relative = path.relative(SRC, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0];
}

export const importZones: Rule.RuleModule = {
  meta: { type: 'problem', schema: [], docs: { description: 'keeps the layers of src: protocol, core, child, vscode, webview' } },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    const check = (node: Rule.Node, specifier: unknown) => {
      if (typeof specifier !== 'string') return;
      if (specifier === 'vscode') {
        if (!VSCODE_IMPORTERS.has(from)) context.report({ node, message: `src/${from} must not import vscode: it runs in plain Node (only src/vscode and src/extension.ts may)` });
        return;
      }
      if (!specifier.startsWith('.')) {
        // The webview runs in the panel: no Node module and no package but what the protocol brings.
        if (from === 'webview') context.report({ node, message: `src/webview imports only src/protocol, not "${specifier}"` });
        return;
      }
      const to = layerOf(path.resolve(path.dirname(context.filename), specifier));
      const allowed = LAYERS[from];
      if (!allowed || !to) return;
      if (!allowed.includes(to)) context.report({ node, message: `src/${from} must not import src/${to} ("${specifier}"); it may import ${allowed.map(l => `src/${l}`).join(', ')}` });
    };
    return {
      ImportDeclaration: node => check(node, node.source.value),
      ExportNamedDeclaration: node => check(node, node.source?.value),
      ExportAllDeclaration: node => check(node, node.source.value),
      ImportExpression: node => check(node, node.source.type === 'Literal' ? node.source.value : undefined),
      CallExpression: node => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
    };
  },
};

export function lintConfig(): Linter.Config[] {
  return [
    { ignores: ['out/**', 'dist/**', 'node_modules/**', '.test-artifacts/**', '.vscode-test/**', 'test/vscode/chat-helper/dist/**'] },
    js.configs.recommended,
    ...(tseslint.configs.recommended as Linter.Config[]),
    {
      files: ['src/**/*.ts', 'test/**/*.ts'],
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: REPO_ROOT } },
      plugins: { layers: { rules: { 'import-zones': importZones } } },
      rules: {
        'layers/import-zones': 'error',
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': 'error',
        // `_name` says "deliberately unused" (a callback's place-holding parameter).
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      },
    },
  ];
}

async function main(): Promise<void> {
  const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfigFile: true, overrideConfig: lintConfig(), errorOnUnmatchedPattern: false });
  const results = await eslint.lintFiles(['src/**/*.ts', 'test/**/*.ts']);
  const formatter = await eslint.loadFormatter('stylish');
  const problems = results.reduce((sum, r) => sum + r.errorCount + r.warningCount, 0);
  const text = await formatter.format(results);
  if (text) console.log(text);
  console.log(`[lint] ${results.length} files, ${problems} problems`);
  process.exit(problems ? 1 : 0);
}

if (require.main === module) void main().catch(error => { console.error(error); process.exit(2); });
