/**
 * The live picture's pacing (src/child/observer/framePacer.ts): at most one frame per gap, and the last frame of
 * a burst or of a busy moment always goes (a page that paints once and then stands still is shown as it is).
 * Also the bench's stall count (test/support/pictureStalls.ts), which reads pictures against the page's paints.
 */
import * as assert from 'assert';
import { FramePacer } from '../../src/child/observer/framePacer';
import { pictureLags } from '../support/pictureStalls';

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe('FramePacer', () => {
  it('sends the first frame at once and the newest of a burst once the gap has passed, never an older one', async () => {
    const sent: string[] = [];
    const pacer = new FramePacer<string>(
      60,
      () => false,
      frame => sent.push(frame),
    );
    pacer.offer('a');
    pacer.offer('b');
    pacer.offer('c');
    assert.deepStrictEqual(sent, ['a'], 'only the first went at once');
    await sleep(120);
    assert.deepStrictEqual(sent, ['a', 'c'], 'the last of the burst went after the gap; b was replaced by c');
    pacer.stop();
  });

  it('holds a frame while the channel is backed up and sends it when the channel clears (a dropped frame froze the picture)', async () => {
    let busy = true;
    const sent: string[] = [];
    const pacer = new FramePacer<string>(
      10,
      () => busy,
      frame => sent.push(frame),
      10,
    );
    pacer.offer('the page drawn once');
    await sleep(60);
    assert.deepStrictEqual(sent, [], 'nothing goes while backed up');
    busy = false;
    await sleep(60);
    assert.deepStrictEqual(sent, ['the page drawn once']);
    pacer.stop();
  });

  it('sends nothing once stopped, not even a frame it held', async () => {
    const sent: string[] = [];
    const pacer = new FramePacer<string>(
      50,
      () => false,
      frame => sent.push(frame),
    );
    pacer.offer('a');
    pacer.offer('b');
    pacer.stop();
    pacer.offer('c');
    await sleep(100);
    assert.deepStrictEqual(sent, ['a']);
  });
});

describe('the picture stall count', () => {
  const colors = { grey: [128, 128, 128], red: [255, 0, 0], green: [0, 192, 0] };
  it('counts a state the picture never showed when it lasted over 2 s, and not a short one it skipped', () => {
    const paints = [
      { color: 'grey', at: 1000 },
      { color: 'red', at: 1500 },
      { color: 'green', at: 5000 },
    ];
    const samples = [{ at: 5100, rgb: [10, 180, 20] }];
    const { lags, stalls } = pictureLags(paints, samples, colors, 9000);
    assert.deepStrictEqual(
      lags.map(lag => lag.lagMs),
      [null, null, 100],
    );
    assert.strictEqual(stalls, 1, 'red lasted 3.5 s unseen; grey lasted 0.5 s');
  });

  it('counts a state shown over 2 s late', () => {
    const { stalls } = pictureLags([{ color: 'red', at: 0 }], [{ at: 2500, rgb: [240, 20, 10] }], colors, 6000);
    assert.strictEqual(stalls, 1);
  });
});
