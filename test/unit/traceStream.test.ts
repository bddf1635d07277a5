/** A trace read from the browser's gzip stream: one event a line, the framing and the metadata left out, an overlong line skipped. */
import * as assert from 'assert';
import { gzipSync } from 'zlib';
import type { CDPSession } from 'playwright';
import { readTraceStream } from '../../src/child/devtools/traceStream';
import type { TraceEvent } from '../../src/child/devtools/traceRecorder';

/** A CDP session that serves one stream as the browser does: base64 chunks of the gzip, then eof; closes recorded. */
function streamSession(text: string, chunkBytes = 7): { cdp: CDPSession; closed: string[] } {
  const gzip = gzipSync(Buffer.from(text, 'utf8'));
  let at = 0;
  const closed: string[] = [];
  const send = (method: string, params: { handle: string }) => {
    if (method === 'IO.close') {
      closed.push(params.handle);
      return Promise.resolve({});
    }
    const chunk = gzip.subarray(at, at + chunkBytes);
    at += chunk.length;
    return Promise.resolve({ data: chunk.toString('base64'), base64Encoded: true, eof: at >= gzip.length });
  };
  return { cdp: { send } as unknown as CDPSession, closed };
}

async function read(text: string): Promise<{ events: TraceEvent[]; closed: string[] }> {
  const { cdp, closed } = streamSession(text);
  const events: TraceEvent[] = [];
  await readTraceStream(cdp, '7', event => events.push(event));
  return { events, closed };
}

describe("a trace read from the browser's stream", () => {
  it("gives each event of Chromium's JSON, one a line, leaving out the framing and the metadata; the stream is closed", async () => {
    const { events, closed } = await read(
      [
        '{"traceEvents":[',
        '{"name":"a","ph":"I","args":{"data":{"text":"line\\nbreak é"}}},',
        '{"name":"b","ph":"X"},',
        '{"name":"c","ph":"e"}],"metadata":',
        '{"user-agent":"x","command_line":"y"}}',
      ].join('\n'),
    );
    assert.deepStrictEqual(
      events.map(event => event.name),
      ['a', 'b', 'c'],
    );
    assert.strictEqual((events[0].args as { data: { text: string } }).data.text, 'line\nbreak é');
    assert.deepStrictEqual(closed, ['7']);
  });

  it('skips a line past its bound unread and goes on with the next', async () => {
    const { events } = await read(`{"traceEvents":[\n{"name":"${'m'.repeat(17 * 1024 * 1024)}"},\n{"name":"after"}],"metadata":\n{}}`);
    assert.deepStrictEqual(
      events.map(event => event.name),
      ['after'],
    );
  });
});
