import * as assert from 'assert';
import { mcpDefinitionVersion } from '../../src/core/mcpDoor/mcpEndpoint';

describe('MCP server definition version', () => {
  const address = { url: 'http://127.0.0.1:4000/mcp', port: 4000, token: 'a'.repeat(43) };

  it('stays the same while VS Code need not reconnect (browser starts, tool lists, restarts do not enter it)', () => {
    assert.strictEqual(mcpDefinitionVersion(address, 'mcp'), mcpDefinitionVersion({ ...address }, 'mcp'));
  });

  it('changes with the address, the token or the exposure, and never shows the token', () => {
    const base = mcpDefinitionVersion(address, 'mcp');
    assert.notStrictEqual(mcpDefinitionVersion({ ...address, url: 'http://127.0.0.1:4001/mcp', port: 4001 }, 'mcp'), base);
    assert.notStrictEqual(mcpDefinitionVersion({ ...address, token: 'b'.repeat(43) }, 'mcp'), base);
    assert.notStrictEqual(mcpDefinitionVersion(address, 'both'), base);
    assert.ok(!base.includes('aaaa'));
  });
});
