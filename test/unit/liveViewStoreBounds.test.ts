import * as assert from 'assert';
import { DEFAULT_LIVE_VIEW_LIMITS, LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { fakeLiveViewSource } from '../support/liveViewSource';

const source = () => fakeLiveViewSource();

describe('what the host keeps for the panel is bounded in bytes', () => {
  it('stays under its byte bounds however long the rows are: console, requests, calls with thumbnails, one frame', () => {
    const { events, observations, calls } = source();
    const store = new LiveViewStore(events, () => 'Chromium');
    const long = 'x'.repeat(8000);
    const thumbnail = `data:image/jpeg;base64,${'A'.repeat(12000)}`;
    for (let i = 0; i < 5000; i++) {
      observations.fire({ kind: 'console', entry: { level: 'info', text: `${i} ${long}`, pageId: 'p', time: i } });
      observations.fire({
        kind: 'network',
        entry: { id: `r${i}`, method: 'GET', url: `http://127.0.0.1/${long.slice(0, 2000)}`, resourceType: 'fetch', status: 200, pageId: 'p', time: i },
      });
      calls.fire({ id: i, name: 'browser_take_screenshot', args: {}, door: 'tool', title: 'Screenshot', startedAt: i });
      calls.fire({
        id: i,
        name: 'browser_take_screenshot',
        args: {},
        door: 'tool',
        title: 'Screenshot',
        startedAt: i,
        durationMs: 5,
        outcome: 'ok',
        thumbnail,
      });
      observations.fire({
        kind: 'frame',
        frame: { pageId: 'p', data: 'B'.repeat(60000), width: 640, height: 360, timestamp: i, source: 'screencast' } as never,
      });
    }
    const bound = DEFAULT_LIVE_VIEW_LIMITS.consoleBytes + DEFAULT_LIVE_VIEW_LIMITS.networkBytes + DEFAULT_LIVE_VIEW_LIMITS.activityBytes + 200_000;
    assert.ok(store.keptBytes <= bound, `${store.keptBytes} bytes kept, bound ${bound}`);
    assert.ok(store.keptBytes > DEFAULT_LIVE_VIEW_LIMITS.consoleBytes, 'it does keep what fits');
    store.dispose();
  });
});
