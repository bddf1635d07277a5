/**
 * `npm run lint` (and the first step of `npm test`): ESLint with typescript-eslint over src and test. The
 * configuration and the layer rule are in lintRules.cjs (plain JavaScript, so ESLint can load them from
 * src/eslint.config.mjs and test/eslint.config.mjs too); this runs them over both folders at once.
 */
import * as path from 'path';
import { ESLint } from 'eslint';
import { REPO_ROOT } from './realBridge';

// Loaded from the source tree: the tests are transpiled file by file into out/, and this file is not TypeScript.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rules: typeof import('./lintRules.cjs') = require(path.join(REPO_ROOT, 'test', 'support', 'lintRules.cjs'));

export const LAYERS = rules.LAYERS;
export const importZones = rules.importZonesRule(REPO_ROOT);
export const lintConfig = () => rules.lintConfig(REPO_ROOT);

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

if (require.main === module)
  void main().catch(error => {
    console.error(error);
    process.exit(2);
  });
