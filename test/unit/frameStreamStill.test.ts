/**
 * The live view's still and a change of the page's size (src/child/observer/frameStream.ts): Chromium puts back
 * the size a page had when a capture began once that capture ends, so a change of size waits for a still being
 * taken, and no still begins while one runs. Chromium's stream now sends a frame as it starts, so on a real
 * browser a still is rare (a stream that brings no frame within 300 ms on a busy machine, or engines without
 * a screencast): a fake page whose capture ends when the test says lets the order be checked every time.
 */
import * as assert from 'assert';
import type { Page } from 'playwright';
import type { ObservationEvent } from '../../src/protocol/childMessages';
import { FrameStream } from '../../src/child/observer/frameStream';
import type { TabList } from '../../src/child/observer/tabList';

/** A page whose screenshots end only when `finish` is called; records when each began. */
function slowPage(events: string[]): { page: Page; finish(): void } {
  const pending: Array<() => void> = [];
  const page = {
    screenshot: () => {
      events.push('capture began');
      return new Promise<Buffer>(resolve =>
        pending.push(() => {
          events.push('capture ended');
          resolve(Buffer.from('jpeg'));
        }),
      );
    },
    viewportSize: () => ({ width: 1280, height: 720 }),
    isClosed: () => false,
    on: () => page,
  } as unknown as Page;
  return { page, finish: () => pending.splice(0).forEach(end => end()) };
}

function streamOn(page: Page, sent: ObservationEvent[]): FrameStream {
  const tabs = { currentPage: page, pageId: () => 'tab-1', send: () => undefined } as unknown as TabList;
  const stream = new FrameStream(tabs, {
    send: event => sent.push(event),
    congested: () => false,
    viewport: { width: 1280, height: 720 },
    screencast: false,
    engine: 'chromium',
    log: () => undefined,
  });
  stream.setLiveView({ enabled: true, maxWidth: 1200, maxHeight: 700 });
  return stream;
}

const tick = () => new Promise(resolve => setTimeout(resolve, 10));

describe('FrameStream: no capture across a change of size', () => {
  it('a change of size begins only once the capture being taken has ended, and the frame it made still goes out', async () => {
    const events: string[] = [];
    const sent: ObservationEvent[] = [];
    const { page, finish } = slowPage(events);
    const stream = streamOn(page, sent);
    const capture = stream.afterStateChange();
    await tick();
    const change = stream.changingSize(async () => {
      events.push('resize');
    });
    await tick();
    assert.deepStrictEqual(events, ['capture began'], 'the resize waits while the capture runs');
    finish();
    await change;
    await capture;
    assert.deepStrictEqual(events, ['capture began', 'capture ended', 'resize']);
    assert.strictEqual(sent.filter(event => event.kind === 'frame').length, 1, 'the capture was shown');
    await stream.dispose();
  });

  it('no capture begins while a change of size runs', async () => {
    const events: string[] = [];
    const { page, finish } = slowPage(events);
    const stream = streamOn(page, []);
    let resized!: () => void;
    const change = stream.changingSize(() => new Promise<void>(resolve => (resized = resolve)));
    await tick();
    await stream.afterStateChange();
    assert.deepStrictEqual(events, [], 'no capture began during the change');
    resized();
    await change;
    const capture = stream.afterStateChange();
    await tick();
    assert.deepStrictEqual(events, ['capture began'], 'once the change ended, captures come again');
    finish();
    await capture;
    await stream.dispose();
  });
});
