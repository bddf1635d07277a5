/**
 * What leaves the bridge, attacked as the outside review did (issue: one egress gate): a hostile widget on a
 * secret's own site, a second MCP client beside the window, a token in a URL. Real child, real Chromium,
 * pages served on 127.0.0.1 by the test.
 */
import * as assert from 'assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bankSite, evilSite, SecretSite } from '../fixtures/secretSites';
import { connectMcpClient, makeRealBridge, RealBridge, refOf, textOf, waitFor } from '../support/realBridge';
import { personHandsOn } from '../support/exportScenarios';
import { StepJournal } from '../../src/core/testExport/stepJournal';
import { writeSpec } from '../../src/core/testExport/specWriter';
import { DISK_READERS } from '../../src/core/testExport/specFiles';
import { visitedOrigins } from '../../src/core/testExport/exportSteps';
import { grantSecrets } from '../../src/core/egress/secretGrants';
import { PLACEHOLDER_SHOWN } from '../../src/core/egress/pagePlaceholders';
import { McpEndpoint } from '../../src/core/mcpDoor/mcpEndpoint';

const PW = 'Bk7-s3cret-Value';

describe('what leaves the bridge holds against a hostile page, a second client and a long session (real browser)', function () {
  this.timeout(180_000);
  let bank: SecretSite;
  let evil: SecretSite;
  let bridge: RealBridge | undefined;

  beforeEach(async () => {
    bank = bankSite();
    evil = evilSite();
    await bank.start();
    await evil.start();
  });

  afterEach(async () => {
    await bridge?.dispose();
    bridge = undefined;
    await bank.stop();
    await evil.stop();
  });

  const call = async (name: string, args: Record<string, unknown> = {}) => textOf(await bridge!.supervisor.callTool(name, args, { door: 'tool' }));
  const bankField = (snapshot: string) => refOf(snapshot, /textbox "Bank password"/);
  const beacons = () => evil.bodiesOf('/beacon').filter(body => body !== '');

  for (const slowly of [true, false]) {
    it(`a secret typed${slowly ? ' slowly' : ''} into its own site's field goes there only, while another site's frame keeps taking the focus`, async () => {
      bridge = makeRealBridge({}, {}, { secrets: { BANK_PW: { value: PW, origins: [bank.url] } } });
      await call('browser_navigate', { url: `${bank.url}/with-frame?src=${encodeURIComponent(`${evil.url}/focus-thief`)}` });
      await waitFor(() => evil.requests.some(r => r.path === '/focus-thief'), 5000, 'the widget loaded');
      const page = await call('browser_snapshot');
      const typed = await call('browser_type', { element: 'Bank password', target: bankField(page), text: 'BANK_PW', ...(slowly ? { slowly: true } : {}) });
      // Whatever the widget got, it sent home at once; give it a moment to arrive.
      await new Promise(resolve => setTimeout(resolve, 500));
      assert.deepStrictEqual(beacons(), [], `the other site's frame received nothing (the call said: ${typed.slice(0, 300)})`);
      const value = textOf(
        await bridge.supervisor.callTool('browser_evaluate', { function: '() => document.getElementById("own").value.length' }, { door: 'tool' }),
      );
      assert.match(value, new RegExp(`\\b${PW.length}\\b`), `the bank's own field holds the whole value: ${value.slice(0, 300)}`);
    });
  }

  it("an exported test never reads a secret for a placeholder a page wrote, nor gets one typed into another site's frame", async () => {
    bridge = makeRealBridge({}, {}, { secrets: { BANK_PW: { value: PW, origins: [bank.url] } } });
    const journal = new StepJournal(bridge.supervisor, () => false);
    const person = personHandsOn(bridge.supervisor);
    await call('browser_navigate', { url: `${bank.url}/with-frame?src=${encodeURIComponent(`${evil.url}/rewriter?name=BANK_PW`)}` });
    await waitFor(() => evil.requests.some(r => r.path === '/rewriter'), 5000, 'the widget loaded');
    const page = await call('browser_snapshot');
    assert.match(page, /Widget note/, page);
    // The person clicks the widget's field (inside the frame) and types; the widget rewrites it to the placeholder text.
    const box = JSON.parse(
      /\{.*\}/
        .exec(
          await call('browser_evaluate', {
            function:
              '() => { const r = document.querySelector("iframe").getBoundingClientRect(); return JSON.stringify({ x: r.x + r.width / 2, y: r.y + r.height / 2 }); }',
          }),
        )![0]
        .replaceAll('\\"', '"'),
    ) as { x: number; y: number };
    await person.takeControl();
    await person.click(box);
    person.type('hello');
    await new Promise(resolve => setTimeout(resolve, 300));
    await person.click({ x: 10, y: 10 });
    await person.handBack();
    const spec = writeSpec(journal.steps, { title: 'widget', ...DISK_READERS, secretNames: ['BANK_PW'] });
    const personStep = journal.steps.find(step => step.tool === 'person_actions');
    assert.ok(personStep, `the person's actions were recorded: ${JSON.stringify(journal.steps.map(s => s.tool))}`);
    assert.doesNotMatch(spec.text, /process\.env\['BANK_PW'\]/, `the page's placeholder text is not the secret:\n${spec.text}`);
    assert.ok(spec.text.includes(`${PLACEHOLDER_SHOWN}BANK_PW`), `the recorded step holds the page's text, made inert:\n${spec.text}`);
    // Had the person typed the real value into the widget, the step's frames name the other site: no grant.
    assert.ok(personStep.origins?.includes(evil.url), `the widget's site is among the step's origins: ${JSON.stringify(personStep.origins)}`);
    assert.ok(
      spec.stepLines.some(line => line.step === personStep.index),
      `the person's step is in the test:\n${spec.text}`,
    );
    const granted = grantSecrets(['BANK_PW'], visitedOrigins(journal.steps, spec), { BANK_PW: { value: PW, origins: [bank.url] } });
    assert.deepStrictEqual(granted, { env: {}, withheld: ['BANK_PW'] }, "a run that visits the widget's site does not get the secret");
  });

  it("the window's notes reach the window's next call only, never another MCP client's (isolation perClient)", async () => {
    bridge = makeRealBridge({ isolation: 'perClient' });
    const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
    let client: Client | undefined;
    try {
      await call('browser_navigate', { url: `${bank.url}/login-json` });
      const address = await endpoint.start();
      client = await connectMcpClient(address, 'second-agent');
      const first = (await client.callTool({ name: 'browser_navigate', arguments: { url: `${evil.url}/ask` } })) as CallToolResult;
      assert.ok(!first.isError, textOf(first));
      // The person drives the window's browser, and resizes it from the panel.
      await bridge.supervisor.takeControl();
      await bridge.supervisor.handBack();
      const resized = await bridge.supervisor.pageAction({ action: 'resize', width: 500, height: 600 });
      assert.ok(resized.ok, resized.message);
      const other = textOf((await client.callTool({ name: 'browser_snapshot', arguments: {} })) as CallToolResult);
      assert.doesNotMatch(other, /the person|Bank sign-in|resized/i, `the other client is told nothing of the window:\n${other.slice(0, 600)}`);
      const own = await call('browser_snapshot');
      assert.match(own, /the person drove the browser/i, "the window's model is told the person drove its browser");
      assert.match(own, /resized the page to 500×600/, 'and that they resized it');
    } finally {
      await client?.close().catch(() => undefined);
      await endpoint.dispose();
    }
  });

  it("under perClient a client cannot hand its page another context's files from the shared output folder", async () => {
    bridge = makeRealBridge({ isolation: 'perClient' });
    const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', () => undefined);
    const clients: Client[] = [];
    try {
      const address = await endpoint.start();
      const [a, b] = [await connectMcpClient(address, 'agent-a'), await connectMcpClient(address, 'agent-b')];
      clients.push(a, b);
      const callAs = async (client: Client, name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult;
      await callAs(a, 'browser_navigate', { url: `${bank.url}/login-json` });
      const wrote = await callAs(a, 'browser_snapshot', { filename: 'a-notes.yml' });
      assert.ok(!wrote.isError, textOf(wrote));
      await callAs(b, 'browser_navigate', { url: `${evil.url}/upload` });
      const page = textOf(await callAs(b, 'browser_snapshot', {}));
      await callAs(b, 'browser_click', { element: 'Pick files', target: refOf(page, /button "Pick files"/) });
      const outputDir = bridge.config.mcp.outputDir;
      for (const paths of [['a-notes.yml'], [`${outputDir}/a-notes.yml`], [outputDir]]) {
        const upload = await callAs(b, 'browser_file_upload', { paths });
        assert.ok(upload.isError && /output folder/.test(textOf(upload)), `refused, saying why (${JSON.stringify(paths)}): ${textOf(upload).slice(0, 300)}`);
      }
      await new Promise(resolve => setTimeout(resolve, 300));
      assert.deepStrictEqual(beacons(), [], "the other client's page got none of A's files");
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      await endpoint.dispose();
    }
  });

  it('a bearer token sent in the query of a refused request never reaches the log, in any spelling', async () => {
    bridge = makeRealBridge();
    const lines: string[] = [];
    const endpoint = new McpEndpoint(bridge.supervisor, '0.0.0-test', line => lines.push(line));
    try {
      const address = await endpoint.start();
      const base = address.url;
      for (const query of [
        `?token=${address.token}`,
        `?access_token=${encodeURIComponent(address.token)}`,
        `?t=${Buffer.from(address.token).toString('base64')}`,
      ]) {
        const answer = await fetch(`${base}${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        assert.strictEqual(answer.status, 401);
      }
      assert.ok(
        lines.some(line => /refused/.test(line)),
        `the refusals are logged: ${lines.join('\n')}`,
      );
      const spellings = [address.token, encodeURIComponent(address.token), Buffer.from(address.token).toString('base64').slice(4, -4)];
      for (const spelling of spellings) {
        assert.deepStrictEqual(
          lines.filter(line => line.includes(spelling)),
          [],
          `the token (as "${spelling.slice(0, 8)}…") is not in the log`,
        );
      }
    } finally {
      await endpoint.dispose();
    }
  });
});
