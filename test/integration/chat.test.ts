/**
 * People use the extension by asking chat, in agent mode. This drives VS Code's real chat view
 * with a scripted language model (the test-only chat helper extension) through the scenario in
 * test/chatHelper/scenario.ts, against the fixture site. Each door runs in a window of its own
 * (the runner opens one per exposure), from a cold browser, so no test leans on a browser that an
 * earlier test started.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FixtureServer } from '../fixtures/fixtureServer';
import {
  AUDIT_SCENARIO,
  DECLINE_SCENARIO,
  EXPORT_SCENARIO,
  FILE_SCENARIO,
  FORM_SCENARIO,
  ScenarioTurn,
  TIME_TRAVEL_SCENARIO,
  TRACE_SCENARIO,
} from '../chatHelper/scenario';
import { ExportApps } from '../fixtures/exportApps';
import { TimeTravelApps } from '../fixtures/timeTravelApps';
import type { RecordedRequest } from '../chatHelper/extension';
import { Api, EXTENSION_ID, note, panelHands, screenshotWorkbench, waitFor } from './helpers';
import { listDescendants } from '../../src/core/childProcess/processTree';
import type { PanelReport } from '../../src/protocol/panelMessages';

const MODEL = { vendor: 'pwb-scripted', id: 'scripted' };

async function chatRecord(): Promise<RecordedRequest[]> {
  return (await vscode.commands.executeCommand<RecordedRequest[]>('pwbChatHelper.record')) ?? [];
}

/**
 * Sends one prompt through the chat view in agent mode and answers tool confirmations the way a
 * person would; returns when the scripted model has given its final answer.
 */
async function chatTurn(turn: ScenarioTurn | string, confirm: 'accept' | 'decline' = 'accept'): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  const before = (await chatRecord()).length;
  const finished = async () => {
    const record = (await chatRecord()).slice(before);
    const last = record.at(-1);
    return !!last && !last.reply.startsWith('call ') ? last.reply : undefined;
  };
  const response = vscode.commands.executeCommand<{ type?: string } | undefined>('workbench.action.chat.open', {
    mode: 'agent',
    modelSelector: MODEL,
    query: typeof turn === 'string' ? turn : turn.prompt,
    blockOnResponse: true,
  });
  let answer: string | undefined;
  const deadline = Date.now() + 120000;
  while (!(answer = await finished())) {
    if (Date.now() > deadline) throw new Error(`the chat turn did not finish: ${JSON.stringify((await chatRecord()).slice(before)).slice(0, 2000)}`);
    // A waiting confirmation is answered like a person would, by accepting or declining it
    // (the commands do nothing while none is waiting).
    await vscode.commands.executeCommand(confirm === 'accept' ? 'workbench.action.chat.acceptTool' : 'workbench.action.chat.skipTool').then(
      () => undefined,
      () => undefined,
    );
    await new Promise(resolve => setTimeout(resolve, 300));
  }
  await Promise.race([response, new Promise(resolve => setTimeout(resolve, 5000))]);
  return { answer, ms: Date.now() - started };
}

/**
 * The panel as an editor tab (chat takes the side bar), visible before the test goes on. In a fresh
 * profile "Manage Language Models" opens as a modal editor a moment after it is asked for, and a
 * tab opened meanwhile lands under it: close the modal and open the tab again until it shows.
 */
async function showPanelInEditor(api: Api): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await vscode.commands.executeCommand('workbench.action.closeModalEditor');
    await vscode.commands.executeCommand('playwrightBridge.openPanelInEditor');
    try {
      await waitFor(async () => (await api.describePanels()).length > 0, 5000, 'the browser panel to be visible', 250);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** A browser process below the bridge's server, if one runs. */
function browserRuns(api: Api): boolean {
  return !!api.childPid && listDescendants(api.childPid).length > 0;
}

/** The exposure this window was opened with decides the door: each door gets a fresh window. */
const exposure = vscode.workspace.getConfiguration('playwrightBridge').get<string>('exposure');
const door: 'tool' | 'mcp' = exposure === 'mcp' ? 'mcp' : 'tool';
const doorName = door === 'tool' ? 'language-model tools' : 'MCP server';

describe(`Chat drives the browser through the ${doorName} (real chat view, scripted model, a fresh window)`, function () {
  this.timeout(300000);
  const fixture = new FixtureServer();
  let api: Api;

  before(async () => {
    await fixture.start();
    api = await vscode.extensions.getExtension<Api>(EXTENSION_ID)!.activate();
    // A fresh profile starts Copilot Chat disabled; "Manage Language Models" enables it without sign-in.
    await vscode.commands.executeCommand('workbench.action.chat.manage');
    await waitFor(() => !!vscode.extensions.getExtension('GitHub.copilot-chat')?.isActive, 120000, 'Copilot Chat to activate');
    await vscode.commands.executeCommand('workbench.action.closeModalEditor');
    if (door === 'mcp') {
      // VS Code collects the provider's definition a moment after activation: start until its tools are live.
      const deadline = Date.now() + 60000;
      while (!vscode.lm.tools.some(t => t.name.startsWith('mcp_') && t.name.endsWith('browser_navigate')) && Date.now() < deadline) {
        await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true, autoTrustChanges: true });
        await new Promise(resolve => setTimeout(resolve, 1000));
      }
    }
    await vscode.commands.executeCommand('pwbChatHelper.configure', {
      scenario: [...FORM_SCENARIO, ...DECLINE_SCENARIO, ...FILE_SCENARIO],
      base: fixture.url,
      door,
    });
    await showPanelInEditor(api);
  });
  after(() => fixture.stop());

  it('plays the form scenario from a cold browser: the first call starts it', async () => {
    assert.ok(!browserRuns(api), 'no browser runs before the first chat turn');
    const postsBefore = fixture.formPosts.length;
    const sessionsBefore = api.mcpSessions.opened;

    const first = await chatTurn(FORM_SCENARIO[0]);
    // VS Code restarts an MCP server whose definition changed, cutting off the call in flight (it did
    // when the browser launch bumped the definition): the turn must run on the session it started on.
    assert.strictEqual(api.mcpSessions.opened, sessionsBefore, 'VS Code did not reconnect to the MCP server during the turn');
    note(`    turn 1 (${door}, 5 tool calls, from a cold browser): ${first.ms} ms: ${first.answer}`);
    assert.strictEqual(first.answer, 'The page says: Thanks, Ada!', 'the model got every result and gave its final answer');
    assert.deepStrictEqual(fixture.formPosts.slice(postsBefore), [{ name: 'Ada' }], 'the form was really submitted, once');
    assert.ok(browserRuns(api), 'the turn started the browser');

    const second = await chatTurn(FORM_SCENARIO[1]);
    note(`    turn 2 (${door}, 3 tool calls): ${second.ms} ms: ${second.answer}`);
    assert.match(
      second.answer,
      /^Screenshot taken\. Console: guest book signed by Ada\. Network requests: \[GET\] http:\/\/127\.0\.0\.1:\d+\/form => \[200\] OK/,
      'the answer lists the network requests it was asked for',
    );
    const record = await chatRecord();
    const offered = record[0].offeredTools;
    if (door === 'tool') {
      assert.ok(
        offered.includes('browser_navigate') && !offered.some(n => n.startsWith('mcp_') && n.endsWith('browser_navigate')),
        'chat offered our tools, once',
      );
      assert.ok(!offered.includes('browser_pdf_save'), 'a capability tool that is off is not offered: its when clause holds in chat');
    } else {
      assert.ok(
        !offered.includes('browser_navigate') && offered.some(n => n.startsWith('mcp_') && n.endsWith('browser_navigate')),
        'chat offered the MCP tools only',
      );
    }
    const screenshotResult = record.flatMap(r => r.results).find(r => r.mimeTypes.length > 0);
    assert.ok(
      screenshotResult && /^image\/(png|jpeg)$/.test(screenshotResult.mimeTypes[0]),
      `the screenshot reached the model as an image: ${JSON.stringify(record.flatMap(r => r.results).map(r => [r.text.slice(0, 80), r.mimeTypes]))}`,
    );
    const networkResult = record.at(-1)!.results.at(-1)!.text;
    assert.match(networkResult, /\/sign/, `the network list the model read holds the form post: ${networkResult}`);

    let panel: PanelReport | undefined;
    await waitFor(
      async () => !!([panel] = await api.describePanels())[0]?.frameDrawn,
      20000,
      () => `the browser panel to show the page: ${JSON.stringify(panel)}`,
      250,
    );
    if (!panel) throw new Error('unreachable: waitFor ensured a panel');
    assert.ok(panel.consoleTexts.includes('guest book signed by Ada'));
    assert.ok(panel.networkUrls.some(u => u.endsWith('/sign')));
    for (const title of ['Opening', 'Typing "Ada"', 'Clicking', 'Taking a screenshot']) {
      assert.ok(
        panel.activityTitles.some(t => t.startsWith(title)),
        `the activity pane lists "${title}…": ${panel.activityTitles.join(' / ')}`,
      );
    }
    if (door === 'tool') await screenshotWorkbench(`${process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp'}/chat-and-panel.png`);

    // Declining a confirmation leaves the browser as it was.
    const callsBefore = panel.activityTitles.length;
    const declined = await chatTurn(DECLINE_SCENARIO[0], 'decline');
    note(`    decline (${door}): ${declined.answer}`);
    const after = (await api.describePanels())[0];
    assert.ok(
      !after.activityTitles.slice(callsBefore).some(t => /Evaluate|evaluate/.test(t)),
      `no evaluate call reached the browser: ${after.activityTitles.slice(callsBefore).join(' / ')}`,
    );
    assert.doesNotMatch(after.header, /Changed by chat/, 'the page title is unchanged');
    assert.match(after.header, /Signed/);
  });

  it("asks before a call writes a named file, and puts a relative name in the bridge's folder, never the workspace", async () => {
    const workspaceFile = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'inside.yml');
    let panel: PanelReport | undefined;
    await waitFor(async () => !!([panel] = await api.describePanels())[0], 20000, 'the panel', 250);
    const callsBefore = panel!.activityTitles.length;
    const declined = await chatTurn(FILE_SCENARIO[0], 'decline');
    note(`    file write declined (${door}): ${declined.answer}`);
    [panel] = await api.describePanels();
    assert.deepStrictEqual(panel!.activityTitles.slice(callsBefore), [], 'declined: nothing reached the browser (it asked first)');
    assert.ok(!fs.existsSync(workspaceFile));

    const accepted = await chatTurn(FILE_SCENARIO[0]);
    note(`    file write accepted (${door}): ${accepted.answer}`);
    assert.ok(!fs.existsSync(workspaceFile), 'nothing was written into the workspace root');
    const written = /(\/\S*\/playwright-bridge\/inside\.yml)/.exec(accepted.answer)?.[1];
    assert.ok(written && fs.existsSync(written), `the snapshot is in the bridge's own folder: ${accepted.answer}`);
  });

  // About the panel, not the door: it runs once, in the language-model tools' window.
  if (door === 'tool')
    it('Add to Chat puts the element the person picks in the panel on the chat input, ready for their prompt', async function () {
      if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
      await vscode.commands.executeCommand('pwbChatHelper.configure', {
        scenario: [...FORM_SCENARIO, ...DECLINE_SCENARIO, ...FILE_SCENARIO],
        base: fixture.url,
        door,
      });
      await vscode.lm.invokeTool(
        'browser_navigate',
        { input: { url: `${fixture.url}/counter` }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      await waitFor(async () => !!(await api.describePanels())[0]?.frameDrawn, 20000, 'the panel to show the page', 250);
      const located = await vscode.lm.invokeTool(
        'browser_evaluate',
        {
          input: {
            function:
              "() => { const r = document.querySelector('button').getBoundingClientRect(); return { x: (r.left + r.width / 2) / innerWidth, y: (r.top + r.height / 2) / innerHeight }; }",
          },
          toolInvocationToken: undefined,
        },
        new vscode.CancellationTokenSource().token,
      );
      const text = located.content.map(part => (part as { value?: string }).value ?? '').join('');
      const at = JSON.parse(/### Result\n([^]*?)\n(?:###|$)/.exec(text)![1]) as { x: number; y: number };
      await panelHands({ action: 'button', id: 'pick' });
      await panelHands({ action: 'click', ...at });
      let attached: string[] = [];
      await waitFor(
        async () => (attached = JSON.parse(await panelHands({ action: 'chatAttachments' })) as string[]).some(label => /element-.*\.md/.test(label)),
        20000,
        () => `the picked element on the chat input: ${JSON.stringify(attached)}`,
        500,
      );
      const written = fs.readdirSync(path.join(api.outputDir, 'chat')).filter(name => name.startsWith('element-'));
      assert.ok(written.length >= 1, 'the element was written to the output folder');
      assert.match(fs.readFileSync(path.join(api.outputDir, 'chat', written.at(-1)!), 'utf8'), /- Role: button\n- Name: "Press"\n- Ref: (f\d+)?e\d+ /);
      assert.strictEqual(fixture.count('/press'), 0, 'picking did not press the button');
    });

  // About the panel, not the door: it runs once, in the language-model tools' window.
  if (door === 'tool')
    it('"why is this page slow?", typed as a person asks it: chat traces a reload, the Activity card shows the vitals and insights, Open trace opens the trace file; "is it accessible?" gives an audit card; a question with no script is said so', async function () {
      if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
      await vscode.commands.executeCommand('pwbChatHelper.configure', { scenario: [...TRACE_SCENARIO, ...AUDIT_SCENARIO], base: fixture.url, door });
      // The person's own words, not the scenario's prompt (the demo's model answers what README says to ask).
      const traced = await chatTurn('why is this page slow?');
      note(`    trace (${door}): ${traced.ms} ms: ${traced.answer}`);
      assert.match(
        traced.answer,
        /^Traced: LCP \d+ ms \((good|needs improvement|poor)\); Render-blocking requests\. The card is in the Browser panel's Activity\.$/,
        'the model read the vitals and the insight',
      );
      let card = '';
      await waitFor(async () => !!(card = (await api.describePanels())[0]?.activityCards.at(-1) ?? ''), 20000, 'the trace card in Activity', 250);
      assert.match(card, /^LCP\d+ ms \((good|needs-improvement|poor)\)\nCLS[\d.]+ \(good\)\nINP— \(none\)/, `the card's vitals, rated: ${card}`);
      assert.match(card, /Render-blocking requests · failing[^\n]*\nWhat to change: Defer or inline/, `failing, with what to change in sight: ${card}`);
      await panelHands({ action: 'button', id: 'tab-activity' });
      await screenshotWorkbench(`${process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp'}/performance-card.png`);
      await panelHands({ action: 'cardButton', label: 'Open trace' });
      let opened = '';
      await waitFor(
        () =>
          /trace-[^/]*\.json$/.test(
            (opened = vscode.window.activeTextEditor?.document.uri.fsPath ?? vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ''),
          ),
        20000,
        () => `the trace file to open: ${opened}`,
        250,
      );
      const file = vscode.window.activeTextEditor?.document.uri.fsPath;
      if (file) {
        assert.ok(file.startsWith(api.outputDir), `the file is in the bridge's output folder: ${file}`);
        assert.match(fs.readFileSync(file, 'utf8').slice(0, 200), /^\{"traceEvents":\[/, 'it is a trace DevTools opens');
      }
      // As the person would: close the trace and look at the panel again (the next tests watch it), on its Console.
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await showPanelInEditor(api);
      const unscripted = await chatTurn('What is the weather in Lisbon?');
      assert.match(unscripted.answer, /^I am a scripted model with no script for that\./, `never an earlier turn's answer again: ${unscripted.answer}`);
      const audited = await chatTurn('Is this page accessible?');
      note(`    audit (${door}): ${audited.ms} ms: ${audited.answer}`);
      assert.match(audited.answer, /^Audited: \d+ rules? violated on \d+ elements?; the worst: (critical|serious): [^.]+\. The card/, audited.answer);
      await waitFor(
        async () => /rules? violated/.test((card = (await api.describePanels())[0]?.activityCards.at(-1) ?? '')),
        20000,
        'the audit card in Activity',
        250,
      );
      assert.match(card, /\n(critical|serious)[^\n]+ \([a-z-]+\)\n(What to change: |[^\n]+ — )/, `each rule once, then what to change: ${card}`);
      await panelHands({ action: 'button', id: 'tab-activity' });
      await screenshotWorkbench(`${process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp'}/audit-card.png`);
      await panelHands({ action: 'button', id: 'tab-console' });
    });

  // About the panel and the workspace, not the door: it runs once, in the language-model tools' window.
  if (door === 'tool')
    it('a chat session becomes a Playwright test: the person exports it from the panel, it opens and passes; once the app changes, it fails at the changed step', async function () {
      if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
      const apps = new ExportApps();
      await apps.start();
      const tests = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'tests');
      try {
        await vscode.workspace.getConfiguration('playwrightBridge').update('testExport.folder', 'tests', vscode.ConfigurationTarget.Workspace);
        // A fresh browser, as a person starting a new task: the export holds this session only.
        await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
        await vscode.commands.executeCommand('pwbChatHelper.configure', { scenario: EXPORT_SCENARIO, base: apps.url, door });
        const turn = await chatTurn(EXPORT_SCENARIO[0]);
        assert.strictEqual(turn.answer, 'Added: Buy milk');
        await waitFor(async () => !!(await api.describePanels().catch(() => []))[0]?.frameDrawn, 20000, 'the panel to show the page', 250);

        await panelHands({ action: 'button', id: 'tab-activity' });
        await panelHands({ action: 'button', id: 'export-test' });
        let panel: PanelReport | undefined;
        // Playwright Test's runs load the machine: a panel too busy to answer in time is asked again, not a failure.
        const latest = async () => (await api.describePanels().catch(() => [panel]))[0];
        await waitFor(
          async () => /passed 3 of 3 runs/.test((panel = await latest())?.exportStatus ?? ''),
          240000,
          () => `the panel to report the exported test green: ${JSON.stringify(panel && { status: panel.exportStatus, marks: panel.exportMarks })}`,
          1000,
        );
        const written = fs.readdirSync(tests).filter(name => name.endsWith('.spec.ts'));
        assert.strictEqual(written.length, 1, `one test in tests/: ${written.join(', ')}`);
        const file = path.join(tests, written[0]);
        assert.ok(
          vscode.window.visibleTextEditors.some(editor => editor.document.uri.fsPath === file),
          'the test is open in an editor',
        );
        const text = fs.readFileSync(file, 'utf8');
        assert.match(text, /await page\.getByRole\('button', \{ name: 'Add' \}\)\.click\(\);/);
        assert.match(text, /await expect\(page\.getByText\('Buy milk', \{ exact: true \}\)\)\.toBeVisible\(\);/);
        assert.ok(
          panel!.exportMarks.some(mark => /^passed: Clicking/.test(mark)),
          `the click's row is marked passed: ${panel!.exportMarks.join(' / ')}`,
        );
        await screenshotWorkbench(`${process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp'}/export-test.png`);

        // The app changes under the test: the next export of the same session goes red at the click.
        apps.broken = true;
        await panelHands({ action: 'button', id: 'export-test' });
        await waitFor(
          async () => /failed 3 of 3 runs at line \d+/.test((panel = await latest())?.exportStatus ?? ''),
          240000,
          () => `the panel to report the second export red: ${JSON.stringify(panel && { status: panel.exportStatus, marks: panel.exportMarks })}`,
          1000,
        );
        note(`    export: ${panel!.exportStatus}`);
        assert.ok(
          panel!.exportMarks.some(mark => /^failed: Clicking/.test(mark)),
          `the click's row is marked failed: ${panel!.exportMarks.join(' / ')}`,
        );
        const failing = fs.readdirSync(tests).filter(name => name.endsWith('.failing.spec.ts'));
        assert.strictEqual(failing.length, 1, `the red test is kept as *.failing.spec.ts: ${fs.readdirSync(tests).join(', ')}`);
      } finally {
        await apps.stop();
        await vscode.workspace.getConfiguration('playwrightBridge').update('testExport.folder', undefined, vscode.ConfigurationTarget.Workspace);
        await vscode.commands.executeCommand('pwbChatHelper.configure', {
          scenario: [...FORM_SCENARIO, ...DECLINE_SCENARIO, ...FILE_SCENARIO],
          base: fixture.url,
          door,
        });
      }
    });

  if (door === 'tool')
    it("time travel: the person scrubs to a past step and sees its picture and console, goes back to before the form was sent, and the model's next call sees the form empty again", async function () {
      if (process.env.PLAYWRIGHT_BRIDGE_HOST !== 'server') this.skip();
      const apps = new TimeTravelApps();
      await apps.start();
      try {
        // A fresh browser, as a person starting a new task.
        await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
        await vscode.commands.executeCommand('pwbChatHelper.configure', { scenario: TIME_TRAVEL_SCENARIO, base: apps.url, door });
        const sent = await chatTurn(TIME_TRAVEL_SCENARIO[0]);
        assert.strictEqual(sent.answer, 'Sent: Thank you, Grace');
        assert.deepStrictEqual(apps.sent, ['Grace']);
        await waitFor(async () => !!(await api.describePanels().catch(() => []))[0]?.frameDrawn, 20000, 'the panel to show the page', 250);

        await panelHands({ action: 'button', id: 'tab-activity' });
        // The step that sent the form: the page it led to, and what that page logged.
        await panelHands({ action: 'row', text: 'Clicking “Send button”' });
        let panel: PanelReport | undefined;
        await waitFor(async () => !!(panel = (await api.describePanels())[0])?.stepBanner, 10000, 'the step to show', 250);
        assert.match(panel!.stepBanner, /^Step \d+ of \d+, \d\d:\d\d:\d\d: Clicking “Send button”/, panel!.stepBanner);
        assert.ok(
          panel!.stepConsole.some(line => line.includes('message 1 received')),
          `the step's console: ${panel!.stepConsole.join(' / ')}`,
        );
        assert.ok(!panel!.stepConsole.some(line => line.includes('visitor form ready')), 'and not what came before it');
        await waitFor(async () => !!(panel = (await api.describePanels())[0])?.stepFrameShown, 10000, "the step's picture", 250);
        // As in Playwright's trace viewer, the list of steps stays in view beside the step's details, the step shown among them.
        assert.ok(panel!.stepsInView >= 3, `steps in view beside the details, the shown one among them: ${panel!.stepsInView}`);
        await screenshotWorkbench(`${process.env.PLAYWRIGHT_BRIDGE_ARTIFACTS ?? '/tmp'}/time-travel.png`);

        // The step that opened the form, then Continue from here: the browser goes back to before it was sent.
        await panelHands({ action: 'row', text: `Opening ${apps.url}/form` });
        await waitFor(async () => /Opening/.test((panel = (await api.describePanels())[0])?.stepBanner ?? ''), 10000, "the form's step to show", 250);
        assert.ok(
          panel!.stepConsole.some(line => line.includes('visitor form ready')),
          `its console: ${panel!.stepConsole.join(' / ')}`,
        );
        await panelHands({ action: 'button', id: 'step-restore' });
        await waitFor(async () => (panel = (await api.describePanels())[0])?.stepBanner === '', 30000, 'the panel to go back to live', 250);
        const next = await chatTurn(TIME_TRAVEL_SCENARIO[1]);
        assert.match(next.answer, /^Page: restored to step \d+ \(Visitor Form, before Reading the page structure\); textbox "Name" \[ref=\w+\]$/, next.answer);
        assert.deepStrictEqual(apps.sent, ['Grace'], 'the server keeps what it received: its own state');
        note(`    time travel: ${next.answer}; scrubs ${api.scrubTimes.map(Math.round).join(', ')} ms`);
      } finally {
        await apps.stop();
        await vscode.commands.executeCommand('pwbChatHelper.configure', {
          scenario: [...FORM_SCENARIO, ...DECLINE_SCENARIO, ...FILE_SCENARIO],
          base: fixture.url,
          door,
        });
      }
    });

  it('plays it again right after Restart Browser: the panel drops the old page and the model is told its state was lost', async () => {
    await vscode.commands.executeCommand('playwrightBridge.restartBrowser');
    let panel: PanelReport | undefined;
    await waitFor(
      async () => {
        [panel] = await api.describePanels();
        return !!panel && /^Not started/.test(panel.header);
      },
      20000,
      () => `the panel to show the new browser: ${JSON.stringify(panel)}`,
      250,
    );
    assert.strictEqual(panel!.frameDrawn, false, "no frame of the old browser's page stays on the panel");
    assert.ok(!browserRuns(api), 'the restarted server has not launched a browser yet');

    const before = (await chatRecord()).length;
    const sessionsBefore = api.mcpSessions.opened;
    const turn = await chatTurn(FORM_SCENARIO[0]);
    assert.strictEqual(api.mcpSessions.opened, sessionsBefore, 'VS Code did not reconnect to the MCP server during the turn');
    note(`    turn 1 again (${door}, right after Restart Browser): ${turn.ms} ms: ${turn.answer}`);
    assert.strictEqual(turn.answer, 'The page says: Thanks, Ada!');
    const firstResult = (await chatRecord()).slice(before).flatMap(r => r.results)[0]?.text ?? '';
    assert.match(firstResult, /^Note: the browser was restarted/, `the model's first result says its state was lost: ${firstResult.slice(0, 300)}`);
    assert.match(firstResult, /earlier element references\.\n\n/, `the note is set off from what follows: ${JSON.stringify(firstResult.slice(0, 400))}`);
  });
});
