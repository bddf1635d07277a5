import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Writable } from 'stream';
import { buildChildConfig, childSpawnSpec } from '../../src/core/childProcess/childConfig';
import { DEFAULT_SETTINGS } from '../../src/core/settings/settings';
import { ChildConfigSchema } from '../../src/protocol/childConfig';
import { REPO_ROOT } from '../support/realBridge';

/** Starts the built child with `input` on its private pipe; resolves with its exit code and what it wrote to stderr. */
function startChild(input: string, storageDir: string): Promise<{ code: number | null; stderr: string }> {
  const config = buildChildConfig(DEFAULT_SETTINGS, { storageDir, workspaceFolders: [] });
  const spec = childSpawnSpec(config, {
    execPath: process.execPath,
    childScript: path.join(REPO_ROOT, 'dist', 'child.js'),
    tmpDir: os.tmpdir(),
    baseEnv: process.env,
  });
  fs.mkdirSync(spec.cwd, { recursive: true });
  const child = spawn(spec.command, spec.args, { env: spec.env, cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', chunk => {
    stderr += String(chunk);
  });
  (child.stdio[3] as Writable).end(input);
  return new Promise(resolve => child.on('exit', code => resolve({ code, stderr })));
}

describe('The child reads its start input through the schema in src/protocol/childConfig.ts', () => {
  it('accepts the config the host builds from default settings', () => {
    const config = buildChildConfig(DEFAULT_SETTINGS, { storageDir: os.tmpdir(), workspaceFolders: [] });
    const parsed = ChildConfigSchema.safeParse(JSON.parse(JSON.stringify(config)));
    assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  });

  it('stops with a message naming the field when the config does not match (a host and a child of different builds)', async () => {
    const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-start-input-'));
    const config = JSON.parse(JSON.stringify(buildChildConfig(DEFAULT_SETTINGS, { storageDir, workspaceFolders: [] })));
    delete config.launch;
    config.viewport = { width: 'wide', height: 720 };
    const { code, stderr } = await startChild(JSON.stringify({ config, secrets: {}, connectHeaders: {} }), storageDir).finally(() =>
      fs.rmSync(storageDir, { recursive: true, force: true }),
    );
    assert.strictEqual(code, 1);
    assert.match(stderr, /does not match this child's schema \(config\.launch: .*; config\.viewport\.width: /, stderr);
    assert.match(stderr, /different builds: rebuild, or reinstall the extension/);
  });
});
