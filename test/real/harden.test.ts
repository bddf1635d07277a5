/**
 * The hardening scenarios of `npm run harden` in a shorter form (fewer rounds and calls), with
 * their targets: so every `npm test` proves them, and `npm run harden` measures them at full size.
 */
import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { endpointProbes, killLoop, malformed, outputDirVictim, soak } from '../harden/scenarios';
import { isolationProbes } from '../harden/isolation';
import { egressFigures } from '../harden/egress';

describe('hardening (shorter form of npm run harden)', function () {
  this.timeout(300000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('malformed: every tool of every group, with missing, wrong-typed, oversized and extra arguments, gets a clear error', async () => {
    const figures = await malformed();
    console.log(`      ${JSON.stringify({ ...figures, unclear: figures.unclear.length })}`);
    assert.deepStrictEqual(figures.unclear, []);
    assert.strictEqual(figures.clearErrors, figures.total);
    assert.ok(figures.total > 200, `${figures.total} calls`);
    assert.strictEqual(figures.serverRestarts, 0);
  });

  it('killLoop: after each SIGKILL of the server or the browser the next calls work, no press is lost or repeated', async () => {
    const figures = await killLoop(fixture, 6);
    console.log(`      ${JSON.stringify(figures)}`);
    assert.deepStrictEqual(figures, { rounds: 6, okAfterKill: 5, lost: 0, duplicated: 0, toldModel: 5, orphans: 0 });
  });

  it('soak: calls through both doors with the panel store attached all work, and leave nothing running', async () => {
    const figures = await soak(fixture, { calls: 40, warmup: 10, sampleEvery: 20 });
    console.log(`      ${JSON.stringify({ ...figures, samples: figures.samples.length, bareSamples: figures.bareSamples.length })}`);
    assert.strictEqual(figures.calls, 40);
    assert.strictEqual(figures.failures, 0, "every call worked, the bridge's and bare upstream's");
    assert.strictEqual(figures.orphans, 0);
    assert.strictEqual(figures.samples.length, 3, 'sampled at 0, 20 and 40 measured calls');
    assert.ok(
      figures.samples.every(sample => sample.childHeapMB > 0 && sample.hostHeapMB > 0),
      JSON.stringify(figures.samples),
    );
    assert.strictEqual(figures.bareSamples.length, 3);
  });

  it('endpoint: hostile requests are refused and never reach the browser; sessions stay capped', async () => {
    const figures = await endpointProbes(fixture, 100);
    console.log(`      ${JSON.stringify(figures)}`);
    assert.deepStrictEqual(figures.unexpected, []);
    assert.strictEqual(figures.asExpected, figures.probes);
    assert.strictEqual(figures.fixtureRequests, 0);
    assert.ok(figures.maxLiveSessions <= 32, `${figures.maxLiveSessions} live sessions`);
  });

  it('outputDirVictim: a project folder over the budget, chosen as the output folder, keeps every file through 100 calls', async () => {
    const figures = await outputDirVictim(fixture, 100);
    console.log(`      ${JSON.stringify(figures)}`);
    assert.strictEqual(figures.calls, 100);
    assert.strictEqual(figures.filesAfter, figures.filesBefore);
    assert.strictEqual(figures.filesBefore, 5);
    assert.ok(figures.bridgeBytes <= figures.budgetBytes + 512 * 1024, `the bridge's own files keep to its budget: ${figures.bridgeBytes} bytes`);
  });

  it('isolation: under perClient a second client cannot list, close, borrow, run code against or flood out the first', async () => {
    const figures = await isolationProbes(fixture, 40);
    console.log(`      ${JSON.stringify(figures)}`);
    assert.deepStrictEqual(figures.unexpected, []);
    assert.strictEqual(figures.asExpected, figures.probes);
    assert.strictEqual(figures.probes, 9);
  });

  it('egress: 60 refused 3 MB calls through the MCP door and the language-model path leave the host heap at most 20 MB larger', async () => {
    const figures = await egressFigures({ calls: 60, rounds: 1 });
    console.log(`      ${JSON.stringify(figures)}`);
    assert.strictEqual(figures.notRefused, 0);
    assert.ok(figures.hostHeapAfterRefusedMB <= 20, `${figures.hostHeapAfterRefusedMB} MB`);
  });
});
