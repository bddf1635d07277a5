// @ts-check
/**
 * The lint configuration, in plain JavaScript (CommonJS, which both the ESM config files and the tests' CommonJS load) so that ESLint itself can load it: `npm run lint`
 * (test/support/lint.ts) uses it, and so do `src/eslint.config.mjs` and `test/eslint.config.mjs`, which
 * ESLint finds from each file's folder (so plain `npx eslint .` and editors' ESLint work too; the top
 * level stays as the product card names it). Two kinds of rule:
 * - the layers (`layers/import-zones`): which folder of src may import which, and who may import
 *   `vscode`. The table is LAYERS below; src/core/README.md and src/protocol/README.md say why.
 * - the source's shape (`layers/no-import-loop`, `layers/tool-names`): no file of src is in an import loop,
 *   and a tool's name is written only in the tools folders, read off the syntax tree (sourceChecks.cjs).
 * - promises: a promise nobody awaits or handles (`no-floating-promises`), and one handed where a
 *   plain callback is expected (`no-misused-promises`): both lose errors silently.
 */
const path = require('path');
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');
const { importGraph, importLoops, toolNameLiterals } = require('./sourceChecks.cjs');

/** Folder of src -> the folders of src it may import. `extension.ts` (the wiring) may import any. */
const LAYERS = {
  protocol: ['protocol'],
  core: ['protocol', 'core'],
  child: ['protocol', 'core', 'child'],
  vscode: ['protocol', 'core', 'vscode'],
  webview: ['protocol', 'webview'],
  build: ['protocol', 'core', 'build'],
};
/** Only these may import the `vscode` module: everything else runs and is tested in plain Node. */
const VSCODE_IMPORTERS = new Set(['vscode', 'extension.ts']);

/**
 * The layer rule for the src folder of one checkout.
 * @param {string} repoRoot
 * @returns {import('eslint').Rule.RuleModule}
 */
function importZonesRule(repoRoot) {
  const src = path.join(repoRoot, 'src');
  /** The folder of src a file is in (`extension.ts` for the wiring), or undefined outside src. @param {string} file */
  const layerOf = file => {
    const relative = path.relative(src, file);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep)[0];
  };
  return {
    meta: { type: 'problem', schema: [], docs: { description: 'keeps the layers of src: protocol, core, child, vscode, webview' } },
    create(context) {
      const from = layerOf(context.filename);
      if (!from) return {};
      /** @param {import('eslint').Rule.Node} node @param {unknown} specifier */
      const check = (node, specifier) => {
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
        const target = path.resolve(path.dirname(context.filename), specifier);
        const relativeToRoot = path.relative(repoRoot, target);
        if (!relativeToRoot.startsWith('..') && relativeToRoot.split(path.sep)[0] !== 'src') {
          context.report({ node, message: `src must not import from outside src ("${specifier}"): the tests and tools depend on the product, never the reverse` });
          return;
        }
        const to = layerOf(target);
        const allowed = /** @type {Record<string, string[]>} */ (LAYERS)[from];
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
}

/**
 * No file of src in an import loop: the graph is read once per lint run (every file's imports, type-only ones too),
 * and each file in a loop is told which files the loop holds.
 * @param {string} repoRoot
 * @returns {import('eslint').Rule.RuleModule}
 */
function noImportLoopRule(repoRoot) {
  /** @type {Map<string, string[]> | undefined} */
  let loopOf;
  const src = path.join(repoRoot, 'src');
  return {
    meta: { type: 'problem', schema: [], docs: { description: 'no import loops in src' } },
    create(context) {
      if (path.relative(src, context.filename).startsWith('..')) return {};
      if (!loopOf) {
        loopOf = new Map();
        for (const loop of importLoops(importGraph(repoRoot), src)) for (const file of loop) loopOf.set(path.join(src, file), loop);
      }
      const loop = loopOf.get(context.filename);
      return loop ? { Program: node => context.report({ node, message: `this file is in an import loop: ${loop.join(' -> ')}; move what they share to where it belongs` }) } : {};
    },
  };
}

/**
 * A tool's name (`browser_click`, `bridge_emulate`) is written only in the tools folders (src/core/tools, src/child/tools),
 * where what a tool is and does lives; elsewhere code reaches it through its record or a named constant of those folders.
 * @param {string} repoRoot
 * @returns {import('eslint').Rule.RuleModule}
 */
function toolNamesRule(repoRoot) {
  const src = path.join(repoRoot, 'src');
  return {
    meta: { type: 'problem', schema: [], docs: { description: 'tool names only in the tools folders' } },
    create(context) {
      if (path.relative(src, context.filename).startsWith('..')) return {};
      const found = toolNameLiterals(repoRoot, context.filename);
      return found.length ? {
        Program: node => context.report({ node, message: `tool names written outside src/core/tools and src/child/tools (line: name): ${found.join(', ')}` }),
      } : {};
    },
  };
}

/**
 * The whole configuration; its file patterns hold wherever it is loaded from (the repository's root or
 * one of its folders).
 * @param {string} repoRoot
 * @returns {import('eslint').Linter.Config[]}
 */
function lintConfig(repoRoot) {
  return [
    // TypeScript only: the JavaScript here is this configuration itself (and the build script, outside src and test).
    { ignores: ['**/out/**', '**/dist/**', '**/node_modules/**', '**/.test-artifacts/**', '**/.vscode-test/**', '**/*.mjs', '**/*.cjs', '**/*.d.cts'] },
    js.configs.recommended,
    .../** @type {import('eslint').Linter.Config[]} */ (tseslint.configs.recommended),
    {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: repoRoot } },
      plugins: { layers: { rules: { 'import-zones': importZonesRule(repoRoot), 'no-import-loop': noImportLoopRule(repoRoot), 'tool-names': toolNamesRule(repoRoot) } } },
      rules: {
        'layers/import-zones': 'error',
        'layers/no-import-loop': 'error',
        'layers/tool-names': 'error',
        '@typescript-eslint/no-floating-promises': 'error',
        '@typescript-eslint/no-misused-promises': 'error',
        // `_name` says "deliberately unused" (a callback's place-holding parameter).
        '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      },
    },
  ];
}

module.exports = { LAYERS, importZonesRule, noImportLoopRule, toolNamesRule, lintConfig };
