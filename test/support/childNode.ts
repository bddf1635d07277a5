/**
 * The Node the child runs on in the tests and the bench: the major VS Code ships (22 or later), as it runs for
 * users, not the Node that runs mocha. DevTools' trace engine throws in some insights on Node 20 and nothing
 * noticed while the child ran there. Here that is the Node 24 that runs the real VS Code (code-server), from the
 * same cache; PLAYWRIGHT_BRIDGE_CHILD_NODE names another.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ensureNode } from '../vscode/codeServerInstall';

/** The oldest Node major VS Code ships its extension host on. */
export const VSCODE_NODE_MAJOR = 22;

let found: string | undefined;

export function childNode(): string {
  if (found) return found;
  const named = process.env.PLAYWRIGHT_BRIDGE_CHILD_NODE;
  if (named) {
    if (!fs.existsSync(named)) throw new Error(`PLAYWRIGHT_BRIDGE_CHILD_NODE names ${named}, which does not exist.`);
    return (found = named);
  }
  if (Number(process.versions.node.split('.')[0]) >= VSCODE_NODE_MAJOR) return (found = process.execPath);
  return (found = path.join(ensureNode(), 'bin', 'node'));
}
