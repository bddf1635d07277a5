/**
 * npm run harden: the hardening scenarios at full size, against the real child and Chromium. Writes
 * the figures as JSON to $HARDEN_OUT (default .test-artifacts/harden.json), prints them with their
 * targets, and exits 1 if a target is missed.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FixtureServer } from '../fixtures/fixtureServer';
import { REPO_ROOT } from '../support/realBridge';
import { endpointProbes, killLoop, malformed, outputDirVictim, soak } from './scenarios';

async function main(): Promise<void> {
  const out = process.env.HARDEN_OUT ?? path.join(REPO_ROOT, '.test-artifacts', 'harden.json');
  const size = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const fixture = new FixtureServer();
  await fixture.start();
  const started = Date.now();
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const at = Date.now();
    console.log(`[harden] ${name}…`);
    const figures = await run();
    console.log(`[harden] ${name} (${((Date.now() - at) / 1000).toFixed(0)} s): ${JSON.stringify(figures)}`);
    return figures;
  };
  try {
    const figures = {
      malformed: await step('malformed', () => malformed()),
      killLoop: await step('killLoop', () => killLoop(fixture, size('HARDEN_KILL_ROUNDS', 50))),
      soak: await step('soak', () => soak(fixture, size('HARDEN_SOAK_CALLS', 1000))),
      endpoint: await step('endpoint', () => endpointProbes(fixture, size('HARDEN_INITIALIZES', 1000))),
      outputDirVictim: await step('outputDirVictim', () => outputDirVictim(fixture, size('HARDEN_VICTIM_CALLS', 100))),
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ ...figures, seconds: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`);
    const targets: [string, boolean][] = [
      ['malformed: every call gets a clear error, no restart', figures.malformed.clearErrors === figures.malformed.total && figures.malformed.serverRestarts === 0],
      ['killLoop: no lost or repeated press, nothing left running', figures.killLoop.lost === 0 && figures.killLoop.duplicated === 0 && figures.killLoop.orphans === 0],
      ['soak: growth from call 100 under 10 %, nothing left running', figures.soak.hostRssGrowthPct < 10 && figures.soak.childRssGrowthPct < 10 && figures.soak.orphans === 0],
      ['endpoint: every probe answered as expected, none reached the browser', figures.endpoint.asExpected === figures.endpoint.probes && figures.endpoint.fixtureRequests === 0],
      ['outputDirVictim: every project file kept', figures.outputDirVictim.filesAfter === figures.outputDirVictim.filesBefore],
    ];
    for (const [what, met] of targets) console.log(`[harden] ${met ? 'met' : 'MISSED'}: ${what}`);
    console.log(`[harden] figures written to ${out}`);
    process.exitCode = targets.every(([, met]) => met) ? 0 : 1;
  } finally {
    await fixture.stop();
  }
}

main().catch(error => {
  console.error(`[harden] ${error instanceof Error ? error.stack : error}`);
  process.exit(1);
});
