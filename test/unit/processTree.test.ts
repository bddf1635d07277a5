import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import { identify, isAlive, isSameProcess, killTree, parsePsStartTime } from '../../src/core/childProcess/processTree';

describe('process start times from ps (macOS)', () => {
  it('reads `ps -o lstart= -p PID` output in the format macOS prints, and nothing from an empty or unknown answer', () => {
    // `ps -o lstart=` prints "%a %b %e %T %Y" (a one-digit day padded with a space) on macOS as on Linux's procps;
    // these two lines were recorded from procps here (no Mac at hand), in the format macOS's ps documents.
    assert.strictEqual(parsePsStartTime('Tue Dec  1 00:05:49 2026\n'), '2026 Dec 01 00:05:49');
    assert.strictEqual(parsePsStartTime('Mon Nov 30 23:50:41 2026\n'), '2026 Nov 30 23:50:41');
    assert.strictEqual(parsePsStartTime('   Sat Mar  9 09:04:05 2024   \n'), '2024 Mar 09 09:04:05');
    assert.notStrictEqual(parsePsStartTime('Tue Dec  1 00:05:49 2026'), parsePsStartTime('Tue Dec  1 00:05:50 2026'), 'a pid reused a second later differs');
    assert.strictEqual(parsePsStartTime(''), undefined, 'no such process: ps prints nothing and exits 1');
    assert.strictEqual(parsePsStartTime('ps: illegal option -- o\n'), undefined);
    assert.strictEqual(parsePsStartTime('12:00PM'), undefined, 'a short form is not a start time to kill by');
  });

  it('reads this machine\'s ps the same way, where ps has lstart', function () {
    if (process.platform === 'win32') this.skip();
    const output = execFileSync('ps', ['-o', 'lstart=', '-p', String(process.pid)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    assert.match(parsePsStartTime(output) ?? '', /^\d{4} [A-Z][a-z]{2} \d{2} \d{1,2}:\d{2}:\d{2}$/, output);
  });
});

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
