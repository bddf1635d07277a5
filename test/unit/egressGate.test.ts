import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { SecretMask } from '../../src/core/egress/secretMask';
import { LogGate, MAX_LOG_LINE_CHARS } from '../../src/core/egress/logLine';
import { grantSecrets } from '../../src/core/egress/secretGrants';
import { PLACEHOLDER_SHOWN } from '../../src/core/egress/pagePlaceholders';
import { ContextNotes, contextOfCall, WINDOW_CONTEXT } from '../../src/core/supervision/contextNotes';
import { QUOTED_SECRET_PLACEHOLDER } from '../../src/protocol/childMessages';

const SRC = path.join(__dirname, '..', '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the egress gate (plain Node)', () => {
  it('a placeholder the page wrote is inert wherever the child masks text, with or without secrets set', () => {
    for (const mask of [new SecretMask({}), new SecretMask({ BANK_PW: 'hunter2-value' })]) {
      const recorded = mask.deep({ code: ["await page.locator('iframe').contentFrame().getByRole('textbox').fill('<secret>BANK_PW</secret>');"] });
      assert.strictEqual(recorded.code[0].match(QUOTED_SECRET_PLACEHOLDER), null, `an export would read BANK_PW for it: ${recorded.code[0]}`);
      assert.ok(recorded.code[0].includes(PLACEHOLDER_SHOWN), 'shown as the page wrote it, to the eye');
    }
    const masked = new SecretMask({ BANK_PW: 'hunter2-value' }).text("fill('hunter2-value')");
    assert.strictEqual(masked, "fill('<secret>BANK_PW</secret>')", 'the real value still becomes the placeholder');
  });

  it("every observation but a frame's pixels is masked: a page that puts the secret in its address shows it in no Console line", () => {
    const mask = new SecretMask({ BANK_PW: 'hunter2-value' });
    const navigated = mask.event({ kind: 'navigated', pageId: 'p1', url: 'http://127.0.0.1:1/steal?pw=hunter2-value' });
    assert.ok(navigated.kind === 'navigated' && !navigated.url.includes('hunter2-value'), JSON.stringify(navigated));
    const tabs = mask.event({ kind: 'tabs', tabs: [{ id: 't', index: 0, title: 'hunter2-value', url: 'http://127.0.0.1:1/', current: true }] } as never);
    assert.ok(!JSON.stringify(tabs).includes('hunter2-value'), JSON.stringify(tabs));
  });

  it('the log never shows a hidden value in any spelling, nor a raw control character, and cuts long lines', () => {
    const token = 'Qy24TEJ_j_75v0CC+jzG/CwPVvCG04i80zUzViCK9wIU';
    const lines: string[] = [];
    const gate = new LogGate(line => lines.push(line)).hide('MCP_ENDPOINT_TOKEN', token);
    for (const spelling of [token, encodeURIComponent(token), Buffer.from(`user:${token}`).toString('base64')]) gate.log(`refused POST /mcp?t=${spelling}`);
    gate.log('a page wrote \u001b[2J\u001b]0;owned\u0007 and \u007f and \r');
    gate.log('x'.repeat(MAX_LOG_LINE_CHARS * 3));
    for (const line of lines.slice(0, 3))
      assert.ok(!line.includes(token) && !line.includes(encodeURIComponent(token)) && line.includes('MCP_ENDPOINT_TOKEN'), line);
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    assert.doesNotMatch(lines[3], /[\u0000-\u0008\u000b-\u001f\u007f]/, lines[3]);
    assert.match(lines[3], /\\x1b\[2J/);
    assert.ok(lines[4].length < MAX_LOG_LINE_CHARS + 100 && /characters in all/.test(lines[4]));
  });

  it('an exported run gets a secret only when every origin it visits is one of its sites', () => {
    const secrets = { PW: { value: 'v', origins: ['http://bank.test'] } };
    assert.deepStrictEqual(grantSecrets(['PW'], ['http://bank.test'], secrets), { env: { PW: 'v' }, withheld: [] });
    assert.deepStrictEqual(grantSecrets(['PW'], ['http://bank.test', 'http://widget.test'], secrets), { env: {}, withheld: ['PW'] });
    assert.deepStrictEqual(grantSecrets(['PW'], [], secrets), { env: {}, withheld: ['PW'] });
    assert.deepStrictEqual(grantSecrets(['NOPE'], ['http://bank.test'], secrets), { env: {}, withheld: ['NOPE'] });
  });

  it("notes belong to their context: the window's never reach a perClient session, a loss reaches each", () => {
    const notes = new ContextNotes();
    const windowCall = { options: {}, connection: undefined };
    const clientCall = { options: { session: { id: 's1' } }, connection: { facts: { isolation: 'perClient' } } } as never;
    const sharedCall = { options: { session: { id: 's2' } }, connection: { facts: { isolation: 'shared' } } } as never;
    assert.strictEqual(contextOfCall(windowCall), WINDOW_CONTEXT);
    assert.strictEqual(contextOfCall(clientCall), 's1');
    assert.strictEqual(contextOfCall(sharedCall), WINDOW_CONTEXT, "a shared session drives the window's context");
    notes.of('s1');
    notes.watched.panel.add('the person drove the browser');
    assert.strictEqual(notes.of('s1').panel.take(), undefined);
    assert.strictEqual(notes.of(WINDOW_CONTEXT).panel.take(), 'the person drove the browser');
    notes.observe({
      kind: 'sessions',
      sessions: [
        { id: 'window', label: 'w', watched: false },
        { id: 's1', label: 'c', watched: true },
      ],
    });
    notes.watched.panel.add('resized');
    assert.strictEqual(notes.of(WINDOW_CONTEXT).panel.take(), undefined, "the panel watched the client: its change is the client's");
    assert.strictEqual(notes.of('s1').panel.take(), 'resized');
    notes.of('s1').panel.add('the person clicked a link on the page that is about to go');
    notes.lostForAll('lost');
    assert.deepStrictEqual([notes.of(WINDOW_CONTEXT).lost.take(), notes.of('s1').lost.take()], ['lost', 'lost']);
    assert.strictEqual(notes.of('s1').panel.take(), undefined, "the lost browser's pages are not spoken of after it");
    notes.forget('s1');
    notes.lostForAll('lost again');
    assert.strictEqual(notes.of('s1').lost.take(), undefined, 'a closed session is not told');
  });

  it('each rule has one home: no copy of a gate rule outside src/core/egress', () => {
    const copies: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.includes(`${path.sep}egress${path.sep}`)) continue;
      const text = fs.readFileSync(file, 'utf8');
      const name = path.relative(SRC, file);
      if (/\\u2060|\u2060/.test(text)) copies.push(`${name}: makes placeholders inert itself`);
      if (text.includes(`'\\\\''`)) copies.push(`${name}: quotes shell words itself`);
      if (/class SecretMask|SECRET_FORMS\s*[:=]/.test(text)) copies.push(`${name}: a mask of its own`);
      if (/entry\.origins\.includes\(origin\)/.test(text)) copies.push(`${name}: grants secrets itself`);
    }
    assert.deepStrictEqual(copies, []);
  });
});
