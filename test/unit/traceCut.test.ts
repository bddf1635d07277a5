/** What a trace keeps of a page's own text: long texts cut (masked first), scripts' sources kept whole within their budget. */
import * as assert from 'assert';
import { TraceCut } from '../../src/child/devtools/traceCut';

const SOURCES = 'disabled-by-default-devtools.v8-source-rundown-sources';

describe("a trace's cut of a page's text", () => {
  it('cuts a long mark name and detail, saying how long they were, and leaves short texts and numbers alone', () => {
    const cut = new TraceCut(text => text);
    const name = `flood-1-${'m'.repeat(1024 * 1024)}`;
    const event = cut.event({
      cat: 'blink.user_timing',
      name,
      ph: 'I',
      ts: 5,
      args: { data: { detail: 'd'.repeat(50000), startTime: 1.5, navigationId: 'N1' } },
    });
    assert.ok(String(event.name).startsWith('flood-1-mmm') && String(event.name).length < 5000, 'the name is cut');
    assert.match(String(event.name), new RegExp(`\\[cut: ${name.length} characters\\]$`));
    const data = (event.args as { data: Record<string, unknown> }).data;
    assert.ok(String(data.detail).length < 5000);
    assert.deepStrictEqual([event.ts, data.startTime, data.navigationId], [5, 1.5, 'N1']);
  });

  it('masks a text before it cuts it: a secret across the cut leaves no part of itself', () => {
    const secret = 'S3cret-across-the-cut';
    const cut = new TraceCut(text => text.split(secret).join('<secret>T</secret>'));
    const event = cut.event({ cat: 'blink.user_timing', name: `${'x'.repeat(4090)}${secret}${'y'.repeat(9000)}`, ph: 'I' });
    assert.ok(!String(event.name).includes('S3cret'), String(event.name).slice(4080, 4120));
  });

  it("keeps scripts' sources whole within their budget, other long texts of those events cut", () => {
    const cut = new TraceCut(text => text);
    const source = 'var a = 1;\n'.repeat(100000);
    const event = cut.event({ cat: SOURCES, name: 'ScriptCatchup', ph: 'I', args: { data: { sourceText: source, url: `http://x/${'u'.repeat(10000)}` } } });
    const data = (event.args as { data: { sourceText: string; url: string } }).data;
    assert.strictEqual(data.sourceText, source);
    assert.ok(data.url.length < 5000);
    // Past 32 MB of sources in one trace, a source is cut as any text.
    for (let i = 0; i < 40; i++) cut.event({ cat: SOURCES, name: 'ScriptCatchup', ph: 'I', args: { data: { sourceText: source } } });
    const late = cut.event({ cat: SOURCES, name: 'ScriptCatchup', ph: 'I', args: { data: { sourceText: source } } });
    assert.ok((late.args as { data: { sourceText: string } }).data.sourceText.length < 5000);
  });
});
