/**
 * The registry's `actsOnPage` is upstream's own word: a tool acts on the page exactly when the pinned
 * @playwright/mcp does not mark it read-only (the child takes a checkpoint after each such call).
 */
import * as assert from 'assert';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';
import { TOOL_RECORDS } from '../../src/core/tools/toolRegistry';
import { startBareUpstream } from '../support/bareUpstream';

describe('tool registry against the pinned @playwright/mcp (a real child)', function () {
  this.timeout(120_000);

  it('says a tool acts on the page exactly when upstream does not mark it read-only, for every upstream tool', async () => {
    const upstream = await startBareUpstream([`--caps=${ALL_CAPABILITIES.join(',')}`]);
    try {
      const { tools } = await upstream.client.listTools();
      const records = TOOL_RECORDS.filter(record => record.handler === 'upstream');
      assert.deepStrictEqual(tools.map(tool => tool.name).sort(), records.map(record => record.name).sort());
      const disagree = records.filter(record => record.actsOnPage === (tools.find(tool => tool.name === record.name)?.annotations?.readOnlyHint === true));
      assert.deepStrictEqual(
        disagree.map(record => record.name),
        [],
      );
    } finally {
      await upstream.close();
    }
  });
});
