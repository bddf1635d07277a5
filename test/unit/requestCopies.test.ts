/** A request written out for the person: cURL with shell-safe quoting and secrets from the environment, fetch, and chat's Markdown without credentials. */
import * as assert from 'assert';
import { toChatMarkdown, toCurl, toFetch } from '../../src/core/liveView/requestCopies';
import { maskAndCut } from '../../src/child/requestDetail';
import type { RequestDetail } from '../../src/protocol/childMessages';

const detail = (over: Partial<RequestDetail> = {}): RequestDetail => ({
  id: 'r1',
  url: "http://127.0.0.1:8080/api?q=it's",
  method: 'PUT',
  resourceType: 'fetch',
  status: 201,
  statusText: 'Created',
  timing: [],
  requestHeaders: [
    { name: 'content-type', value: 'application/json' },
    { name: 'authorization', value: 'Bearer <secret>API_TOKEN</secret>' },
    { name: 'content-length', value: '12' },
    { name: 'accept-encoding', value: 'gzip' },
    { name: 'cookie', value: 'sid=abc' },
  ],
  responseHeaders: [
    { name: 'set-cookie', value: 'sid=def' },
    { name: 'x-ok', value: '1' },
  ],
  requestBody: { kind: 'json', mimeType: 'application/json', size: 12, text: '{"a":"b\'c"}' },
  responseBody: { kind: 'json', mimeType: 'application/json', size: 9, text: '{"ok":1}' },
  ...over,
});

describe('a request written out (Copy as cURL / fetch, Add to Chat)', () => {
  it('cURL: every word single-quoted, a quote escaped, a secret read from its variable, headers the stack sets left out', () => {
    const curl = toCurl(detail(), { API_TOKEN: ['http://127.0.0.1:8080'] });
    assert.strictEqual(
      curl,
      [
        `curl --globoff 'http://127.0.0.1:8080/api?q=it'\\''s'`,
        `-X 'PUT'`,
        `-H 'content-type: application/json'`,
        `-H 'authorization: Bearer '"$API_TOKEN"`,
        `-H 'cookie: sid=abc'`,
        `--data-raw '{"a":"b'\\''c"}'`,
      ].join(' \\\n  ') + '\n',
    );
  });

  it('a placeholder a page wrote itself stays text: a name that is no secret, or a secret of another site, is never read from the shell', () => {
    const body = '{"steal":"<secret>HOME</secret>","bank":"<secret>BANK_PW</secret>","x":"$(id)`id`"}';
    const curl = toCurl(
      detail({ url: 'http://evil.test/collect', requestBody: { kind: 'json', mimeType: 'application/json', size: body.length, text: body } }),
      { API_TOKEN: ['http://127.0.0.1:8080'], BANK_PW: ['https://bank.test'] },
    );
    assert.match(curl, /--data-raw '\{"steal":"<secret>HOME<\/secret>","bank":"<secret>BANK_PW<\/secret>","x":"\$\(id\)`id`"\}'\n$/);
    assert.match(curl, /-H 'authorization: Bearer <secret>API_TOKEN<\/secret>'/, "not this site's secret either");
    assert.doesNotMatch(curl, /'"\$/, 'no variable is read');
  });

  it('a method the page chose is quoted like the rest: backticks and $() run nothing', () => {
    const curl = toCurl(detail({ method: "X`touch /tmp/owned`$(id)'" }), {});
    assert.match(curl, /\n {2}-X 'X`touch \/tmp\/owned`\$\(id\)'\\' \\\n/);
  });

  it('a binary or cut body is left out and said so; a GET has no -X', () => {
    const curl = toCurl(detail({ method: 'GET', requestBody: { kind: 'binary', mimeType: 'application/octet-stream', size: 5, reason: 'Binary' } }), {});
    assert.doesNotMatch(curl, /-X|--data/);
    assert.match(
      curl,
      /\n# 'The body \(application\/octet-stream, 5 bytes\) is not text and is left out\.'\n$/,
      'one quoted word: zsh may read the line as a command',
    );
  });

  /** Every character 0x00-0xff (C0, DEL, C1, Latin-1) and U+2028/9, alone, at a word's start and end, doubled. */
  const everyCharacter = [...Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)), '\u2028', '\u2029'];
  // eslint-disable-next-line no-control-regex -- control characters are what this matches
  const NEVER_RAW = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
  const placements = (c: string) => [c, `a${c}b`, `${c}${c}z`, `x${c}`, `'${c}'`, `${c}<secret>API_TOKEN</secret>${c}`];
  const text = (body: string): RequestDetail['requestBody'] => ({ kind: 'text', mimeType: 'text/plain', size: body.length, text: body });

  it("cURL: no character 0x00-0xff or U+2028/9 in the URL, method, a header, the body or the note is ever written raw; only the copy's own line breaks are", () => {
    for (const c of everyCharacter) {
      for (const v of placements(c)) {
        for (const copy of [
          toCurl(detail({ url: `http://127.0.0.1:8080/p?q=${v}`, method: `M${v}`, requestHeaders: [{ name: 'x-page', value: v }], requestBody: text(v) }), {
            API_TOKEN: ['http://127.0.0.1:8080'],
          }),
          toCurl(detail({ requestBody: { kind: 'binary', mimeType: `x/${v}`, size: 3 } }), {}),
        ]) {
          const lines = copy.split('\n');
          assert.strictEqual(lines.pop(), '', 'the copy ends with its newline');
          lines.forEach((line, i) => {
            assert.strictEqual(line.match(NEVER_RAW), null, `${JSON.stringify(v)} written raw in ${JSON.stringify(copy)}`);
            // The copy's own newlines: a line continuation (between arguments, or in a long word), or the one before the note.
            if (i < lines.length - 1)
              assert.ok(
                line.endsWith('\\') || (i === lines.length - 2 && lines[i + 1].startsWith("# '")),
                `a newline of the page's in ${JSON.stringify(copy)}`,
              );
          });
        }
      }
    }
  });

  it("cURL: a header's control characters come from printf's octal escapes; a newline takes the next character along (a command substitution drops the newlines it ends with); NUL or a final newline, which no word holds, are left out", () => {
    const headerLine = (value: string) => toCurl(detail({ requestHeaders: [{ name: 'x', value }], requestBody: text('b') }), {}).split(' \\\n  ')[2];
    assert.strictEqual(headerLine('a\x7f\x1b[201~b'), `-H 'x: a'"$(printf '\\177\\033')"'[201~b'`);
    assert.strictEqual(headerLine('a\tb\u0085\u2028'), `-H 'x: a'"$(printf '\\t')"'b'"$(printf '\\302\\205\\342\\200\\250')"`);
    assert.strictEqual(headerLine('a\nb'), `-H 'x: a'"$(printf '\\n\\142')"`);
    assert.strictEqual(headerLine("a\n\x1b\n'c"), `-H 'x: a'"$(printf '\\n\\033\\n\\047')"'c'`);
    assert.strictEqual(headerLine('a\n'), `-H 'x: a'`);
    assert.strictEqual(headerLine('a\0b'), `-H 'x: ab'`);
  });

  it("cURL: a body with a control character comes from printf on curl's standard input, whole (NUL and final newlines too); a secret there is a %s argument, printed as it is", () => {
    const curl = toCurl(detail({ method: 'POST', requestHeaders: [], requestBody: text("a\tb'\\c%s\0\x1b<secret>API_TOKEN</secret>\n\n") }), {
      API_TOKEN: ['http://127.0.0.1:8080'],
    });
    assert.strictEqual(
      curl,
      [
        `printf '%b%s%b' 'a\\tb'\\''\\\\c%s\\0000\\0033' "$API_TOKEN" '\\n\\n'`,
        `| curl --globoff 'http://127.0.0.1:8080/api?q=it'\\''s'`,
        '--data-binary @-',
      ].join(' \\\n  ') + '\n',
    );
  });

  it('cURL: no line is 1000 bytes or longer (a terminal without a line editor drops the rest of a long line, and a quote with it): a long word is broken between quotes', () => {
    const long = `${"it's \u00e9\x1b".repeat(3000)}`;
    for (const copy of [
      toCurl(
        detail({
          url: `http://127.0.0.1:8080/${long}`,
          requestHeaders: [
            { name: 'cookie', value: long },
            { name: 'x-esc', value: '\x1b'.repeat(3000) },
            { name: 'x-newlines', value: `${'\n'.repeat(300)}z` },
          ],
          requestBody: text(`${long}\n`),
        }),
        {},
      ),
      toCurl(detail({ requestBody: text("it's ".repeat(5000)) }), {}),
    ]) {
      for (const line of copy.split('\n')) assert.ok(Buffer.byteLength(line) < 1000, `${Buffer.byteLength(line)} bytes: ${JSON.stringify(line.slice(0, 60))}`);
      assert.match(copy, /'\\\n'/, 'a long quoted run is closed, continued and reopened');
    }
  });

  it('fetch: DEL, C1 and U+2028/9, which JSON.stringify leaves raw, are \\u escapes: the same strings to JavaScript; the note stays on its comment line', () => {
    for (const c of everyCharacter) {
      const v = `a${c}b`;
      const copy = toFetch(detail({ url: `http://127.0.0.1:8080/${v}`, requestHeaders: [{ name: 'x', value: v }], requestBody: text(v) }));
      assert.strictEqual(copy.replace(/\n/g, '').match(NEVER_RAW), null, JSON.stringify(copy));
      const [, url, init] = /^await fetch\((".*?"), (\{[\s\S]*\})\);\n$/.exec(copy)!;
      assert.deepStrictEqual([JSON.parse(url), JSON.parse(init)], [`http://127.0.0.1:8080/${v}`, { method: 'PUT', headers: { x: v }, body: v }]);
      const note = toFetch(detail({ requestBody: { kind: 'binary', mimeType: `x/${v}`, size: 3 } }));
      assert.match(note, /^\/\/ The body \(x\/a.*b, 3 bytes\) is not text and is left out\.\nawait fetch\(/);
      assert.strictEqual(note.replace(/\n/g, '').match(NEVER_RAW), null, JSON.stringify(note));
    }
  });

  it('fetch: method, headers and body as JSON', () => {
    assert.match(
      toFetch(detail()),
      /^await fetch\("http:\/\/127\.0\.0\.1:8080\/api\?q=it's", \{\n {2}"method": "PUT",\n {2}"headers": \{\n {4}"content-type": "application\/json",/,
    );
  });

  it('chat: status, headers and the bodies as the child pretty-printed them, never decoded again, and never a cookie or authorization value', () => {
    const markdown = toChatMarkdown(detail({ responseBody: { kind: 'json', mimeType: 'application/json', size: 9, text: '{\n  "ok": 1\n}', pretty: true } }));
    assert.match(markdown, /^# A request from the browser panel: PUT http/);
    assert.match(markdown, /- Status: 201 Created/);
    assert.match(markdown, /- authorization: \(left out: credentials\)/);
    assert.match(markdown, /- cookie: \(left out: credentials\)/);
    assert.match(markdown, /- set-cookie: \(left out: credentials\)/);
    assert.doesNotMatch(markdown, /sid=|Bearer/);
    assert.match(markdown, /## Response body\n\n```json\n\{\n {2}"ok": 1\n\}\n```/);
    const escaped = toChatMarkdown(detail({ responseBody: { kind: 'json', mimeType: 'application/json', size: 20, text: '{"a":"p\\u00E4ss"}' } }));
    assert.match(escaped, /\{"a":"p\\u00E4ss"\}/, 'an escape stays as the child sent it (a decode here could spell a masked secret plainly)');
  });

  it('the child masks a body a server escaped, once the plain ASCII escapes are written out, and only the fields a page controls', () => {
    const text = '{"a":"\\u0068unter2x", "b":"\\\\u0068unter2x"} not json';
    const masked = maskAndCut(
      detail({ responseBody: { kind: 'json', mimeType: 'Application/JSON', size: text.length, text } }),
      value => value.replaceAll('hunter2x', '<secret>PW</secret>').replaceAll('json', '<secret>SHORT</secret>'),
      undefined,
    );
    assert.strictEqual(
      masked.responseBody.text,
      '{"a":"<secret>PW</secret>", "b":"\\\\u0068unter2x"} not <secret>SHORT</secret>',
      'an escaped backslash stays, with what follows it',
    );
    assert.strictEqual(masked.responseBody.kind, 'json', "the bridge's own fields are not masked");
    assert.strictEqual(masked.responseBody.mimeType, 'Application/JSON');
  });
});
