import * as assert from 'assert';
import { execFileSync, spawn } from 'child_process';
import { identify, isAlive, isSameProcess, killTree, parsePsStartTimes } from '../../src/core/childProcess/processTree';

describe('process start times from ps (macOS)', () => {
  it('reads `ps -o pid= -o lstart= -p PIDS` output in the format macOS prints, and nothing from an empty or unknown answer', () => {
    // `ps -o lstart=` prints "%a %b %e %T %Y" (a one-digit day padded with a space) on macOS as on Linux's procps;
    // these lines were recorded from procps here (no Mac at hand), in the format macOS's ps documents.
    const recorded = '    1 Mon Nov 30 21:38:02 2026\n 4242 Tue Dec  1 00:05:49 2026\n';
    assert.deepStrictEqual(
      [...parsePsStartTimes(recorded)],
      [
        [1, '2026 Nov 30 21:38:02'],
        [4242, '2026 Dec 01 00:05:49'],
      ],
    );
    const later = parsePsStartTimes(' 4242 Tue Dec  1 00:05:50 2026\n').get(4242);
    assert.notStrictEqual(later, parsePsStartTimes(recorded).get(4242), 'a pid reused a second later differs');
    assert.deepStrictEqual([...parsePsStartTimes('')], [], 'no such process: ps prints nothing and exits 1');
    assert.deepStrictEqual([...parsePsStartTimes('ps: illegal option -- o\nusage: ps ...\n')], []);
    assert.deepStrictEqual([...parsePsStartTimes(' 77 12:00PM\n')], [], 'a short form is not a start time to kill by');
  });

  it("reads this machine's ps the same way, where ps has lstart", function () {
    if (process.platform === 'win32') this.skip();
    const output = execFileSync('ps', ['-o', 'pid=', '-o', 'lstart=', '-p', `1,${process.pid}`], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    const times = parsePsStartTimes(output);
    assert.deepStrictEqual(
      [...times.keys()].sort((a, b) => a - b),
      [1, process.pid],
      output,
    );
    assert.match(times.get(process.pid)!, /^\d{4} [A-Z][a-z]{2} \d{2} \d{1,2}:\d{2}:\d{2}$/, output);
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
