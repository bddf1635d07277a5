import * as assert from 'assert';
import { spawn } from 'child_process';
import { identify, isAlive, isSameProcess, killTree } from '../../src/core/childProcess/processTree';

describe('process tree', function () {
  if (process.platform !== 'linux') return;

  it('kills a process seen earlier only while it is still that process, never another that got its pid', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const [seen] = identify([sleeper.pid!]);
      assert.ok(seen && seen.started !== '', 'its start time is read');
      assert.ok(isSameProcess(seen));
      // The same pid with another start time stands for a different program that reused the pid.
      const impostor = { pid: sleeper.pid!, started: String(Number(seen.started) + 1) };
      assert.strictEqual(isSameProcess(impostor), false);
      assert.deepStrictEqual(killTree(undefined, [impostor]), [], 'nothing is killed for a reused pid');
      assert.ok(isAlive(sleeper.pid!));
      assert.deepStrictEqual(killTree(undefined, [seen]), [sleeper.pid]);
      await new Promise(resolve => sleeper.once('exit', resolve));
      assert.strictEqual(isSameProcess(seen), false);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
