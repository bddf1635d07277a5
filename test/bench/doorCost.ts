/**
 * Where the MCP door's time goes, apart from the browser: the same small tools/call answered by a
 * backend that returns at once, through the door with the MCP SDK's client (what the bench's `http` door
 * uses) and with a bare `fetch`, beside a `fetch` to a Node HTTP server that does nothing but answer.
 * `npm run bench` writes it as `httpDoorCost`; `node out/test/bench/doorCost.js` prints it alone.
 *
 * - plainFetchMs: a loopback fetch round trip to an empty server (the floor any HTTP client pays).
 * - doorFetchMs: the same fetch carrying a tools/call through the door (guard, parse, validation, reply).
 * - doorSdkClientMs: the MCP SDK's client calling a tool through the door (its transport and validation too).
 * The door's own share is doorFetchMs - plainFetchMs; what a stdio call does not pay at all is doorSdkClientMs.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { CallToolResult, LATEST_PROTOCOL_VERSION, Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpEndpoint, ToolBackend } from '../../src/core/mcpDoor/mcpEndpoint';
import { connectMcpClient } from '../support/realBridge';
import { median } from '../support/median';

export interface DoorCostFigures {
  calls: number;
  plainFetchMs: number;
  doorFetchMs: number;
  doorSdkClientMs: number;
}

const TOOL: Tool = { name: 'echo', inputSchema: { type: 'object', properties: {} } };
// About the size of a browser_network_requests answer in the bench's session.
const RESULT: CallToolResult = { content: [{ type: 'text', text: '### Result\n' + '- [GET] http://127.0.0.1/ => [200] OK\n'.repeat(5) }] };

const ms = (values: number[]) => Math.round(median(values) * 1000) / 1000;

export async function measureDoorCost(calls = 400): Promise<DoorCostFigures> {
  const plain = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: RESULT });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>(resolve => plain.listen(0, '127.0.0.1', resolve));
  const plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
  const backend: ToolBackend = {
    listTools: async () => [TOOL],
    callTool: async () => RESULT,
    onDidChangeTools: () => ({
      dispose() {
        /* never fires */
      },
    }),
  };
  const endpoint = new McpEndpoint(backend, 'door-cost', () => undefined);
  const address = await endpoint.start();
  const client = await connectMcpClient(address, 'door-cost');
  try {
    await client.listTools();
    const transport = client.transport as { sessionId?: string; protocolVersion?: string } | undefined;
    const headers = {
      authorization: `Bearer ${address.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport?.sessionId ?? '',
      'mcp-protocol-version': transport?.protocolVersion ?? LATEST_PROTOCOL_VERSION,
    };
    const times = { plain: [] as number[], door: [] as number[], sdk: [] as number[] };
    const post = async (url: string, id: number) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: TOOL.name, arguments: {} } });
      const response = await fetch(url, { method: 'POST', headers, body });
      const reply = (await response.json()) as { result?: unknown };
      if (!reply.result) throw new Error(`door cost: no result from ${url}: ${JSON.stringify(reply).slice(0, 200)}`);
    };
    // Interleaved, so that each kind meets the machine in the same state.
    for (let i = 0; i < calls; i++) {
      let started = performance.now();
      await post(plainUrl, i);
      times.plain.push(performance.now() - started);
      started = performance.now();
      await post(address.url, i);
      times.door.push(performance.now() - started);
      started = performance.now();
      await client.callTool({ name: TOOL.name, arguments: {} });
      times.sdk.push(performance.now() - started);
    }
    return { calls, plainFetchMs: ms(times.plain), doorFetchMs: ms(times.door), doorSdkClientMs: ms(times.sdk) };
  } finally {
    await client.close();
    await endpoint.dispose();
    await new Promise(resolve => plain.close(resolve));
  }
}

if (require.main === module) {
  measureDoorCost().then(
    figures => console.log(JSON.stringify(figures)),
    error => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
