/**
 * The tool registry describes exactly the tools package.json declares (which test/real/bridge.test.ts checks
 * against the pinned child), their file traits agree with their schemas, and no other source file keeps a
 * tool name of its own: a tool's name is written only in the tools folders (test/bench/callPath.ts counts the others as
 * `toolNameLiteralsOutsideTools`, read off the syntax tree; lint fails on one).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ManifestTool, registryDifferences } from '../../src/core/tools/toolManifest';
import { TOOL_RECORDS, toolRecord } from '../../src/core/tools/toolRegistry';
import { toolNameLiteralsOutsideTools } from '../bench/callPath';
import { REPO_ROOT } from '../support/realBridge';

const MANIFEST: ManifestTool[] = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).contributes.languageModelTools;

describe('tool registry', () => {
  it('has one record for each tool package.json declares, with the same capability group, and none besides', () => {
    assert.deepStrictEqual(registryDifferences(MANIFEST), []);
    assert.strictEqual(TOOL_RECORDS.length, MANIFEST.length);
  });

  it('names what a tool does with a filename or paths exactly where its schema has one', () => {
    for (const entry of MANIFEST) {
      const properties = (entry.inputSchema.properties ?? {}) as Record<string, unknown>;
      const record = toolRecord(entry.name)!;
      assert.strictEqual(
        record.filename !== undefined,
        'filename' in properties,
        `${entry.name}: filename trait ${record.filename}, schema ${Object.keys(properties).join(',')}`,
      );
      assert.strictEqual(record.readsPaths, 'paths' in properties, `${entry.name}: readsPaths ${record.readsPaths}`);
    }
  });

  it("a tool that acts on the page is never offered in readonly mode, and the bridge's own tools carry their definitions", () => {
    for (const record of TOOL_RECORDS) {
      if (record.observation && record.actsOnPage)
        assert.strictEqual(record.name, 'browser_tabs', 'only browser_tabs acts and observes (readonly allows its "list" alone)');
      assert.strictEqual(record.handler !== 'upstream', record.definition?.name === record.name, record.name);
      // The DevTools tools leave a comment where they ran; every other tool of the bridge's is left out as its own.
      assert.strictEqual(
        record.handler !== 'upstream',
        record.exportAs === 'own' || record.exportAs === 'comment',
        `${record.name}: only the bridge's own tools export as "own" or "comment"`,
      );
      assert.strictEqual(record.exportAs === 'comment', record.onPage === true, `${record.name}: the DevTools tools, and only they, export as a comment`);
    }
  });

  it('is where tool names are written: no tool-name literal outside the tools folders, read off the syntax tree', () => {
    assert.deepStrictEqual(toolNameLiteralsOutsideTools(), []);
  });
});
