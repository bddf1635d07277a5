/**
 * Bare @playwright/mcp as a person wires it by hand: its own stdio server (`cli.js`) on the test
 * browser, in a scratch folder of its own (workspace root, output folder, temp, caches). The yardstick
 * of the benchmarks, the transparency test and the soak.
 */
import { childNode } from './childNode';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { closeStdioChild, REPO_ROOT, TEST_BROWSER } from './realBridge';

export interface BareUpstream {
  client: Client;
  /** The server's process (its browser runs below it). */
  pid: number | undefined;
  /** Its workspace root (where it resolves relative names) and output folder. */
  workspace: string;
  outputDir: string;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * Starts it with the launch options every comparison needs, plus `extraArgs` (capabilities, timeouts, ...);
 * `packageFolder`: another release's installed package (the upstream check), else the pinned one.
 */
export async function startBareUpstream(
  extraArgs: string[] = [],
  name = 'bare',
  packageFolder = path.join(REPO_ROOT, 'node_modules', '@playwright', 'mcp'),
): Promise<BareUpstream> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-bare-'));
  const workspace = path.join(scratch, 'ws');
  const outputDir = path.join(scratch, 'output');
  fs.mkdirSync(workspace);
  const transport = new StdioClientTransport({
    command: childNode(),
    args: [
      path.join(packageFolder, 'cli.js'),
      '--browser',
      'chromium',
      '--executable-path',
      TEST_BROWSER,
      '--headless',
      '--isolated',
      '--no-sandbox',
      '--output-dir',
      outputDir,
      ...extraArgs,
    ],
    env: { ...process.env, TMPDIR: scratch, XDG_CACHE_HOME: path.join(scratch, 'cache'), XDG_CONFIG_HOME: path.join(scratch, 'config') } as Record<
      string,
      string
    >,
    cwd: workspace,
    stderr: 'ignore',
  });
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? undefined,
    workspace,
    outputDir,
    call: async (tool, args) => (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120000 })) as CallToolResult,
    close: () => closeStdioChild(client, transport.pid, scratch),
  };
}
