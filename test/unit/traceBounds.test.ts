/**
 * A trace bounded as a whole, its pure parts: the page's texts counted in total (past it, a long text keeps its
 * start), the stream read no further than its reader wants (the rest counted unparsed), and the answer's words
 * for a file cut, a page paused and a file not kept: never a file that is not there.
 */
import * as assert from 'assert';
import { gzipSync } from 'zlib';
import type { CDPSession } from 'playwright';
import { TraceCut } from '../../src/child/devtools/traceCut';
import { readTraceStream } from '../../src/child/devtools/traceStream';
import { traceText } from '../../src/core/pipeline/tools/devtoolsWords';
import { NO_EMULATION, type TraceFacts } from '../../src/protocol/devtoolsFacts';

describe('a trace bounded as a whole', () => {
  it("counts the page's long texts in total: past 8 M characters each keeps its first 64, and every cut is counted", () => {
    const cut = new TraceCut(text => text);
    const mark = (i: number) =>
      cut.event({ cat: 'blink.user_timing', name: `m${i}-${'x'.repeat(3988)}`, ph: 'I', args: { data: { detail: 'y'.repeat(3988), frame: 'F'.repeat(32) } } });
    const early = mark(0);
    assert.strictEqual(String(early.name).length, 3991, 'kept whole under the total');
    for (let i = 1; i < 2200; i++) mark(i);
    const late = mark(2200);
    assert.match(String(late.name), /^m2200-x{58}… \[cut: 3994 characters\]$/);
    assert.strictEqual((late.args as { data: { frame: string } }).data.frame, 'F'.repeat(32), 'a short text is never cut');
    assert.ok(cut.textsCut > 0 && cut.textsCut < 2 * 2201, `${cut.textsCut} texts cut`);
    assert.ok(cut.charsCut > cut.textsCut * 3800, 'and the characters they lost are counted');
  });

  it('reads the stream no further than its reader wants: the lines after are counted, never parsed', async () => {
    const lines = ['{"traceEvents":[', ...Array.from({ length: 10 }, (_, i) => `{"name":"e${i}","ph":"I"},`), '{"name":"last","ph":"I"}],"metadata":', '{}}'];
    const gzip = gzipSync(Buffer.from(lines.join('\n')));
    let sent = false;
    const cdp = {
      send: (method: string) => {
        if (method === 'IO.close') return Promise.resolve({});
        const first = !sent;
        sent = true;
        return Promise.resolve({ data: first ? gzip.toString('base64') : '', base64Encoded: true, eof: true });
      },
    } as unknown as CDPSession;
    const kept: string[] = [];
    let skipped = 0;
    await readTraceStream(
      cdp,
      '1',
      (event, chars) => {
        assert.ok(chars > 10);
        kept.push(String(event.name));
      },
      { wants: () => kept.length < 3, skipped: () => skipped++ },
    );
    assert.deepStrictEqual([kept, skipped], [['e0', 'e1', 'e2'], 8]);
  });

  it('says what was cut of a file, that a page was paused, and why there is no file instead of naming one', () => {
    const facts: TraceFacts = {
      url: 'http://x/',
      during: 'reload',
      actionMs: 5,
      emulation: NO_EMULATION,
      cls: { value: 0, rating: 'good', culprits: [] },
      insights: [],
    };
    const cut = traceText({ ...facts, file: 'trace-1.json', cut: { textsCut: 12, eventsLeftOut: 1, limitBytes: 50 * 1024 * 1024 }, pausedScriptsMs: 6400 });
    assert.match(cut, /its scripts were paused for 6\.4 s until it did, so its timers that fell due meanwhile did not run/);
    assert.match(
      cut,
      /The trace is in the output folder as trace-1\.json: .*12 long texts the page wrote were cut short and 1 event was left out to keep it bounded \(within 50 MB, under the output folder's budget\); its metadata says so/,
    );
    assert.doesNotMatch(cut, /whole trace/);
    const none = traceText({ ...facts, noFile: { why: 'budget', limitBytes: 1024 * 1024 } });
    assert.match(none, /No trace file was kept: not one of its events fits in 1 MB, the output folder's budget/);
    assert.match(traceText({ ...facts, noFile: { why: 'write', detail: 'ENOSPC: no space left on device' } }), /No trace file was written: ENOSPC/);
    for (const text of [none]) assert.doesNotMatch(text, /output folder as/);
  });
});
