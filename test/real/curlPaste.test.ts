/**
 * Copy as cURL pasted into real interactive shells through a pseudo-terminal, as a person pastes it:
 * bash and zsh with bracketed paste and without (the text then arrives as if typed, and the line editor
 * reads DEL, Ctrl-W, Ctrl-U, Tab, CR as editing keys), dash with no line editor (the terminal's own line
 * discipline reads DEL, Ctrl-U, Ctrl-W, CR). The request's header and body hold what a hostile page can put
 * there: the keys that would erase the copy's quoting, the end-of-paste sequence, a line longer than a
 * terminal keeps, quotes and command substitutions (and, for zsh, which reads a `#` line as a command, a
 * MIME type in the copy's note). The server must receive the page's request exactly once, byte for byte,
 * and nothing else may run. Then every character, anywhere, read back by each shell from `sh -c`.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RequestRecorder } from '../fixtures/requestRecorder';
import { pasteIntoShell, ShellRun } from '../support/ptyShell';
import { toCurl } from '../../src/core/liveView/requestCopies';
import type { RequestDetail } from '../../src/protocol/childMessages';

const PROMPT = 'pb-ready> ';
const DEL = '\x7f';
/** What a copy never holds raw: C0 (tab, CR, LF too), DEL, C1, U+2028/9. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const NEVER_RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** What a bridge secret's environment variable holds in the secret test: printf's and the shell's specials. */
const TOKEN_VALUE = 'to\\ck%s%b\'"`$(id)`!!\\0101';

interface Mode {
  title: string;
  shell: 'bash' | 'zsh' | 'dash';
  bracketed: boolean;
}

const MODES: Mode[] = [
  { title: 'bash, bracketed paste', shell: 'bash', bracketed: true },
  { title: 'bash, typed (no bracketed paste)', shell: 'bash', bracketed: false },
  { title: 'zsh, bracketed paste', shell: 'zsh', bracketed: true },
  { title: 'zsh, typed (no bracketed paste)', shell: 'zsh', bracketed: false },
  { title: 'dash, no line editor', shell: 'dash', bracketed: false },
];

const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

describe('Copy as cURL pasted into real shells (bash, zsh, dash through a pseudo-terminal)', function () {
  this.timeout(90000);
  const recorder = new RequestRecorder();
  let scratch = '';
  let marker = '';
  before(async () => {
    await recorder.start();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pwb-paste-'));
    marker = path.join(scratch, 'owned');
  });
  after(async () => {
    await recorder.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => {
    recorder.requests.length = 0;
    fs.rmSync(marker, { force: true });
  });

  /**
   * The page's request. Typed, x-erase's DELs would erase the `'\''` that quotes its apostrophe (and its
   * `; touch` would run); pasted bracketed, x-keys' (and the body's) ESC [201~ would end the paste and the
   * DELs after it do the same; x-long is longer than a terminal keeps of a line (dash would lose its closing
   * quote). The rest are the other keys and shell specials a copy must carry as data.
   */
  const hostile = (secret: string): RequestDetail => {
    const run = `; touch ${marker} #`;
    return {
      id: 'r1',
      method: "PUT'`id`$HOME",
      resourceType: 'fetch',
      status: 200,
      statusText: 'OK',
      timing: [],
      url: `${recorder.url}/collect?q=it's&run=$(touch%20x)&t=\`id\`&g={a,b}[0]`,
      requestHeaders: [
        { name: 'x-long', value: `${'A'.repeat(97)}'\x1b`.repeat(55) },
        { name: 'x-erase', value: `v'${DEL.repeat(3)}${run}` },
        { name: 'x-keys', value: `a\tb\x17c\x15d\x1b[31m\`id\`$(id)"\x08\x07\u0085\u2028\u2029\x1b[201~e'${DEL.repeat(3)}${run}` },
        { name: 'authorization', value: `Bearer ${secret}` },
      ],
      responseHeaders: [],
      requestBody: {
        kind: 'text',
        mimeType: 'text/plain',
        size: 0,
        text: `{"a":"line1\r\nline2\tx\x17y\x15z\`touch ${marker}\`$(touch ${marker})'${run}\n${secret}\x00\x1b[201~e'${DEL.repeat(3)}${run}\n"}\x9b\x85\n`,
      },
      responseBody: { kind: 'none', mimeType: '', size: 0 },
    };
  };

  function shellFor(mode: Mode, extraEnv: Record<string, string>): { argv: string[]; setup: string[]; env: Record<string, string> } {
    // A home of its own and no rc files: the shells start as installed, nothing of this machine's user loads.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: scratch,
      ZDOTDIR: scratch,
      HISTFILE: path.join(scratch, 'history'),
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm-256color',
      PS1: PROMPT,
      PS2: '> ',
      ...extraEnv,
    };
    if (mode.shell === 'bash') {
      const inputrc = path.join(scratch, `inputrc-${mode.bracketed ? 'on' : 'off'}`);
      fs.writeFileSync(inputrc, `set enable-bracketed-paste ${mode.bracketed ? 'on' : 'off'}\n`);
      return { argv: ['bash', '--norc', '--noprofile', '-i'], setup: [], env: { ...env, INPUTRC: inputrc } };
    }
    // zle turns bracketed paste on by itself; unsetting its sequences turns it off.
    if (mode.shell === 'zsh') return { argv: ['zsh', '-f', '-i'], setup: mode.bracketed ? [] : ['unset zle_bracketed_paste'], env };
    return { argv: ['dash', '-i'], setup: [], env };
  }

  /** What went wrong, readable: the end of the terminal's text with its control characters spelled out. */
  const seen = (run: ShellRun) => `\nterminal (last 1500 characters): ${JSON.stringify(run.transcript.slice(-1500))}`;

  async function pasteAndCheck(
    mode: Mode,
    detail: RequestDetail,
    secretSites: Record<string, string[]>,
    env: Record<string, string>,
    value: (text: string) => string,
  ) {
    const shell = shellFor(mode, env);
    const curl = toCurl(detail, secretSites);
    const run = await pasteIntoShell({ argv: shell.argv, env: shell.env, prompt: PROMPT, setup: shell.setup, paste: curl, bracketed: mode.bracketed });
    assert.ok(!fs.existsSync(marker), `the page's command ran in ${mode.title}${seen(run)}`);
    if (mode.shell !== 'dash') {
      // The line editor was in the mode the test is about: it asks the terminal for bracketed paste with ESC [?2004h.
      const afterSetup = run.transcript.slice(run.transcript.lastIndexOf(PROMPT, run.transcript.indexOf('curl')));
      assert.strictEqual(afterSetup.includes('\x1b[?2004h'), mode.bracketed, `bracketed paste ${mode.bracketed ? 'on' : 'off'}${seen(run)}`);
    }
    assert.ok(run.promptsCame, `the shell came back to its prompt after the command${seen(run)}`);
    assert.strictEqual(
      recorder.requests.length,
      1,
      `exactly one request reached the server: ${JSON.stringify(recorder.requests.map(r => r.method))}${seen(run)}`,
    );
    const [request] = recorder.requests;
    assert.strictEqual(request.method, detail.method);
    assert.strictEqual(request.target, detail.url.slice(recorder.url.length));
    for (const header of detail.requestHeaders) {
      const got = request.headers.filter(h => h.name === header.name).map(h => JSON.stringify(h.value.toString('utf8')));
      assert.deepStrictEqual(got, [JSON.stringify(value(header.value))], `header ${header.name}`);
    }
    const body = value(detail.requestBody.text ?? '');
    assert.strictEqual(JSON.stringify(request.body.toString('utf8')), JSON.stringify(body), 'the body, byte for byte');
    assert.ok(request.body.equals(Buffer.from(body, 'utf8')));
  }

  for (const mode of MODES.filter(m => m.shell === 'zsh')) {
    it(`${mode.title}: the note naming a binary body's MIME type, which the page chose, runs nothing (zsh reads a # line as a command)`, async function () {
      if (!installed(mode.shell)) {
        console.log(`      (skipped: ${mode.shell} is not installed here)`);
        this.skip();
      }
      const detail: RequestDetail = {
        id: 'r2',
        method: 'PUT',
        url: `${recorder.url}/upload`,
        resourceType: 'fetch',
        status: 200,
        timing: [],
        requestHeaders: [{ name: 'x-plain', value: 'yes' }],
        responseHeaders: [],
        requestBody: { kind: 'binary', mimeType: `x/y) $(touch ${marker}) (`, size: 3 },
        responseBody: { kind: 'none', mimeType: '', size: 0 },
      };
      await pasteAndCheck(mode, detail, {}, {}, text => text);
    });
  }

  for (const mode of MODES) {
    it(`${mode.title}: the page's request arrives once, byte for byte, and nothing else runs`, async function () {
      if (!installed(mode.shell)) {
        console.log(`      (skipped: ${mode.shell} is not installed here)`);
        this.skip();
      }
      const placeholder = '<secret>PB_TOKEN</secret>';
      // No secret sites: the page's own `<secret>` text stays text.
      await pasteAndCheck(mode, hostile(placeholder), {}, {}, text => text);
    });

    it(`${mode.title}: a bridge secret is read from its variable into the header and the body, as data`, async function () {
      if (!installed(mode.shell)) {
        console.log(`      (skipped: ${mode.shell} is not installed here)`);
        this.skip();
      }
      const placeholder = '<secret>PB_TOKEN</secret>';
      await pasteAndCheck(mode, hostile(placeholder), { PB_TOKEN: [recorder.url] }, { PB_TOKEN: TOKEN_VALUE }, text =>
        text.replaceAll(placeholder, TOKEN_VALUE),
      );
    });
  }
});

/** Every line of a copy: printable, ended by a line continuation (the copy's own newlines), and short enough for any terminal to keep whole. */
function assertPrintableLines(copy: string): void {
  const lines = copy.split('\n');
  assert.strictEqual(lines.pop(), '', 'the copy ends with its newline');
  lines.forEach((line, i) => {
    const raw = line.match(NEVER_RAW);
    assert.strictEqual(raw, null, `a raw ${JSON.stringify(raw?.[0])} in line ${i + 1} of the copy`);
    if (i < lines.length - 1) assert.ok(line.endsWith('\\'), `a newline of the page's after ${JSON.stringify(line.slice(-80))}`);
    assert.ok(Buffer.byteLength(line) < 1000, `a line of ${Buffer.byteLength(line)} bytes: ${JSON.stringify(line.slice(0, 80))}...`);
  });
}

describe('Copy as cURL read back by bash, zsh and dash (sh -c): every character, anywhere, long words', function () {
  this.timeout(60000);
  const origin = 'http://127.0.0.1:9';
  const all = [...Array.from({ length: 255 }, (_, i) => String.fromCharCode(i + 1)), '\u2028', '\u2029'];
  const placeholder = '<secret>PB_TOKEN</secret>';
  const detail = (body: string): RequestDetail => ({
    id: 'r1',
    url: `${origin}/p?q=${all.join('')}&end`,
    method: 'M\x7f\x1b[201~',
    resourceType: 'fetch',
    status: 200,
    timing: [],
    requestHeaders: [
      // Each character alone, at the start, doubled in the middle and at the end (a final newline is dropped: see requestCopies.ts).
      ...all.map(c => ({ name: `x-${c.charCodeAt(0).toString(16)}`, value: `${c}a${c}${c}b${c === '\n' ? '' : c}` })),
      { name: 'x-long', value: `${'A'.repeat(97)}'\x1b`.repeat(60) },
      { name: 'x-esc', value: '\x1b'.repeat(2000) },
      { name: 'x-newlines', value: `${'\n'.repeat(300)}z` },
      { name: 'authorization', value: `Bearer ${placeholder}` },
    ],
    responseHeaders: [],
    requestBody: { kind: 'text', mimeType: 'text/plain', size: body.length, text: body },
    responseBody: { kind: 'none', mimeType: '', size: 0 },
  });
  const bodies = {
    'a body with every character, NUL and final newlines': `${all.join('')}\0${'line\n'.repeat(3000)}'\\c%s${placeholder}\n\n`,
    'a long plain body': `${"it's ".repeat(4000)}${placeholder}!!`,
  };
  // Stands in for curl: writes its arguments NUL-separated, then what it read on standard input.
  const fakeCurl = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; printf 'STDIN\\0'; cat; }\n`;

  for (const shell of ['bash', 'zsh', 'dash']) {
    for (const [what, body] of Object.entries(bodies)) {
      it(`${shell}: ${what}`, function () {
        if (!installed(shell)) {
          console.log(`      (skipped: ${shell} is not installed here)`);
          this.skip();
        }
        const request = detail(body);
        const copy = toCurl(request, { PB_TOKEN: [origin] });
        assertPrintableLines(copy);
        const run = spawnSync(shell, ['-c', fakeCurl + copy], {
          input: '',
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', PB_TOKEN: TOKEN_VALUE },
          timeout: 20000,
          maxBuffer: 64 * 1024 * 1024,
        });
        assert.strictEqual(run.status, 0, run.stderr.toString());
        const value = (text: string) => text.replaceAll(placeholder, TOKEN_VALUE);
        const printed = NEVER_RAW.test(body);
        const expected = [
          '--globoff',
          request.url,
          '-X',
          request.method,
          ...request.requestHeaders.flatMap(h => ['-H', value(`${h.name}: ${h.value}`)]),
          ...(printed ? ['--data-binary', '@-'] : ['--data-raw', value(body)]),
        ];
        const out = run.stdout;
        const args: string[] = [];
        let at = 0;
        for (;;) {
          const end = out.indexOf(0, at);
          const arg = out.subarray(at, end).toString('utf8');
          at = end + 1;
          if (arg === 'STDIN') break;
          args.push(arg);
        }
        assert.deepStrictEqual(
          args.map(a => JSON.stringify(a)),
          expected.map(a => JSON.stringify(a)),
        );
        assert.ok(
          out.subarray(at).equals(Buffer.from(printed ? value(body) : '', 'utf8')),
          `standard input: ${JSON.stringify(out.subarray(at).toString('utf8').slice(0, 300))}`,
        );
      });
    }
  }
});
