import * as assert from 'assert';
import { FrameGate } from '../../src/core/liveView/frameGate';
import { fitFrameSize, consoleLevelOf } from '../../src/child/observationShapes';
import { RingBuffer } from '../../src/core/liveView/ringBuffer';
import { parsePanelMessage } from '../../src/protocol/panelMessages';

describe('ring buffer', () => {
  it('keeps the newest entries, numbered, oldest dropped first', () => {
    const buffer = new RingBuffer<{ seq: number; v: number }>(3);
    for (let v = 1; v <= 5; v++) buffer.push({ v });
    assert.deepStrictEqual(buffer.toArray(), [
      { v: 3, seq: 3 },
      { v: 4, seq: 4 },
      { v: 5, seq: 5 },
    ]);
    assert.strictEqual(buffer.firstSeq, 3);
    assert.strictEqual(buffer.size, 3);
  });

  it('updates an entry in place while it is kept, and not after it was dropped', () => {
    const buffer = new RingBuffer<{ seq: number; v: string }>(2);
    const a = buffer.push({ v: 'a' });
    const b = buffer.push({ v: 'b' });
    assert.deepStrictEqual(
      buffer.update(b.seq, x => ({ ...x, v: 'B' })),
      { v: 'B', seq: 2 },
    );
    buffer.push({ v: 'c' });
    assert.strictEqual(
      buffer.update(a.seq, x => x),
      undefined,
    );
    assert.deepStrictEqual(
      buffer.toArray().map(x => x.v),
      ['B', 'c'],
    );
  });

  it('holds a few thousand entries cheaply and clears', () => {
    const buffer = new RingBuffer<{ seq: number; text: string }>(2000);
    for (let i = 0; i < 10000; i++) buffer.push({ text: `line ${i}` });
    assert.strictEqual(buffer.size, 2000);
    assert.strictEqual(buffer.toArray()[0].text, 'line 8000');
    buffer.clear();
    assert.strictEqual(buffer.size, 0);
    assert.strictEqual(buffer.push({ text: 'after' }).seq, 10001, 'numbers keep growing after a clear');
  });

  it('keeps its entries under a byte bound too: long entries push out old ones, the newest is always kept', () => {
    const buffer = new RingBuffer<{ seq: number; text: string }>(2000, 100_000);
    for (let i = 0; i < 1000; i++) buffer.push({ text: 'x'.repeat(8000) });
    assert.ok(buffer.byteSize <= 100_000, `${buffer.byteSize} bytes kept`);
    assert.strictEqual(buffer.size, 6, 'six rows of 16 KB fit in 100 KB');
    assert.strictEqual(buffer.firstSeq, 995);
    buffer.push({ text: 'y'.repeat(200_000) });
    assert.deepStrictEqual(
      buffer.toArray().map(row => row.text[0]),
      ['y'],
      'one entry over the bound is kept alone',
    );
    const small = buffer.push({ text: 'z' });
    assert.strictEqual(buffer.size, 1, 'and goes when the next one comes');
    assert.deepStrictEqual(
      buffer.update(small.seq, row => ({ ...row, text: 'z'.repeat(10) })),
      { text: 'z'.repeat(10), seq: small.seq },
    );
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new RingBuffer(0), /positive integer/);
  });
});

describe('frame backpressure', () => {
  it('never builds a queue for a slow viewer: one in flight, the newest one waiting, the rest dropped', () => {
    const delivered: number[] = [];
    const gate = new FrameGate<number>(frame => delivered.push(frame));
    for (let frame = 1; frame <= 100; frame++) gate.offer(frame);
    assert.deepStrictEqual(delivered, [1]);
    assert.deepStrictEqual(gate.stats, { sent: 1, dropped: 98, waiting: 1, inFlight: true });
    gate.ack();
    assert.deepStrictEqual(delivered, [1, 100], 'after the ack the newest frame goes, not the next oldest');
    gate.ack();
    assert.deepStrictEqual(gate.stats.inFlight, false);
    gate.offer(101);
    assert.deepStrictEqual(delivered, [1, 100, 101], 'an idle gate sends at once');
  });

  it('starts over after a reset (the viewer reloaded)', () => {
    const delivered: string[] = [];
    const gate = new FrameGate<string>(frame => delivered.push(frame));
    gate.offer('a');
    gate.offer('b');
    gate.reset();
    gate.offer('c');
    assert.deepStrictEqual(delivered, ['a', 'c']);
  });
});

describe('panel protocol', () => {
  it("accepts the webview's well-formed messages", () => {
    assert.deepStrictEqual(parsePanelMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepStrictEqual(parsePanelMessage({ type: 'frameDrawn', seq: 4 }), { type: 'frameDrawn', seq: 4 });
    assert.deepStrictEqual(parsePanelMessage({ type: 'resize', width: 300, height: 200, devicePixelRatio: 2, extra: 1 }), {
      type: 'resize',
      width: 300,
      height: 200,
      devicePixelRatio: 2,
    });
    assert.deepStrictEqual(parsePanelMessage({ type: 'command', command: 'restart' }), { type: 'command', command: 'restart' });
  });

  it('drops anything else', () => {
    for (const bad of [
      null,
      'ready',
      { type: 'command', command: 'rm -rf' },
      { type: 'resize', width: -1, height: 2, devicePixelRatio: 1 },
      { type: 'resize', width: NaN, height: 2, devicePixelRatio: 1 },
      { type: 'frameDrawn' },
      { type: 'eval', code: 'x' },
    ]) {
      assert.strictEqual(parsePanelMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('live view sizing', () => {
  it('fits the page into the panel with its aspect ratio, never upscaling', () => {
    assert.deepStrictEqual(fitFrameSize({ width: 1280, height: 720 }, { maxWidth: 640, maxHeight: 640 }), { width: 640, height: 360 });
    assert.deepStrictEqual(fitFrameSize({ width: 1280, height: 720 }, { maxWidth: 4000, maxHeight: 300 }), { width: 533, height: 300 });
    assert.deepStrictEqual(fitFrameSize({ width: 1280, height: 720 }, { maxWidth: 5000, maxHeight: 5000 }), { width: 1280, height: 720 });
  });

  it("maps console message types to the panel's levels", () => {
    assert.deepStrictEqual(['error', 'assert', 'warning', 'log', 'info', 'debug', 'trace', 'table'].map(consoleLevelOf), [
      'error',
      'error',
      'warning',
      'info',
      'info',
      'debug',
      'debug',
      'info',
    ]);
  });
});
