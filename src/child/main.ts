/**
 * The stdio MCP server the extension starts with the editor's own runtime. It runs
 * @playwright/mcp in-process on a browser it launches itself (see innerSessionRegistry.ts for why).
 */
import * as fs from 'fs';
import * as path from 'path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { PRIVATE_INPUT_FD_ENV } from '../core/childProcess/childConfig';
import { ChildStartInputSchema, type ChildStartInput } from '../protocol/childConfig';
import { PlaywrightModule } from './browserLauncher';
import { ChildServer, type CreateConnection } from './childServer';
import { SecretMask } from '../core/egress/secretMask';
import { SecretSites } from './secretSites';

/**
 * The configuration, secrets and endpoint credentials, read once from the private pipe the extension
 * writes and closes. They were never in this process's environment, so neither /proc/<pid>/environ
 * nor the browser it starts can show them.
 */
async function readStartInput(env: NodeJS.ProcessEnv = process.env): Promise<ChildStartInput> {
  const fd = env[PRIVATE_INPUT_FD_ENV];
  delete env[PRIVATE_INPUT_FD_ENV];
  if (!fd) throw new Error(`${PRIVATE_INPUT_FD_ENV} is not set: this program is started by the Playwright Bridge extension.`);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const stream = fs.createReadStream('', { fd: Number(fd), autoClose: true });
    stream.on('data', chunk => chunks.push(chunk as Buffer));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  const parsed = ChildStartInputSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map(issue => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new Error(
      `The start input from the extension does not match this child's schema (${where}). The extension and dist/child.js are from different builds: rebuild, or reinstall the extension.`,
    );
  }
  return parsed.data;
}

let mask = new SecretMask({});

function log(line: string): void {
  // stdout carries MCP; everything for people goes to stderr, which the extension shows in its log.
  process.stderr.write(`${mask.text(line)}\n`);
}

/**
 * @playwright/mcp, and the very Playwright instance it loads (a second copy's contexts would not
 * work with it). `playwright` only re-exports `playwright-core`, which @playwright/mcp loads itself,
 * so the extension ships `playwright-core` alone.
 */
function loadPlaywrightMcp(): { createConnection: CreateConnection; playwright: PlaywrightModule; version: string } {
  const packageJson = require.resolve('@playwright/mcp/package.json');
  const mcpDir = path.dirname(packageJson);
  // Resolved at run time from the pinned package's own folder, so it cannot be a static import.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { createConnection } = require(mcpDir) as { createConnection: CreateConnection };
  const playwright = require(require.resolve('playwright-core', { paths: [mcpDir] })) as PlaywrightModule;
  const version = (require(packageJson) as { version: string }).version;
  /* eslint-enable @typescript-eslint/no-require-imports */
  return { createConnection, playwright, version };
}

async function main(): Promise<void> {
  // Before anything starts: the log never shows a value, and nothing below runs without the mask.
  const privateInput = await readStartInput();
  const config = privateInput.config;
  const secrets = Object.fromEntries(Object.entries(privateInput.secrets).map(([name, entry]) => [name, entry.value]));
  mask = new SecretMask(secrets);
  const { createConnection, playwright, version } = loadPlaywrightMcp();
  const profile = config.userDataDir ? config.userDataDir : 'isolated (in memory)';
  if (config.connection) {
    // Credentials for the endpoint, from SecretStorage: from the private pipe like the secrets.
    config.connection.headers = { ...config.connection.headers, ...privateInput.connectHeaders };
    log(`Playwright MCP ${version}; browser: ${config.connection.summary}`);
  } else {
    log(`Playwright MCP ${version}; browser: ${config.launch.summary}; ${config.headless ? 'headless' : 'headed'}; profile ${profile}`);
  }
  // Upstream types a secret where the model writes its name, and masks its value in results.
  if (Object.keys(secrets).length) config.mcp.secrets = secrets;
  const sites = new SecretSites(privateInput.secrets);
  log(`Secrets available to type by name: ${sites.describe() || 'none'}`);
  const proxy = new ChildServer(config, createConnection, playwright, log, version, mask, sites);

  let exiting = false;
  const exit = async (why: string) => {
    if (exiting) return;
    exiting = true;
    log(`Shutting down: ${why}`);
    // Do not hang on a wedged browser: the extension kills the whole tree anyway if we are slow.
    const timer = setTimeout(() => process.exit(0), 3000);
    timer.unref();
    await proxy.shutdown().catch(error => log(`Shutdown error: ${error}`));
    process.exit(0);
  };
  proxy.server.onclose = () => void exit('the extension closed the connection');
  process.stdin.on('end', () => void exit('stdin closed'));
  process.on('SIGTERM', () => void exit('SIGTERM'));
  process.on('SIGINT', () => void exit('SIGINT'));
  await proxy.server.connect(new StdioServerTransport());
}

main().catch(error => {
  log(`Playwright Bridge child failed to start: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  process.exit(1);
});
