import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OutputBudget } from '../../src/child/outputBudget';
import { TEST_BROWSER } from '../support/realBridge';

// The test's own Playwright, recording a trace as upstream's browser_start/stop_tracing do.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const playwright = require('playwright-core') as typeof import('playwright');

function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(entry => entry.isFile())
    .map(entry => path.join(entry.parentPath, entry.name));
}

describe('the output budget and a trace (real Chromium, a real trace)', function () {
  this.timeout(120000);

  it("counts every file of a reported trace (frames, network, resources) and frees them all, never a file of the person's", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-trace-budget-'));
    const traces = path.join(dir, 'traces');
    const budget = new OutputBudget(dir, 1024 * 1024 * 1024, () => undefined);
    const browser = await playwright.chromium.launch({ executablePath: TEST_BROWSER, args: ['--no-sandbox'], tracesDir: traces });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      // As upstream starts it (0.0.86): live, so stopping without a path keeps the files it linked.
      await context.tracing.start({ name: 'trace-1', screenshots: true, snapshots: true, live: true });
      // What browser_start_tracing answers: links to the files it begins, before they hold anything.
      budget.afterCall(
        ['.trace', '.network']
          .map(ext => `- [Log](${path.join(traces, `trace-1${ext}`)})`)
          .concat(`- [Resources](${traces}/resources)`)
          .join('\n'),
      );
      await page.setContent('<h1>Traced</h1><button>Press</button>');
      await page.click('button');
      budget.afterCall('- ran a click');
      await context.tracing.stop();
    } finally {
      await browser.close();
    }
    const written = filesBelow(traces);
    assert.ok(written.length > 2, `a trace is more than one file: ${written.join(', ')}`);
    fs.writeFileSync(path.join(traces, 'notes-of-the-person.txt'), 'mine');
    budget.afterCall(`- [Trace](${path.join(traces, 'trace-1.trace')})`);
    const total = written.reduce((sum, file) => sum + fs.statSync(file).size, 0);
    assert.strictEqual(budget.writtenBytes, total, 'every file of the trace is counted');
    const tight = new OutputBudget(dir, 0, () => undefined);
    tight.afterCall('');
    assert.deepStrictEqual(filesBelow(traces), [path.join(traces, 'notes-of-the-person.txt')], "all of the trace went, the person's file stayed");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
