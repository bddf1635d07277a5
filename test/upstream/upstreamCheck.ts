/**
 * `npm run upstream:check -- <version>`: installs that @playwright/mcp release in a scratch folder, reads its
 * surface and the pinned one's (upstreamSurface.ts), sorts each change (upstreamDiff.ts), matches each with the
 * bridge's decision about it (decisions.ts), and writes the report kept in the repository (report.json, read by
 * `npm run bench`, and report.md for a person). It fails while any change has no decision. How a release is taken
 * with it: src/README.md, "Taking an upstream release".
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { promisify } from 'util';
import { REPO_ROOT } from '../support/realBridge';
import { UPSTREAM_DECISIONS } from './decisions';
import { compareCode, compareSurfaces, DECIDED_IN, type UpstreamChange } from './upstreamDiff';
import { FixtureServer } from '../fixtures/fixtureServer';
import { generatedCode } from '../support/transparency';
import { readSurface } from './upstreamSurface';

const run = promisify(execFile);
export const REPORT_JSON = path.join(REPO_ROOT, 'test', 'upstream', 'report.json');
const REPORT_MD = path.join(REPO_ROOT, 'test', 'upstream', 'report.md');

export interface UpstreamReport {
  /** The arguments it ran with (`0.0.86 --from 0.0.83`). */
  command: string;
  pinned: string;
  version: string;
  changes: (UpstreamChange & { decision?: string; decideIn?: string })[];
  unclassifiedChanges: number;
  /** Decisions about changes this release does not make (written for another, or the change went again). */
  staleDecisions: string[];
}

const VERSION = /^\d+\.\d+\.\d+(-[\w.-]+)?$/;

/** Installs one release in its own folder under the scratch one; exits saying npm's last words when it cannot. */
async function install(scratch: string, version: string): Promise<string> {
  const prefix = path.join(scratch, version);
  console.log(`Installing @playwright/mcp@${version} in a scratch folder…`);
  try {
    await run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', prefix, `@playwright/mcp@${version}`], {
      encoding: 'utf8',
      timeout: 600000,
    });
  } catch (error) {
    console.error(
      `npm could not install @playwright/mcp@${version}: ${((error as { stderr?: string }).stderr ?? String(error)).trim().split('\n').slice(-3).join(' ')}`,
    );
    process.exit(2);
  }
  return path.join(prefix, 'node_modules', '@playwright', 'mcp');
}

async function main(): Promise<void> {
  // `<version>`, and `--from <version>` to compare with a release other than the pinned one: the release a pin was
  // taken from, once the pin moved (the report kept in the repository is the one of the last release taken).
  const args = process.argv.slice(2);
  const fromAt = args.indexOf('--from');
  const from = fromAt >= 0 ? args[fromAt + 1] : undefined;
  const version = args.find((arg, index) => !arg.startsWith('--') && index !== fromAt + 1);
  if (!version || !VERSION.test(version) || (fromAt >= 0 && !(from && VERSION.test(from)))) {
    console.error(
      'Usage: npm run upstream:check -- <version> [--from <version>]   (published @playwright/mcp versions, such as 0.0.86; without --from, the pinned one)',
    );
    process.exit(2);
  }
  const started = Date.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-upstream-'));
  try {
    const candidateFolder = await install(scratch, version);
    const pinnedFolder = from ? await install(scratch, from) : path.join(REPO_ROOT, 'node_modules', '@playwright', 'mcp');
    console.log('Listing both releases (every capability on, their flags and config keys)…');
    const pinned = await readSurface(pinnedFolder);
    const candidate = await readSurface(candidateFolder);
    console.log('Running the scripted sessions on each (a browser, the test pages) to compare the code they generate…');
    const fixture = new FixtureServer();
    await fixture.start();
    let codeChanges: UpstreamChange[];
    try {
      codeChanges = compareCode(await generatedCode(fixture.url, pinnedFolder), await generatedCode(fixture.url, candidateFolder));
    } finally {
      await fixture.stop();
    }
    const changes: UpstreamReport['changes'] = [...compareSurfaces(pinned, candidate), ...codeChanges].map(change =>
      UPSTREAM_DECISIONS[change.key] ? { ...change, decision: UPSTREAM_DECISIONS[change.key] } : { ...change, decideIn: DECIDED_IN[change.kind] },
    );
    const made = new Set(changes.map(change => change.key));
    const report: UpstreamReport = {
      command: from ? `${version} --from ${from}` : version,
      pinned: pinned.version,
      version: candidate.version,
      changes,
      unclassifiedChanges: changes.filter(change => !change.decision).length,
      staleDecisions: Object.keys(UPSTREAM_DECISIONS).filter(key => !made.has(key)),
    };
    fs.writeFileSync(REPORT_JSON, `${JSON.stringify(report, null, 2)}\n`);
    fs.writeFileSync(REPORT_MD, markdown(report));
    console.log(
      `${changes.length} changes from ${pinned.version} to ${candidate.version}: ${report.unclassifiedChanges} without a decision, ${report.staleDecisions.length} stale decisions (${Math.round((Date.now() - started) / 1000)} s). Report: test/upstream/report.md`,
    );
    if (report.unclassifiedChanges) process.exitCode = 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function markdown(report: UpstreamReport): string {
  const lines = [
    `# @playwright/mcp ${report.pinned} → ${report.version}`,
    '',
    `Written by \`npm run upstream:check -- ${report.command}\`. ${report.changes.length} changes, ${report.unclassifiedChanges} without a decision.`,
    '',
  ];
  const byKind = new Map<string, UpstreamReport['changes']>();
  for (const change of report.changes) byKind.set(change.kind, [...(byKind.get(change.kind) ?? []), change]);
  for (const [kind, changes] of byKind) {
    lines.push(`## ${kind} (${changes.length})`, '');
    for (const change of changes) {
      lines.push(`- \`${change.subject}\`${change.decision ? `: decided: ${change.decision}` : `: **no decision**; decide in ${change.decideIn}`}`);
      if (change.before !== undefined) lines.push(`  - before: ${fence(change.before)}`);
      if (change.after !== undefined) lines.push(`  - after: ${fence(change.after)}`);
    }
    lines.push('');
  }
  if (report.staleDecisions.length) lines.push('## Stale decisions', '', ...report.staleDecisions.map(key => `- \`${key}\``), '');
  return `${lines.join('\n')}\n`;
}

function fence(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return `\`${flat.length > 400 ? `${flat.slice(0, 400)}…` : flat}\``.replace(/``/g, '` `');
}

if (require.main === module) {
  main().catch(error => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
