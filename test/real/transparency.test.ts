import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { bareAgainstBare, bareAgainstBridge, describeDifference, TransparencyReport } from '../support/transparency';

/**
 * Transparent to upstream: the same scripted sessions (one per capability group) against bare
 * @playwright/mcp and through the bridge; every difference must be one the
 * "Differences from upstream" table in src/README.md names. TRANSPARENCY_BARE_TWICE=1 compares bare with bare instead,
 * to learn what upstream itself varies.
 */
describe('Transparency: a tool call through the bridge answers as bare @playwright/mcp does', function () {
  this.timeout(420000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('gives the same result at every step, apart from the differences src/README.md lists', async () => {
    const log = (line: string) => {
      if (process.env.TRANSPARENCY_VERBOSE) console.log(line);
    };
    const run = () => (process.env.TRANSPARENCY_BARE_TWICE ? bareAgainstBare(fixture.url, log) : bareAgainstBridge(fixture.url, log));
    const report: TransparencyReport = await run();
    const counts = { steps: report.steps, identical: report.identical, normalized: report.normalized, differing: report.differing };
    console.log(`      transparency ${JSON.stringify(counts)}; normalizations used (steps) ${JSON.stringify(report.rows)}`);
    let differing = report.outcomes.filter(o => o.verdict === 'differing');
    if (differing.length) {
      // A difference the bridge makes is made every time (issue 20 saw each in three of three runs); one seen once
      // is timing on a busy machine (bare against bare shows such). The whole comparison runs again, and what
      // differs in both runs fails the test; what differed once is printed, so a log still shows it.
      console.log(`      differed in the first run, compared again:\n${differing.map(describeDifference).join('\n\n')}`);
      const again = await run();
      const key = (o: { group: string; step: string }) => `${o.group} / ${o.step}`;
      const differingAgain = new Set(again.outcomes.filter(o => o.verdict === 'differing').map(key));
      differing = differing.filter(o => differingAgain.has(key(o)));
    }
    assert.strictEqual(
      differing.length,
      0,
      `${differing.length} of ${report.steps} steps differ in two runs:\n\n${differing.map(describeDifference).join('\n\n')}`,
    );
  });
});
