/**
 * Run before the tests: says exactly what is missing instead of letting a test fail obscurely.
 */
import * as fs from 'fs';
import { TEST_BROWSER } from './realBridge';

const problems: string[] = [];
if (!fs.existsSync(TEST_BROWSER)) {
  problems.push(
    `No browser at ${TEST_BROWSER}. Install Debian's Chromium: sudo apt-get install -y chromium (or set PLAYWRIGHT_BRIDGE_TEST_BROWSER to a Chromium-family browser).`,
  );
}
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) problems.push(`Node.js ${process.versions.node} is too old: use Node.js 20 or newer.`);
if (problems.length) {
  console.error(`Cannot run the tests:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
