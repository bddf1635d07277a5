import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { killTree, listDescendants } from '../../src/core/childProcess/processTree';
import { REPO_ROOT, TEST_BROWSER, waitFor } from './realBridge';

/** Launch options a Playwright server started with --unsafe accepts from its client (Debian's Chromium, as root). */
export const SERVER_LAUNCH_HEADERS = {
  'x-playwright-launch-options': JSON.stringify({ executablePath: TEST_BROWSER, headless: true, chromiumSandbox: false }),
};

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>(resolve => probe.close(() => resolve()));
  return port;
}

function stopTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  killTree(child.pid, []);
  for (const pid of listDescendants(child.pid))
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
}

/** `playwright run-server` on loopback, the way a team would run one; stop and start it again at will. */
export class PlaywrightServer {
  private child: ChildProcess | undefined;
  port = 0;

  get endpoint(): string {
    return `ws://127.0.0.1:${this.port}/`;
  }

  async start(): Promise<void> {
    this.port ||= await freePort();
    // --unsafe lets the client name Debian's Chromium as the executable (the server's own download cannot work here).
    const child = spawn(
      process.execPath,
      [path.join(REPO_ROOT, 'node_modules', 'playwright-core', 'cli.js'), 'run-server', '--port', String(this.port), '--host', '127.0.0.1', '--unsafe'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let output = '';
    child.stdout!.on('data', chunk => (output += chunk));
    child.stderr!.on('data', chunk => (output += chunk));
    await waitFor(() => /Listening on/.test(output) || child.exitCode !== null, 20000, 'the Playwright server to listen');
    if (child.exitCode !== null) throw new Error(`run-server exited: ${output}`);
  }

  /** Kills the server and every browser it launched (a crash, from our side). */
  kill(): void {
    if (this.child) stopTree(this.child);
    this.child = undefined;
  }

  get pids(): number[] {
    return this.child?.pid ? [this.child.pid, ...listDescendants(this.child.pid)] : [];
  }
}

/** A Chromium the test starts with a loopback debugging port: "the person's own browser". */
export class CdpBrowser {
  private child: ChildProcess | undefined;
  private readonly profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-cdp-'));
  endpoint = '';

  async start(): Promise<void> {
    const child = spawn(
      TEST_BROWSER,
      [
        '--headless',
        '--no-sandbox',
        '--remote-debugging-address=127.0.0.1',
        '--remote-debugging-port=0',
        `--user-data-dir=${this.profile}`,
        '--no-first-run',
        'about:blank',
      ],
      { stdio: 'ignore' },
    );
    this.child = child;
    const portFile = path.join(this.profile, 'DevToolsActivePort');
    await waitFor(() => fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').includes('\n'), 20000, "Chromium's DevTools port");
    this.endpoint = `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').split('\n')[0]}`;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  /** The page targets it has now (the person's tabs and the agent's). */
  async pages(): Promise<{ url: string; title: string }[]> {
    const list = (await (await fetch(`${this.endpoint}/json/list`)).json()) as { type: string; url: string; title: string }[];
    return list.filter(t => t.type === 'page').map(({ url, title }) => ({ url, title }));
  }

  stop(): void {
    if (this.child) stopTree(this.child);
    this.child = undefined;
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}
