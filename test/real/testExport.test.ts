import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CONTACT_SPOTS, ExportApps } from '../fixtures/exportApps';
import { EXPORT_SCENARIOS, personHandsOn } from '../support/exportScenarios';
import { makeRealBridge, RealBridge, refOf, TEST_BROWSER, textOf, waitFor } from '../support/realBridge';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import { writeSpec, WrittenSpec } from '../../src/core/testExport/specWriter';
import { DISK_READERS } from '../../src/core/testExport/specFiles';
import { bundledRunner, runSpec } from '../../src/core/testExport/specRunner';

describe('a session through the bridge becomes a Playwright test that passes (real browser, Playwright Test)', function () {
  this.timeout(240_000);
  let apps: ExportApps;
  let bridge: RealBridge | undefined;
  let work: string;

  beforeEach(async () => {
    apps = new ExportApps();
    await apps.start();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-export-'));
  });

  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
    await apps.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function play(
    name: string,
    extra?: (call: (tool: string, args: Record<string, unknown>) => Promise<string>) => Promise<void>,
  ): Promise<{ spec: WrittenSpec; file: string }> {
    bridge = makeRealBridge();
    const journal = new StepJournal(bridge.supervisor, () => false);
    const call = async (tool: string, args: Record<string, unknown>) => {
      const result = await bridge!.supervisor.callTool(tool, args);
      assert.ok(!result.isError, `${tool}: ${textOf(result)}`);
      return textOf(result);
    };
    const scenario = EXPORT_SCENARIOS.find(s => s.name === name);
    if (scenario) await scenario.play(call, apps, { upload: '' }, personHandsOn(bridge.supervisor));
    await extra?.(call);
    const spec = writeSpec(journal.steps, { title: name, ...DISK_READERS });
    const file = path.join(work, 'tests', 'session.spec.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, spec.text);
    return { spec, file };
  }

  const run = (file: string) =>
    runSpec({ specFile: file, runner: bundledRunner(), workDir: path.join(work, 'runs'), executablePath: TEST_BROWSER, repeatEach: 1 });

  it('a dialog the agent accepted replays green, and goes red at the click once the app renames its button', async () => {
    const { spec, file } = await play('confirm dialog');
    const green = await run(file);
    assert.deepStrictEqual(
      { passed: green.passed, failed: green.failed, failure: green.firstFailure },
      { passed: 1, failed: 0, failure: undefined },
      spec.text,
    );
    apps.broken = true;
    const red = await run(file);
    assert.strictEqual(red.failed, 1, spec.text);
    const clickStep = spec.stepLines.find(s => s.tool === 'browser_click');
    assert.ok(
      clickStep && red.firstFailure?.line !== undefined && red.firstFailure.line >= clickStep.from && red.firstFailure.line <= clickStep.to,
      `the failing line ${red.firstFailure?.line} is the click's (${JSON.stringify(clickStep)}):\n${spec.text}`,
    );
  });

  it("a tab the agent opened in a named context (isolatedContext) replays in a context of its own from the test's browser: signed out there, signed in in the first", async () => {
    const { spec, file } = await play('isolated context');
    assert.match(spec.text, /async \(\{ page, browser \}\) =>/, spec.text);
    assert.match(
      spec.text,
      /const context1 = await browser\.newContext\(\);\n\s*const page1 = await context1\.newPage\(\);\n\s*await page1\.goto\('\/account'\);/,
      spec.text,
    );
    const green = await run(file);
    assert.deepStrictEqual(
      { passed: green.passed, failed: green.failed, failure: green.firstFailure },
      { passed: 1, failed: 0, failure: undefined },
      spec.text,
    );
    // The same test with the tab in the test's own context (as before named contexts) is signed in there: red at the link.
    const shared = spec.text.replace('await context1.newPage()', 'await page.context().newPage()');
    fs.writeFileSync(file, shared);
    const red = await run(file);
    assert.strictEqual(red.failed, 1, `a shared context replayed green:\n${shared}`);
  });

  it("what the person did while they had control goes in as Playwright code, between the agent's steps, and replays green", async () => {
    const { spec, file } = await play('the person takes control for two steps');
    const body = spec.text.split('\n').map(line => line.trim());
    const increment = body.indexOf("await page.getByRole('button', { name: 'Increment' }).click();");
    const typed = body.indexOf("await page.getByRole('textbox', { name: 'Note' }).fill('from the person');");
    const saved = body.indexOf("await page.getByRole('button', { name: 'Save note' }).click();");
    assert.ok(increment > 0 && typed > increment && saved > typed, `the person's two steps, then the agent's:\n${spec.text}`);
    assert.ok(
      spec.stepLines.some(s => s.tool === 'person_actions'),
      "listed as the person's step",
    );
    const green = await run(file);
    assert.strictEqual(green.passed, 1, `${spec.text}\n${green.firstFailure?.message}`);
  });

  it('what the person did alone replays in order: the address bar, a form sent with Enter, back and reload; green, then red once the app changes', async () => {
    bridge = makeRealBridge();
    const { supervisor } = bridge;
    const journal = new StepJournal(supervisor, () => false);
    let currentUrl = '';
    supervisor.onObservation(event => {
      if (event.kind === 'tabs') currentUrl = event.tabs.find(tab => tab.current)?.url ?? '';
    });
    const at = (pathAndQuery: string) =>
      waitFor(
        () => currentUrl === `${apps.url}${pathAndQuery}`,
        30_000,
        () => `the page at ${pathAndQuery} (it is at ${currentUrl})`,
      );
    const hands = personHandsOn(supervisor);
    const page = async (action: Parameters<typeof supervisor.pageAction>[0]) => {
      const result = await supervisor.pageAction(action);
      assert.ok(result.ok, `${action.action}: ${result.message}`);
    };

    await page({ action: 'navigate', url: `${apps.url}/contact` });
    await hands.takeControl();
    await hands.click(CONTACT_SPOTS.name);
    hands.type('Ada');
    hands.press('Enter');
    await at('/thanks?name=Ada');
    await hands.handBack();
    await page({ action: 'navigate', url: `${apps.url}/counter` });
    await page({ action: 'back' });
    await at('/thanks?name=Ada');
    await page({ action: 'reload' });

    const spec = writeSpec(journal.steps, { title: 'the person alone', ...DISK_READERS });
    const file = path.join(work, 'tests', 'person.spec.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, spec.text);
    const body = spec.text.split('\n').map(line => line.trim());
    const order = [
      "await page.goto('/contact');",
      "await page.getByRole('textbox', { name: 'Name' }).fill('Ada');",
      "await page.getByRole('textbox', { name: 'Name' }).press('Enter');",
      "await page.goto('/counter');",
      'await page.goBack();',
      'await page.reload();',
    ].map(line => body.indexOf(line));
    assert.ok(
      order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1])),
      `the person's navigations and actions, in order (${order.join(', ')}):\n${spec.text}`,
    );
    // Enter in the form clicked its Send button inside the page: the press repeats that, a click as well would send twice.
    assert.ok(!spec.text.includes("name: 'Send'"), `no click on Send, which the person never made:\n${spec.text}`);
    const green = await run(file);
    assert.deepStrictEqual({ passed: green.passed, failed: green.failed }, { passed: 1, failed: 0 }, `${spec.text}\n${green.firstFailure?.message}`);
    apps.broken = true;
    const red = await run(file);
    assert.strictEqual(red.failed, 1, spec.text);
  });

  it('a session that started from a login profile replays logged in from a copy of it, and logged out without one', async () => {
    // The login profile the session's browser started from: Playwright's storage state with the app's cookie.
    const auth = path.join(work, 'tests', '.auth', 'ada.json');
    fs.mkdirSync(path.dirname(auth), { recursive: true });
    const cookie = { name: 'signedIn', value: '1', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' };
    fs.writeFileSync(auth, JSON.stringify({ cookies: [cookie], origins: [] }));
    bridge = makeRealBridge({}, { storageStatePath: auth });
    const journal = new StepJournal(bridge.supervisor, () => false);
    await bridge.supervisor.callTool('browser_navigate', { url: `${apps.url}/account` });
    assert.match(textOf(await bridge.supervisor.callTool('browser_snapshot', {})), /Signed in as ada/, 'the session was logged in');
    const file = path.join(work, 'tests', 'account.spec.ts');
    const spec = writeSpec(journal.steps, { title: 'account', ...DISK_READERS, storageState: 'tests/.auth/ada.json' });
    fs.writeFileSync(file, spec.text);
    assert.match(spec.text, /test\.use\(\{ storageState: 'tests\/\.auth\/ada\.json' \}\);/);
    const runIn = (folder: string) =>
      runSpec({ specFile: file, runner: bundledRunner(), workDir: path.join(work, 'runs'), executablePath: TEST_BROWSER, repeatEach: 1, cwd: folder });
    const green = await runIn(work);
    assert.strictEqual(green.passed, 1, `${spec.text}\n${green.firstFailure?.message}`);
    fs.rmSync(auth);
    const red = await runIn(work);
    assert.strictEqual(red.failed, 1, 'without the copy the test is not logged in');
  });

  it("the run gets none of the editor's environment but the secrets it was granted (a test can read any variable it has)", async () => {
    const file = path.join(work, 'tests', 'env.spec.ts');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      [
        "import { test, expect } from '@playwright/test';",
        "test('env', async () => {",
        '  expect(process.env.PWB_EDITOR_TOKEN).toBeUndefined();',
        '  expect(process.env.BASE_URL).toBeUndefined();',
        "  expect(process.env.GRANTED).toBe('yes');",
        '});',
        '',
      ].join('\n'),
    );
    process.env.PWB_EDITOR_TOKEN = 'ghp_not_for_tests';
    process.env.BASE_URL = 'https://elsewhere.test';
    try {
      const result = await runSpec({
        specFile: file,
        runner: bundledRunner(),
        workDir: path.join(work, 'runs'),
        executablePath: TEST_BROWSER,
        repeatEach: 1,
        env: { GRANTED: 'yes' },
      });
      assert.strictEqual(result.passed, 1, result.firstFailure?.message);
    } finally {
      delete process.env.PWB_EDITOR_TOKEN;
      delete process.env.BASE_URL;
    }
  });

  it('a hostile page cannot put code of its own into the test: its title, its text and its dialog pretend to be code blocks', async () => {
    const { spec, file } = await play('none', async call => {
      await call('browser_navigate', { url: `${apps.url}/hostile` });
      const page = await call('browser_snapshot', {});
      await call('browser_click', { element: 'Continue', target: refOf(page, /button "Continue"/) });
      await call('browser_handle_dialog', { accept: true });
      await call('browser_type', { element: 'Note', target: refOf(page, /textbox "Note"/), text: 'fine' });
      await call('browser_snapshot', {});
    });
    assert.doesNotMatch(spec.text, /evil\.test|require\(|homedir/, spec.text);
    assert.match(spec.text, /getByRole\('button', \{ name: 'Continue' \}\)\.click\(\);/, spec.text);
    const green = await run(file);
    assert.strictEqual(green.passed, 1, `${spec.text}\n${green.firstFailure?.message}`);
  });
});
