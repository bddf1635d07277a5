/**
 * What one installed @playwright/mcp release offers a client, read from the release itself: its tools with every
 * capability on (name, description, input schema, annotations) as its own stdio server lists them, its command-line
 * flags as `--help` prints them, and the keys of its config file as its `config.d.ts` declares them. No browser is
 * started: listing tools launches none.
 */
import { childNode } from '../support/childNode';
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ALL_CAPABILITIES } from '../../src/core/settings/capabilities';

const run = promisify(execFile);

export interface SurfaceTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: Record<string, unknown>;
}

export interface UpstreamSurface {
  version: string;
  tools: SurfaceTool[];
  /** Each flag by its long name, with its help text (whitespace folded). */
  flags: Record<string, string>;
  /** Every key of the config file, dotted from the top (`browser.launchOptions`). */
  configKeys: string[];
}

/** `packageDir`: the folder of an installed `@playwright/mcp` (its cli.js, package.json and config.d.ts). */
export async function readSurface(packageDir: string): Promise<UpstreamSurface> {
  const version = (JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
  const cli = path.join(packageDir, 'cli.js');
  const help = (await run(process.execPath, [cli, '--help'], { encoding: 'utf8', timeout: 60000 })).stdout;
  return {
    version,
    tools: await listTools(cli),
    flags: flagsOf(help),
    configKeys: configKeysOf(fs.readFileSync(path.join(packageDir, 'config.d.ts'), 'utf8')),
  };
}

async function listTools(cli: string): Promise<SurfaceTool[]> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-upstream-list-'));
  const transport = new StdioClientTransport({
    command: childNode(),
    args: [cli, '--headless', '--isolated', '--caps', ALL_CAPABILITIES.join(','), '--output-dir', path.join(scratch, 'output')],
    env: { ...process.env, TMPDIR: scratch } as Record<string, string>,
    cwd: scratch,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'upstream-check', version: '1' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    return tools
      .map(tool => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
        annotations: (tool.annotations ?? {}) as Record<string, unknown>,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    await client.close().catch(() => undefined);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The `Options:` block of commander's help: a line that starts a flag, then the lines that go on with its text. */
export function flagsOf(help: string): Record<string, string> {
  const flags: Record<string, string> = {};
  let current: string | undefined;
  for (const line of help.split('\n')) {
    const start = /^\s{2}(?:-\w,\s+)?(--[\w-]+)(?:\s+<[^>]+>|\s+\[[^\]]+\])*\s*(.*)$/.exec(line);
    if (start) {
      current = start[1];
      flags[current] = start[2].trim();
    } else if (current && /^\s{10,}\S/.test(line)) {
      flags[current] = `${flags[current]} ${line.trim()}`.trim();
    } else {
      current = undefined;
    }
  }
  return flags;
}

/**
 * The keys of `Config` in config.d.ts, dotted: each `name?:` or `name:` line inside the type's braces, under the
 * keys whose `{` it is nested in. A key whose type is another declared type is listed, not entered.
 */
export function configKeysOf(declarations: string): string[] {
  const start = declarations.indexOf('export type Config = {');
  if (start < 0) return [];
  const keys: string[] = [];
  const stack: (string | undefined)[] = [];
  let pending: string | undefined;
  // Comments out: their text can hold braces and colons.
  const text = declarations
    .slice(start + 'export type Config = '.length)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  for (const token of text.matchAll(/([A-Za-z_$][\w$]*)\??\s*:|[{}]/g)) {
    if (token[0] === '{') {
      stack.push(pending);
      pending = undefined;
    } else if (token[0] === '}') {
      stack.pop();
      pending = undefined;
      if (!stack.length) break;
    } else if (stack.length) {
      pending = token[1];
      keys.push([...stack.filter((key): key is string => !!key), pending].join('.'));
    }
  }
  return [...new Set(keys)].sort();
}
