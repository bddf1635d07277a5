/**
 * Writes `contributes.languageModelTools` in package.json from the pinned @playwright/mcp, and the host's own tools.
 *   node dist/generateToolManifest.js          rewrite package.json
 *   node dist/generateToolManifest.js --check  exit 1 and list the differences instead
 */
import * as fs from 'fs';
import * as path from 'path';
import { ownToolDefinitions } from '../core/tools/toolRegistry';
import { diffManifests, ManifestTool, manifestEntry, registryDifferences } from '../core/tools/toolManifest';
import { collectToolManifest } from './collectToolManifest';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..');
  const packagePath = path.join(root, 'package.json');
  // The child's tools, and the ones the extension host answers itself (their records in core/tools/toolRegistry.ts).
  const manifest = [
    ...(await collectToolManifest(path.join(root, 'dist', 'child.js'))),
    ...ownToolDefinitions('host').map(tool => manifestEntry(tool, undefined)),
  ].sort((a, b) => a.name.localeCompare(b.name));
  const unregistered = registryDifferences(manifest);
  if (unregistered.length) {
    console.error(
      `The tool registry does not describe the pinned child's tools (${unregistered.length} differences): give each tool its record:\n${unregistered.join('\n')}`,
    );
    process.exit(1);
  }
  const packageJson = JSON.parse(fs.readFileSync(packagePath, 'utf8'));
  const current: ManifestTool[] = packageJson.contributes?.languageModelTools ?? [];
  const differences = diffManifests(manifest, current);
  if (process.argv.includes('--check')) {
    if (differences.length) {
      console.error(`package.json does not match the pinned child (${differences.length} differences); run npm run generate:tools:\n${differences.join('\n')}`);
      process.exit(1);
    }
    console.log(`package.json lists the child's ${manifest.length} tools exactly.`);
    return;
  }
  packageJson.contributes = { ...packageJson.contributes, languageModelTools: manifest };
  fs.writeFileSync(packagePath, `${JSON.stringify(packageJson, null, 2)}\n`);
  console.log(`Wrote ${manifest.length} language-model tools to package.json (${differences.length} changed).`);
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
