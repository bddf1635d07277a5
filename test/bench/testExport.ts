/**
 * testExport: each scripted session (test/support/exportScenarios.ts) played through a real bridge from a
 * cold browser, exported as a Playwright test, and run with Playwright Test (the bundled runner, headless,
 * Debian's Chromium) 5 times; then the apps are broken on purpose and each test must go red.
 * `npm run bench` writes it as `testExport`; `node out/test/bench/testExport.js` measures it alone
 * (BENCH_EXPORT_ONLY names scenarios, comma-separated, to run some).
 *
 * - greenFirstTry: tests whose first run passed; greenAllRepeats: tests whose every run passed.
 * - modelCallsInReplay: tool calls the bridge received while the tests ran (replay is plain Playwright).
 * - exportMs: median time from the session's steps to the written file.
 * - detectsBreakage: tests that failed against the broken apps, over scenarios.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExportApps } from '../fixtures/exportApps';
import { EXPORT_SCENARIOS, personHandsOn } from '../support/exportScenarios';
import { makeRealBridge, TEST_BROWSER, textOf } from '../support/realBridge';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import { writeSpec } from '../../src/core/testExport/specWriter';
import { DISK_READERS, specFileName } from '../../src/core/testExport/specFiles';
import { bundledRunner, runSpec } from '../../src/core/testExport/specRunner';
import { median } from '../support/median';

export interface TestExportFigures {
  scenarios: number;
  greenFirstTry: number;
  greenAllRepeats: number;
  modelCallsInReplay: number;
  exportMs: number;
  detectsBreakage: number;
  repeats: number;
  perScenario: {
    name: string;
    runs: number;
    passed: number;
    firstPassed: boolean;
    redWhenBroken: boolean;
    failure?: string;
    spec?: string;
    leftOut?: unknown;
    steps?: string[];
  }[];
}

const PASSWORD = 'correct horse battery';

export async function measureTestExport(repeats = 5, only?: string[]): Promise<TestExportFigures> {
  const apps = new ExportApps();
  apps.password = PASSWORD;
  await apps.start();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-export-'));
  const scenarios = EXPORT_SCENARIOS.filter(s => !only?.length || only.includes(s.name));
  const perScenario: TestExportFigures['perScenario'] = [];
  const exportTimes: number[] = [];
  let modelCallsInReplay = 0;
  try {
    for (const scenario of scenarios) {
      apps.broken = false;
      const bridge = makeRealBridge({ capabilities: ['testing'] }, {}, { secrets: { APP_PASSWORD: { value: PASSWORD, origins: [apps.url] } } });
      const journal = new StepJournal(bridge.supervisor, () => false);
      const upload = path.join(bridge.scratch, 'ws', 'notes.txt');
      fs.writeFileSync(upload, 'hello upload\n');
      try {
        await scenario.play(
          async (tool, args) => {
            const result = await bridge.supervisor.callTool(tool, args);
            if (result.isError) throw new Error(`${scenario.name}: ${tool} failed: ${textOf(result).slice(0, 400)}`);
            return textOf(result);
          },
          apps,
          { upload },
          personHandsOn(bridge.supervisor),
        );
        const started = performance.now();
        const spec = writeSpec(journal.steps, { title: scenario.name, ...DISK_READERS });
        const specFile = path.join(work, 'tests', specFileName(scenario.name));
        fs.mkdirSync(path.dirname(specFile), { recursive: true });
        fs.writeFileSync(specFile, spec.text);
        exportTimes.push(performance.now() - started);
        // Replay runs with the bridge still up: any call it received meanwhile would be counted.
        let calls = 0;
        const listening = bridge.supervisor.onToolCall(record => {
          if (record.outcome === undefined) calls++;
        });
        const run = await runSpec({
          specFile,
          runner: bundledRunner(),
          workDir: path.join(work, 'runs'),
          executablePath: TEST_BROWSER,
          repeatEach: repeats,
          env: { APP_PASSWORD: PASSWORD },
        });
        listening.dispose();
        modelCallsInReplay += calls;
        apps.broken = true;
        const broken = await runSpec({
          specFile,
          runner: bundledRunner(),
          workDir: path.join(work, 'runs'),
          executablePath: TEST_BROWSER,
          repeatEach: 1,
          env: { APP_PASSWORD: PASSWORD },
        });
        perScenario.push({
          name: scenario.name,
          runs: run.runs,
          passed: run.passed,
          firstPassed: run.statuses[0] === 'passed',
          redWhenBroken: broken.failed > 0,
          ...(run.firstFailure ? { failure: `line ${run.firstFailure.line ?? '?'}: ${run.firstFailure.message.split('\n')[0]}` } : {}),
          ...(process.env.BENCH_EXPORT_VERBOSE
            ? { spec: spec.text, leftOut: spec.leftOut, steps: journal.steps.map(s => `${s.tool}: ${s.answer.code.join(' | ')}`) }
            : {}),
        });
      } finally {
        await bridge.dispose();
      }
    }
  } finally {
    await apps.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return {
    scenarios: scenarios.length,
    greenFirstTry: perScenario.filter(s => s.firstPassed).length,
    greenAllRepeats: perScenario.filter(s => s.runs === repeats && s.passed === repeats).length,
    modelCallsInReplay,
    exportMs: Math.round(median(exportTimes) * 10) / 10,
    detectsBreakage: scenarios.length ? Math.round((perScenario.filter(s => s.redWhenBroken).length / scenarios.length) * 1000) / 1000 : 0,
    repeats,
    perScenario,
  };
}

if (require.main === module) {
  const only = process.env.BENCH_EXPORT_ONLY?.split(',')
    .map(s => s.trim())
    .filter(Boolean);
  measureTestExport(Number(process.env.BENCH_EXPORT_REPEATS ?? 5), only).then(
    figures => {
      console.log(JSON.stringify(figures, null, 2));
      if (process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, `${JSON.stringify({ testExport: figures }, null, 2)}\n`);
    },
    error => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
