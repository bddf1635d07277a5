/**
 * `npm run bench` records a figure that failed as failed and goes on: it once died at one slow round under load
 * and wrote no JSON at all. Here the real bench runs its per-call rounds where no browser can start (a browser
 * path that does not exist): every round fails, in words, and still the door cost and the call path are measured,
 * the JSON is written, the exit code says something failed, and nothing the bench started is left running.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { processesMentioning, REPO_ROOT, waitFor } from '../support/realBridge';

describe('the bench, when a round fails', function () {
  this.timeout(180000);

  it('writes every figure it could measure, each failed round and figure as { failed }, and exits 1', async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-bench-'));
    const out = path.join(scratch, 'bench.json');
    try {
      // Three rounds: the third opens the bare upstream door first, which the failed round must close again.
      const bench = spawn(process.execPath, [path.join(REPO_ROOT, 'out', 'test', 'bench', 'bench.js')], {
        env: { ...process.env, BENCH_CALLS_ONLY: '1', BENCH_ROUNDS: '3', BENCH_OUT: out, PLAYWRIGHT_BRIDGE_TEST_BROWSER: path.join(scratch, 'no-browser') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      bench.stdout.on('data', chunk => (output += chunk));
      bench.stderr.on('data', chunk => (output += chunk));
      const code = await new Promise<number | null>(resolve => bench.once('exit', resolve));
      assert.strictEqual(code, 1, `the exit code says something failed:\n${output.slice(-2000)}`);
      assert.ok(fs.existsSync(out), `the JSON is written all the same:\n${output.slice(-2000)}`);
      const figures = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown> & { failed: Record<string, string> };
      assert.deepStrictEqual(Object.keys(figures.failed), ['calls round 1/3', 'calls round 2/3', 'calls round 3/3']);
      for (const reason of Object.values(figures.failed)) assert.match(reason, /^No browser at .*no-browser/);
      assert.match((figures.perCallRatio as { failed: string }).failed, /^no round finished \(3 tried\): No browser at/);
      assert.deepStrictEqual(
        (figures.perRound as unknown[]).map(r => Object.keys(r as object)),
        [['failed'], ['failed'], ['failed']],
      );
      assert.ok((figures.httpDoorCost as { doorFetchMs: number }).doorFetchMs > 0, 'the figures after the failed rounds are measured');
      assert.ok((figures.callPath as { hostFiles: number }).hostFiles > 0);
      // The bare upstream child the third round opened was closed: nothing of the bench's is left.
      await waitFor(
        () => processesMentioning(scratch).length === 0,
        10000,
        () => `the bench's processes to be gone: ${processesMentioning(scratch).join(', ')}`,
      );
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
