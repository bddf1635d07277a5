// Builds the extension, the child and the build scripts as bundles (dist/), and with --tests
// transpiles sources and tests file by file (out/) for mocha.
//   node esbuild.mjs [--production] [--watch] [--tests]
import * as esbuild from 'esbuild';
import * as fs from 'fs';
import * as path from 'path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

const bundles = [
  // The extension host loads this; `vscode` is provided by the editor.
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode', 'playwright'] },
  // The child runs @playwright/mcp, which ships its own runtime files: keep it and Playwright out of the bundle.
  // DevTools' trace engine and axe-core go in (they are dev dependencies: the VSIX ships only what the bundle took);
  // axe's minified source as a string, for the page's isolated world (child/devtools/accessibilityAudit.ts).
  {
    ...common, entryPoints: ['src/child/main.ts'], outfile: 'dist/child.js', external: ['@playwright/mcp', 'playwright', 'playwright-core'],
    define: { BRIDGE_AXE_SOURCE: JSON.stringify(fs.readFileSync(path.join('node_modules', 'axe-core', 'axe.min.js'), 'utf8')) },
  },
  // The browser panel's webview script: runs in the webview, not in Node. The test hook (src/webview/testHook.ts)
  // is compiled out of panel.js; panel-test.js keeps it for the tests (the VSIX leaves it out: .vscodeignore).
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview/panel.js', define: { PANEL_TEST_HOOKS: 'false' } },
  { ...common, platform: 'browser', format: 'iife', target: 'es2022', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview/panel-test.js', define: { PANEL_TEST_HOOKS: 'true' } },
  // Regenerates contributes.languageModelTools from the pinned child.
  { ...common, entryPoints: ['src/build/generateToolManifest.ts'], outfile: 'dist/generateToolManifest.js', external: ['@playwright/mcp', 'playwright', 'playwright-core'] },
  // Regenerates the settings in package.json from the settings table.
  { ...common, entryPoints: ['src/build/generateSettingsManifest.ts'], outfile: 'dist/generateSettingsManifest.js' },
];

function listTs(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTs(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const testBuild = {
  entryPoints: [...listTs('src'), ...listTs('test')],
  outdir: 'out',
  outbase: '.',
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

// The test-only chat helper extension, loaded into the test VS Code next to ours; never shipped.
const chatHelper = { ...common, entryPoints: ['test/chatHelper/extension.ts'], outfile: 'test/vscode/chat-helper/dist/extension.js', external: ['vscode'] };

const startHelper = { ...common, entryPoints: ['test/startHelper/extension.ts'], outfile: 'test/vscode/start-helper/dist/extension.js', external: ['vscode'] };
const builds = tests ? [...bundles, testBuild, chatHelper, startHelper] : bundles;

// The panel's icons: codicons' stylesheet and font, next to the webview script.
fs.mkdirSync('dist/webview', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join('node_modules', '@vscode', 'codicons', 'dist', file), path.join('dist', 'webview', file));

if (watch) {
  const contexts = await Promise.all(builds.map(options => esbuild.context(options)));
  await Promise.all(contexts.map(context => context.watch()));
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map(options => esbuild.build(options)));
}
