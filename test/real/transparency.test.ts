import * as assert from 'assert';
import { FixtureServer } from '../fixtures/fixtureServer';
import { bareAgainstBare, bareAgainstBridge, describeDifference, TransparencyReport } from '../support/transparency';

/**
 * Transparent to upstream: the same scripted sessions (one per capability group) against bare
 * @playwright/mcp and through the bridge; every difference must be one README's
 * "Differences from upstream" table names. TRANSPARENCY_BARE_TWICE=1 compares bare with bare instead,
 * to learn what upstream itself varies.
 */
describe('Transparency: a tool call through the bridge answers as bare @playwright/mcp does', function () {
  this.timeout(180000);
  const fixture = new FixtureServer();
  before(() => fixture.start());
  after(() => fixture.stop());

  it('gives the same result at every step, apart from the differences README lists', async () => {
    const log = (line: string) => { if (process.env.TRANSPARENCY_VERBOSE) console.log(line); };
    const report: TransparencyReport = process.env.TRANSPARENCY_BARE_TWICE
      ? await bareAgainstBare(fixture.url, log)
      : await bareAgainstBridge(fixture.url, log);
    const counts = { steps: report.steps, identical: report.identical, normalized: report.normalized, differing: report.differing };
    console.log(`      transparency ${JSON.stringify(counts)}; normalizations used (steps) ${JSON.stringify(report.rows)}`);
    const differing = report.outcomes.filter(o => o.verdict === 'differing');
    assert.strictEqual(differing.length, 0, `${differing.length} of ${report.steps} steps differ:\n\n${differing.map(describeDifference).join('\n\n')}`);
  });
});
