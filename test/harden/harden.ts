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
import { isolationProbes } from './isolation';
import { secretLeaks } from './secretLeaks';
import { egressAttacks, egressFigures } from './egress';
import { workspaceWidening } from './workspaceWidening';

async function main(): Promise<void> {
  const out = process.env.HARDEN_OUT ?? path.join(REPO_ROOT, '.test-artifacts', 'harden.json');
  const size = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const fixture = new FixtureServer();
  await fixture.start();
  const started = Date.now();
  // HARDEN_ONLY=soak (or a list) runs only those scenarios, while working on one.
  const only = process.env.HARDEN_ONLY?.split(',');
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
    if (only && !only.includes(name)) return undefined;
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
      soak: await step('soak', () =>
        soak(fixture, {
          calls: size('HARDEN_SOAK_CALLS', 5000),
          warmup: size('HARDEN_SOAK_WARMUP', 500),
          fillSeconds: size('HARDEN_SOAK_FILL_SECONDS', 27),
          sampleEvery: size('HARDEN_SOAK_EVERY', 250),
          // HARDEN_SOAK_SNAPSHOTS=<folder>: heap snapshots of host and child at calls 500 and 3,000, to see what grows.
          snapshots: process.env.HARDEN_SOAK_SNAPSHOTS
            ? { dir: process.env.HARDEN_SOAK_SNAPSHOTS, at: (process.env.HARDEN_SOAK_SNAPSHOTS_AT ?? '500,3000').split(',').map(Number) }
            : undefined,
          bare: process.env.HARDEN_SOAK_BARE !== '0',
          progress: true,
        }),
      ),
      endpoint: await step('endpoint', () => endpointProbes(fixture, size('HARDEN_INITIALIZES', 1000))),
      outputDirVictim: await step('outputDirVictim', () => outputDirVictim(fixture, size('HARDEN_VICTIM_CALLS', 100))),
      isolation: await step('isolation', () => isolationProbes(fixture, size('HARDEN_ISOLATION_FLOOD', 64))),
      secrets: await step('secrets', async () => {
        const { forms, places, leaks, leakDetails, refusals, signedIn } = await secretLeaks();
        return { forms, places, leaks, hostileTypingRefused: refusals.length, signedIn, leakDetails };
      }),
      workspace: await step('workspace', () => workspaceWidening()),
      egress: await step('egress', async () => ({
        ...(await egressAttacks()),
        ...(await egressFigures({ calls: size('HARDEN_EGRESS_CALLS', 60), rounds: size('HARDEN_EGRESS_ROUNDS', 3) })),
      })),
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${JSON.stringify({ ...figures, seconds: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`);
    const { malformed: m, killLoop: k, soak: s, endpoint: e, outputDirVictim: v, isolation: i, secrets: sc, workspace: w, egress: eg } = figures;
    const targets: [string, boolean | undefined][] = [
      ['malformed: every call gets a clear error, no restart', m && m.clearErrors === m.total && m.serverRestarts === 0],
      ['killLoop: no lost or repeated press, nothing left running', k && k.lost === 0 && k.duplicated === 0 && k.orphans === 0],
      [
        'soak: host heap and RSS grow at most 1 MB per 1,000 calls, the child at most 1 MB per 1,000 more than bare upstream, no failure, nothing left running',
        s &&
          s.hostHeapSlopeMBPer1k <= 1 &&
          s.hostRssSlopeMBPer1k <= 1 &&
          s.childRssSlopeMBPer1k <= s.bareRssSlopeMBPer1k + 1 &&
          s.failures === 0 &&
          s.orphans === 0,
      ],
      ['endpoint: every probe answered as expected, none reached the browser', e && e.asExpected === e.probes && e.fixtureRequests === 0],
      ['outputDirVictim: every project file kept', v && v.filesAfter === v.filesBefore],
      ['isolation: every attack of one client on another behaved as promised', i && i.asExpected === i.probes],
      ['secrets: no value in any spelling in any place, every hostile attempt refused', sc && sc.leaks === 0 && sc.hostileTypingRefused === 7 && sc.signedIn],
      [
        'workspace: every key tried at workspace and folder level, wider and wrongly typed: nothing widened, every wrong type named by its level',
        w && w.keys > 0 && w.widenings === 0 && w.unnamed === 0,
      ],
      [
        'egress: every attack on what leaves the bridge held; the host heap grows at most 20 MB after 60 refused 3 MB calls (MCP door and language-model path), every one refused',
        eg && eg.attacks > 0 && eg.held === eg.attacks && eg.hostHeapAfterRefusedMB <= 20 && eg.notRefused === 0,
      ],
    ];
    const ran = targets.filter((target, index) => Object.values(figures)[index] !== undefined);
    for (const [what, met] of ran) console.log(`[harden] ${met ? 'met' : 'MISSED'}: ${what}`);
    console.log(`[harden] figures written to ${out}`);
    process.exitCode = ran.every(([, met]) => met) ? 0 : 1;
  } finally {
    await fixture.stop();
  }
}

main().catch(error => {
  console.error(`[harden] ${error instanceof Error ? error.stack : error}`);
  process.exit(1);
});
