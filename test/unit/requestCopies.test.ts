/** A request written out for the person: cURL with shell-safe quoting and secrets from the environment, fetch, and chat's Markdown without credentials. */
import * as assert from 'assert';
import { toChatMarkdown, toCurl, toFetch } from '../../src/core/liveView/requestCopies';
import { maskAndCut } from '../../src/child/requestDetail';
import type { RequestDetail } from '../../src/protocol/childMessages';

const detail = (over: Partial<RequestDetail> = {}): RequestDetail => ({
  id: 'r1', url: 'http://127.0.0.1:8080/api?q=it\'s', method: 'PUT', resourceType: 'fetch', status: 201, statusText: 'Created', timing: [],
  requestHeaders: [
    { name: 'content-type', value: 'application/json' }, { name: 'authorization', value: 'Bearer <secret>API_TOKEN</secret>' },
    { name: 'content-length', value: '12' }, { name: 'accept-encoding', value: 'gzip' }, { name: 'cookie', value: 'sid=abc' },
  ],
  responseHeaders: [{ name: 'set-cookie', value: 'sid=def' }, { name: 'x-ok', value: '1' }],
  requestBody: { kind: 'json', mimeType: 'application/json', size: 12, text: '{"a":"b\'c"}' },
  responseBody: { kind: 'json', mimeType: 'application/json', size: 9, text: '{"ok":1}' },
  ...over,
});

describe('a request written out (Copy as cURL / fetch, Add to Chat)', () => {
  it('cURL: every word single-quoted, a quote escaped, a secret read from its variable, headers the stack sets left out', () => {
    const curl = toCurl(detail(), { API_TOKEN: ['http://127.0.0.1:8080'] });
    assert.strictEqual(curl, [
      `curl --globoff 'http://127.0.0.1:8080/api?q=it'\\''s'`,
      `-X 'PUT'`,
      `-H 'content-type: application/json'`,
      `-H 'authorization: Bearer '"$API_TOKEN"`,
      `-H 'cookie: sid=abc'`,
      `--data-raw '{"a":"b'\\''c"}'`,
    ].join(' \\\n  ') + '\n');
  });

  it('a placeholder a page wrote itself stays text: a name that is no secret, or a secret of another site, is never read from the shell', () => {
    const body = '{"steal":"<secret>HOME</secret>","bank":"<secret>BANK_PW</secret>","x":"$(id)`id`"}';
    const curl = toCurl(detail({ url: 'http://evil.test/collect', requestBody: { kind: 'json', mimeType: 'application/json', size: body.length, text: body } }),
      { API_TOKEN: ['http://127.0.0.1:8080'], BANK_PW: ['https://bank.test'] });
    assert.match(curl, /--data-raw '\{"steal":"<secret>HOME<\/secret>","bank":"<secret>BANK_PW<\/secret>","x":"\$\(id\)`id`"\}'\n$/);
    assert.match(curl, /-H 'authorization: Bearer <secret>API_TOKEN<\/secret>'/, 'not this site\'s secret either');
    assert.doesNotMatch(curl, /'"\$/, 'no variable is read');
  });

  it('a method the page chose is quoted like the rest: backticks and $() run nothing', () => {
    const curl = toCurl(detail({ method: "X`touch /tmp/owned`$(id)'" }), {});
    assert.match(curl, /\n {2}-X 'X`touch \/tmp\/owned`\$\(id\)'\\' \\\n/);
  });

  it('a binary or cut body is left out and said so; a GET has no -X', () => {
    const curl = toCurl(detail({ method: 'GET', requestBody: { kind: 'binary', mimeType: 'application/octet-stream', size: 5, reason: 'Binary' } }), {});
    assert.doesNotMatch(curl, /-X|--data/);
    assert.match(curl, /\n# The body \(application\/octet-stream, 5 bytes\) is not text and is left out\.\n$/);
  });

  it('fetch: method, headers and body as JSON', () => {
    assert.match(toFetch(detail()), /^await fetch\("http:\/\/127\.0\.0\.1:8080\/api\?q=it's", \{\n {2}"method": "PUT",\n {2}"headers": \{\n {4}"content-type": "application\/json",/);
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
    const masked = maskAndCut(detail({ responseBody: { kind: 'json', mimeType: 'Application/JSON', size: text.length, text } }),
      value => value.replaceAll('hunter2x', '<secret>PW</secret>').replaceAll('json', '<secret>SHORT</secret>'), undefined);
    assert.strictEqual(masked.responseBody.text, '{"a":"<secret>PW</secret>", "b":"\\\\u0068unter2x"} not <secret>SHORT</secret>', 'an escaped backslash stays, with what follows it');
    assert.strictEqual(masked.responseBody.kind, 'json', 'the bridge\'s own fields are not masked');
    assert.strictEqual(masked.responseBody.mimeType, 'Application/JSON');
  });
});
