/**
 * Starts code-server (a real VS Code server build) on 127.0.0.1 and opens its workbench in a
 * headless Chromium. Everything it starts lives in one process group that `stop()` kills, and all
 * its files go into one scratch folder.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { CodeServerInstall } from './codeServerInstall';

export interface SessionOptions {
  install: CodeServerInstall;
  folder: string;
  userDataDir: string;
  extensionsDir: string;
  /** Query pairs for the workbench (extensionDevelopmentPath, ...), given the server's remote URI maker. */
  payload?: (remoteUri: (absolutePath: string) => string) => [string, string][];
  /** Run the workbench's smoke-test driver: needed for `payload`, auto-confirms dialogs. */
  smokeTestDriver: boolean;
  /** Environment for code-server (and so for the extension host). */
  env: NodeJS.ProcessEnv;
  browserPath: string;
  headless: boolean;
  onLog?: (line: string) => void;
}

/**
 * Makes an extension folder an installed extension of a code-server extensions folder, by a link
 * named as VS Code names installed extensions, so rebuilding the folder updates it.
 */
export function linkExtension(folder: string, extensionsDir: string): void {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
  fs.mkdirSync(extensionsDir, { recursive: true });
  const link = path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(folder, link);
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}

export class CodeServerSession {
  private server: ChildProcess | undefined;
  browser: Browser | undefined;
  page: Page | undefined;
  port = 0;
  readonly scratch: string;

  constructor(private readonly options: SessionOptions) {
    this.scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-vsc-'));
  }

  /** The workbench URL, with the folder and payload. */
  url(): string {
    const query = new URLSearchParams({ folder: this.options.folder });
    if (this.options.payload) query.set('payload', JSON.stringify(this.options.payload(p => this.remoteUri(p))));
    return `http://127.0.0.1:${this.port}/?${query.toString()}`;
  }

  remoteUri(absolutePath: string): string {
    return `vscode-remote://127.0.0.1:${this.port}${absolutePath}`;
  }

  async startServer(port?: number): Promise<void> {
    this.port = port ?? (await freePort());
    const o = this.options;
    const home = path.join(this.scratch, 'home');
    for (const dir of ['home', 'config', 'data', 'cache', 'tmp']) fs.mkdirSync(path.join(this.scratch, dir), { recursive: true });
    const args = [
      o.install.entry,
      '--bind-addr',
      `127.0.0.1:${this.port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      o.userDataDir,
      '--extensions-dir',
      o.extensionsDir,
      ...(o.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
      o.folder,
    ];
    this.server = spawn(o.install.node, args, {
      // Its own process group, so stop() reaches the file watcher, the extension host and what they start.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...o.env,
        HOME: home,
        XDG_CONFIG_HOME: path.join(this.scratch, 'config'),
        XDG_DATA_HOME: path.join(this.scratch, 'data'),
        XDG_CACHE_HOME: path.join(this.scratch, 'cache'),
        TMPDIR: path.join(this.scratch, 'tmp'),
      },
    });
    const forward = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) o.onLog?.(`[code-server] ${line}`);
    };
    this.server.stdout!.on('data', forward);
    this.server.stderr!.on('data', forward);
    const exited = new Promise<never>((_, reject) =>
      this.server!.once('exit', code => reject(new Error(`code-server exited with code ${code} before it listened`))),
    );
    await Promise.race([this.waitHealthy(60000), exited]);
  }

  private async waitHealthy(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const ok = await new Promise<boolean>(resolve => {
        const req = http.get(`http://127.0.0.1:${this.port}/healthz`, res => {
          res.resume();
          resolve(res.statusCode === 200);
        });
        req.on('error', () => resolve(false));
        req.setTimeout(2000, () => req.destroy());
      });
      if (ok) return;
      await new Promise(resolve => setTimeout(resolve, 250));
    }
    throw new Error(`code-server did not answer /healthz on port ${this.port} within ${timeoutMs} ms`);
  }

  /** Opens the workbench in Chromium; `expose` functions are installed before the page loads. */
  async openWorkbench(expose: Record<string, (...args: never[]) => unknown> = {}, viewport = { width: 1600, height: 1000 }): Promise<Page> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a workbench is opened
    const { chromium } = require('playwright-core') as typeof import('playwright-core');
    this.browser = await chromium.launch({
      executablePath: this.options.browserPath,
      headless: this.options.headless,
      chromiumSandbox: !(typeof process.getuid === 'function' && process.getuid() === 0),
      args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    // Copy as cURL writes the clipboard through the workbench, which a headless browser allows only when granted.
    const context = await this.browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
    this.page = await context.newPage();
    for (const [name, fn] of Object.entries(expose)) await this.page.exposeFunction(name, fn);
    await this.page.goto(this.url());
    return this.page;
  }

  /** Kills the browser and the whole server process group, then removes the scratch folder. */
  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    this.browser = undefined;
    const server = this.server;
    this.server = undefined;
    if (server?.pid) {
      const done = new Promise<void>(resolve => (server.exitCode !== null || server.signalCode !== null ? resolve() : server.once('exit', () => resolve())));
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await Promise.race([done, new Promise(resolve => setTimeout(resolve, 3000))]);
      try {
        process.kill(-server.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    fs.rmSync(this.scratch, { recursive: true, force: true });
  }
}
