/**
 * Starts that share the code-server cache take turns (test/vscode/cacheTurns.ts): two real processes that
 * install at once never overlap, and a lock left by a start that died is taken over. Before it, two starts
 * each found the install missing and one deleted what the other was installing.
 */
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { takeTurn } from '../vscode/cacheTurns';

const MODULE = path.join(__dirname, '..', 'vscode', 'cacheTurns.js');

/** A process that takes its turn on `lock`, writing when its "install" starts and ends (it lasts 700 ms). */
function installer(lock: string, journal: string, name: string): Promise<number | null> {
  const script = `
    const fs = require('fs');
    const { takeTurn } = require(${JSON.stringify(MODULE)});
    takeTurn(${JSON.stringify(lock)}, () => {
      fs.appendFileSync(${JSON.stringify(journal)}, 'start ${name}\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 700);
      fs.appendFileSync(${JSON.stringify(journal)}, 'end ${name}\\n');
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
  return new Promise(resolve => child.on('exit', code => resolve(code)));
}

describe('starts that share the cache take turns', () => {
  let scratch: string;
  beforeEach(() => (scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-turns-'))));
  afterEach(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('two processes installing at once never overlap, and leave no lock behind', async () => {
    const lock = path.join(scratch, 'code-server.lock');
    const journal = path.join(scratch, 'journal');
    const codes = await Promise.all([installer(lock, journal, 'a'), installer(lock, journal, 'b')]);
    assert.deepStrictEqual(codes, [0, 0]);
    const lines = fs.readFileSync(journal, 'utf8').trim().split('\n');
    assert.strictEqual(lines.length, 4, lines.join(' / '));
    assert.match(lines[0], /^start /);
    assert.strictEqual(lines[1], lines[0].replace('start', 'end'), `one ended before the other began: ${lines.join(' / ')}`);
    assert.strictEqual(lines[3], lines[2].replace('start', 'end'), lines.join(' / '));
    assert.ok(!fs.existsSync(lock), 'the lock is gone');
  });

  it('takes over a lock whose owner died instead of waiting for it', () => {
    const lock = path.join(scratch, 'code-server.lock');
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), String(dead));
    let waitedFor: string | undefined;
    assert.strictEqual(
      takeTurn(
        lock,
        () => 'ran',
        pid => (waitedFor = pid),
      ),
      'ran',
    );
    assert.strictEqual(waitedFor, undefined, 'a dead owner is not waited for');
    assert.ok(!fs.existsSync(lock));
  });
});
