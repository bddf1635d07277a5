/**
 * Run before the tests: says exactly what is missing instead of letting a test fail obscurely.
 */
import * as fs from 'fs';
import { execFileSync } from 'child_process';
import { TEST_BROWSER } from './realBridge';
import { childNode, VSCODE_NODE_MAJOR } from './childNode';

const problems: string[] = [];
if (!fs.existsSync(TEST_BROWSER)) {
  problems.push(
    `No browser at ${TEST_BROWSER}. Install Debian's Chromium: sudo apt-get install -y chromium (or set PLAYWRIGHT_BRIDGE_TEST_BROWSER to a Chromium-family browser).`,
  );
}
const major = Number(process.versions.node.split('.')[0]);
if (major < 20) problems.push(`Node.js ${process.versions.node} is too old: use Node.js 20 or newer.`);
if (!problems.length) {
  // The child's Node (VS Code's major), installed here once so that no test pays for it inside its timeout.
  try {
    console.log(`The child runs on ${execFileSync(childNode(), ['--version'], { encoding: 'utf8' }).trim()} (${childNode()}).`);
  } catch (error) {
    problems.push(`No Node ${VSCODE_NODE_MAJOR} or later for the child: ${(error as Error).message.split('\n')[0]}`);
  }
}
if (problems.length) {
  console.error(`Cannot run the tests:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
