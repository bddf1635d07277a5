import { resultText } from '../../src/core/results/resultText';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EndpointAddress, EndpointLimits, McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';
import { childFactoryFor } from '../../src/core/childProcess/childProcess';
import { isAlive, listDescendants } from '../../src/core/childProcess/processTree';
import { buildChildConfig, childSpawnSpec, ChildConfig, SecretEntry } from '../../src/core/childProcess/childConfig';
import { BridgeSettings, DEFAULT_SETTINGS } from '../../src/core/settings/settings';
import { Supervisor } from '../../src/core/supervision/supervisor';
import { toolPolicyOf, ToolPolicySettings } from '../../src/core/tools/toolPolicy';
import { childNode } from './childNode';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CHILD_SCRIPT = path.join(REPO_ROOT, 'dist', 'child.js');
export const TEST_BROWSER = process.env.PLAYWRIGHT_BRIDGE_TEST_BROWSER ?? '/usr/bin/chromium';

export interface RealBridge {
  supervisor: Supervisor;
  config: ChildConfig;
  logs: string[];
  /** A folder unique to this bridge: every process of its tree names it (argv or environment). */
  scratch: string;
  /** Readonly mode and the allow/deny lists; change it to change them (read per call, as in VS Code). */
  policy: ToolPolicySettings;
  dispose(): Promise<void>;
}

/** A supervisor over the real child and Debian's Chromium, with every file it writes in a scratch folder. */
export function makeRealBridge(
  overrides: Partial<BridgeSettings> = {},
  configOverrides: Partial<ChildConfig> = {},
  options: { secrets?: Record<string, SecretEntry>; connectHeaders?: Record<string, string>; childNode?: string } = {},
): RealBridge {
  if (!fs.existsSync(TEST_BROWSER))
    throw new Error(`No browser at ${TEST_BROWSER}: install it (apt-get install -y chromium) or set PLAYWRIGHT_BRIDGE_TEST_BROWSER.`);
  if (!fs.existsSync(CHILD_SCRIPT)) throw new Error(`${CHILD_SCRIPT} is missing: run the build first (npm test does).`);
  // Short on purpose: Chromium's socket paths must stay under ~107 characters.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-'));
  const settings: BridgeSettings = {
    ...DEFAULT_SETTINGS,
    browser: 'chromium',
    executablePath: TEST_BROWSER,
    profile: 'isolated',
    ...overrides,
  };
  const workspace = path.join(scratch, 'ws');
  fs.mkdirSync(workspace);
  const config = { ...buildChildConfig(settings, { storageDir: path.join(scratch, 'storage'), workspaceFolders: [workspace] }), ...configOverrides };
  const tmpDir = path.join(scratch, 'tmp');
  fs.mkdirSync(tmpDir);
  const spec = childSpawnSpec(config, {
    execPath: options.childNode ?? childNode(),
    childScript: CHILD_SCRIPT,
    baseEnv: { ...process.env, XDG_CACHE_HOME: path.join(scratch, 'cache'), XDG_CONFIG_HOME: path.join(scratch, 'config') },
    tmpDir,
    // As the extension hands them over: on the child's private pipe.
    privateInput: { secrets: options.secrets ?? {}, connectHeaders: options.connectHeaders ?? {} },
  });
  const logs: string[] = [];
  const policy: ToolPolicySettings = toolPolicyOf(settings);
  const supervisor = new Supervisor({
    factory: childFactoryFor(spec),
    log: line => logs.push(line),
    callTimeoutMs: () => 60000,
    backoffMs: [200, 500],
    toolPolicy: () => policy,
  });
  return {
    supervisor,
    config,
    logs,
    scratch,
    policy,
    async dispose() {
      await supervisor.dispose();
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

/** Pids of live processes whose command line or environment names `marker`. */
export function processesMentioning(marker: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (!isAlive(Number(name))) continue;
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      let environ = '';
      try {
        environ = fs.readFileSync(`/proc/${name}/environ`, 'utf8');
      } catch {
        /* not ours to read */
      }
      if (cmdline.includes(marker) || environ.includes(marker)) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** Closes an MCP client of a stdio child (bare upstream) and kills whatever of its tree is left, then its scratch folder. */
export async function closeStdioChild(client: Client, pid: number | null | undefined, scratch: string): Promise<void> {
  const tree = pid ? listDescendants(pid) : [];
  await client.close();
  for (const leftover of tree)
    try {
      process.kill(leftover, 'SIGKILL');
    } catch {
      /* gone */
    }
  fs.rmSync(scratch, { recursive: true, force: true });
}

/** An MCP client connected to the bridge's endpoint, with its bearer token, as VS Code's would be. */
export async function connectMcpClient(address: EndpointAddress, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(address.url), { requestInit: { headers: { Authorization: `Bearer ${address.token}` } } }));
  return client;
}

/** One client at a bridge's MCP door, and a short way to call a tool. */
export interface DoorClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(tool: string, args?: Record<string, unknown>): Promise<{ result: CallToolResult; text: string }>;
}

/** A real bridge behind its MCP endpoint, and a way to connect named clients to it. */
export interface RealDoor {
  bridge: RealBridge;
  endpoint: McpEndpoint;
  address: EndpointAddress;
  connect(name: string): Promise<DoorClient>;
  dispose(): Promise<void>;
}

export async function openDoor(
  overrides: Partial<BridgeSettings> = {},
  configOverrides: Partial<ChildConfig> = {},
  limits?: EndpointLimits,
): Promise<RealDoor> {
  const bridge = makeRealBridge(overrides, configOverrides);
  const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined, limits);
  const address = await endpoint.start();
  const clients: Client[] = [];
  const connect = async (name: string): Promise<DoorClient> => {
    const client = await connectMcpClient(address, name);
    clients.push(client);
    const call = async (tool: string, args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60000 })) as CallToolResult;
      return { result, text: textOf(result) };
    };
    return { client, transport: client.transport as StreamableHTTPClientTransport, call };
  };
  return {
    bridge,
    endpoint,
    address,
    connect,
    async dispose() {
      for (const client of clients) await client.close().catch(() => undefined);
      await endpoint.dispose();
      await bridge.dispose();
    },
  };
}

/** An MCP initialize, as a client sends it first. */
export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One raw POST to the endpoint (no SDK in between), as an attacker holding the bearer token would send it. */
export function rawMcpPost(address: EndpointAddress, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: address.port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${address.token}`, ...headers },
      },
      res => {
        let text = '';
        res.on('data', chunk => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function textOf(result: CallToolResult): string {
  return resultText(result);
}

/** Polls until `condition` holds; `what` (or what it returns, at the time) names it in the timeout error. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string | (() => string), intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise(resolve => setTimeout(resolve, intervalMs));
  }
}

/** The [ref=…] of the first snapshot line matching `pattern`. */
export function refOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find(l => pattern.test(l));
  const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no element matching ${pattern} in:\n${snapshot}`);
  return ref;
}
