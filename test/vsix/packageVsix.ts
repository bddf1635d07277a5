/**
 * npm run package: a production build packed by @vscode/vsce, then checked: every file in the
 * VSIX must match the allow-list below (only what runs), and the whole must stay under 8 MB.
 * Prints the size, the file count and the top-level entries. Exits 1 when a check fails.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as yauzl from 'yauzl';
import { REPO_ROOT } from '../support/realBridge';

export const MAX_VSIX_BYTES = 8 * 1024 * 1024;

/** Paths inside the VSIX (below `extension/`) that may ship. Anything else is a packaging bug. */
export const ALLOWED = [
  /^package\.json$/,
  /^package\.nls\.json$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^LICENSE(\.txt)?$/,
  /^dist\/(extension|child)\.js$/,
  /^dist\/webview\/(panel\.js|codicon\.css|codicon\.ttf)$/,
  /^media\/(icon\.png|browser\.svg|panel\.css|panel\.html)$/,
  /^media\/walkthrough\/[\w-]+\.md$/,
  /^node_modules\/@playwright\/mcp\/(package\.json|index\.js|cli\.js|LICENSE)$/,
  /^node_modules\/playwright-core\/(package\.json|index\.js|index\.mjs|cli\.js|browsers\.json|LICENSE|NOTICE|ThirdPartyNotices\.txt)$/,
  /^node_modules\/playwright-core\/bin\/[\w.-]+$/,
  /^node_modules\/playwright-core\/lib\/.+\.(js|wasm|LICENSE|html|css|svg|png|ico|ttf|woff2?|json|ps1|sh)$/,
  /^node_modules\/playwright-core\/lib\/xdg-open$/,
  // Playwright Test, which runs exported tests (core/testExport/specRunner.ts).
  /^node_modules\/playwright\/(package\.json|index\.js|index\.mjs|test\.js|test\.mjs|cli\.js|LICENSE|NOTICE|ThirdPartyNotices\.txt)$/,
  /^node_modules\/playwright\/lib\/.+\.(js|LICENSE)$/,
];
/** Never, whatever the allow-list says. */
// (Playwright Test's own `lib/mcp/test/` is code its runner loads, not tests.)
const FORBIDDEN = [/\.map$/, /\.ts$/, /^(?!node_modules\/playwright\/lib\/mcp\/test\/)(.*\/)?(test|src|out|\.test-artifacts)\//, /\.vsix$/];

export async function listVsix(file: string): Promise<{ name: string; size: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; size: number }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.push({ name: entry.fileName, size: entry.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

export function vsixProblems(entries: { name: string }[], bytes: number): string[] {
  const problems: string[] = [];
  for (const { name } of entries) {
    if (name === '[Content_Types].xml' || name === 'extension.vsixmanifest') continue;
    const inner = name.replace(/^extension\//, '');
    if (FORBIDDEN.some(p => p.test(inner)) || !ALLOWED.some(p => p.test(inner))) problems.push(`not on the allow-list: ${name}`);
  }
  if (bytes > MAX_VSIX_BYTES) problems.push(`the VSIX is ${(bytes / 1048576).toFixed(2)} MB, over ${MAX_VSIX_BYTES / 1048576} MB`);
  for (const required of [
    'extension/dist/extension.js',
    'extension/dist/child.js',
    'extension/dist/webview/panel.js',
    'extension/node_modules/@playwright/mcp/index.js',
    'extension/node_modules/playwright-core/lib/coreBundle.js',
  ]) {
    if (!entries.some(e => e.name === required)) problems.push(`missing: ${required}`);
  }
  return problems;
}

export async function packageVsix(): Promise<{ file: string; problems: string[] }> {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const file = path.join(REPO_ROOT, `${manifest.name}-${manifest.version}.vsix`);
  fs.rmSync(file, { force: true });
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // vsce runs vscode:prepublish (the production build) first.
  const run = spawnSync(process.execPath, [vsce, 'package', '--out', file], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (run.status !== 0) return { file, problems: [`vsce package failed (exit ${run.status}): ${run.stdout.split('\n').slice(-5).join(' ')}`] };
  const entries = await listVsix(file);
  const bytes = fs.statSync(file).size;
  const problems = vsixProblems(entries, bytes);
  const top = new Map<string, { files: number; bytes: number }>();
  for (const entry of entries) {
    const parts = entry.name.replace(/^extension\//, '').split('/');
    const key = parts[0] === 'node_modules' ? parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/') : parts[0];
    const sum = top.get(key) ?? { files: 0, bytes: 0 };
    sum.files++;
    sum.bytes += entry.size;
    top.set(key, sum);
  }
  console.log(`[package] ${path.basename(file)}: ${(bytes / 1048576).toFixed(2)} MB, ${entries.length} files (target: at most ${MAX_VSIX_BYTES / 1048576} MB)`);
  for (const [key, sum] of [...top].sort())
    console.log(`[package]   ${key.padEnd(48)} ${String(sum.files).padStart(3)} files ${(sum.bytes / 1024).toFixed(0).padStart(7)} KB unpacked`);
  for (const problem of problems) console.error(`[package] ${problem}`);
  return { file, problems };
}

if (require.main === module) {
  packageVsix().then(
    ({ problems }) => process.exit(problems.length ? 1 : 0),
    error => {
      console.error(`[package] ${error instanceof Error ? error.message : error}`);
      process.exit(1);
    },
  );
}
