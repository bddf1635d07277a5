import * as assert from 'assert';
import { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Emitter } from '../../src/core/emitter';
import { McpEndpoint, ToolBackend } from '../../src/core/mcpDoor/mcpEndpoint';
import { connectMcpClient, INITIALIZE_BODY, rawMcpPost } from '../support/realBridge';

/** A backend that answers every call at once: the endpoint's session bookkeeping is the unit here. */
function answeringBackend(ended: string[]): ToolBackend {
  const tools: Tool[] = [{ name: 'ping', inputSchema: { type: 'object', properties: {} } }];
  return {
    listTools: async () => tools,
    callTool: async (): Promise<CallToolResult> => ({ content: [{ type: 'text', text: 'pong' }] }),
    onDidChangeTools: new Emitter<Tool[]>().event,
    endSession: id => ended.push(id),
  };
}

describe('MCP endpoint: who is evicted to make room', () => {
  let clock = 1_000_000;
  const now = () => clock;

  it('never evicts a session that called a tool within inUseAfterCallMs; evicts one that never called', async () => {
    const ended: string[] = [];
    const endpoint = new McpEndpoint(answeringBackend(ended), '0', () => undefined, { idleMs: 3_600_000, maxSessions: 2, inUseAfterCallMs: () => 60_000 }, now);
    const address = await endpoint.start();
    try {
      const live = await connectMcpClient(address, 'live');
      await live.callTool({ name: 'ping', arguments: {} });
      clock += 10_000;
      assert.strictEqual((await rawMcpPost(address, INITIALIZE_BODY)).status, 200, 'a second session fills the cap');
      clock += 10_000;
      // The live client is the longest idle, but it called a tool 20 s ago: the raw session that never called goes.
      assert.strictEqual((await rawMcpPost(address, INITIALIZE_BODY)).status, 200);
      assert.strictEqual(endpoint.sessionCount, 2);
      assert.ok(!ended.includes((live.transport as { sessionId?: string }).sessionId!), 'the live session stayed');
      assert.deepStrictEqual((await live.callTool({ name: 'ping', arguments: {} })).content, [{ type: 'text', text: 'pong' }]);
      await live.close();
    } finally {
      await endpoint.dispose();
    }
  });

  it('answers 503 with the reason when every session is in use, and makes room once one has been quiet past the window', async () => {
    const endpoint = new McpEndpoint(answeringBackend([]), '0', () => undefined, { idleMs: 3_600_000, maxSessions: 2, inUseAfterCallMs: () => 120_000 }, now);
    const address = await endpoint.start();
    try {
      const first = await connectMcpClient(address, 'first');
      const second = await connectMcpClient(address, 'second');
      await first.callTool({ name: 'ping', arguments: {} });
      await second.callTool({ name: 'ping', arguments: {} });
      const refused = await rawMcpPost(address, INITIALIZE_BODY);
      assert.strictEqual(refused.status, 503);
      assert.match(refused.body, /Too many MCP sessions: all 2 are in use \(each is running a call or made one in the last 2 min/);
      assert.match(refused.body, /Close one \(DELETE its session, or end a client\) or try again when one has been idle 2 min\./);
      clock += 121_000;
      assert.strictEqual((await rawMcpPost(address, INITIALIZE_BODY)).status, 200, 'quiet past the window: it may go');
      assert.strictEqual(endpoint.sessionCount, 2);
      await Promise.all([first.close(), second.close()]);
    } finally {
      await endpoint.dispose();
    }
  });

  it('without inUseAfterCallMs only a call in flight protects a session (the longest idle goes)', async () => {
    const ended: string[] = [];
    const endpoint = new McpEndpoint(answeringBackend(ended), '0', () => undefined, { idleMs: 3_600_000, maxSessions: 1 }, now);
    const address = await endpoint.start();
    try {
      const only = await connectMcpClient(address, 'only');
      await only.callTool({ name: 'ping', arguments: {} });
      assert.strictEqual((await rawMcpPost(address, INITIALIZE_BODY)).status, 200);
      assert.deepStrictEqual(ended, [(only.transport as { sessionId?: string }).sessionId]);
      await only.close();
    } finally {
      await endpoint.dispose();
    }
  });
});
