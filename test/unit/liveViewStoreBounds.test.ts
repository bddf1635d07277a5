import * as assert from 'assert';
import { Emitter } from '../../src/core/emitter';
import { DEFAULT_LIVE_VIEW_LIMITS, LiveViewSource, LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { ObservationEvent } from '../../src/protocol/childMessages';
import { ToolCallRecord } from '../../src/core/supervision/supervisor';
import { healthOf, type HostHealth } from '../../src/core/supervision/browserHealth';

/** The supervisor's events, fired by the test: the unit here is what the store keeps. */
function source() {
  const observations = new Emitter<ObservationEvent>();
  const calls = new Emitter<ToolCallRecord>();
  const events: LiveViewSource = {
    health: healthOf({ state: 'ready', generation: 1 }, undefined),
    onDidChangeHealth: new Emitter<HostHealth>().event,
    onObservation: observations.event,
    onToolCall: calls.event,
    personHasControl: false,
    tabs: [],
    onDidChangeControl: new Emitter<boolean>().event,
    wantThumbnails: () => ({ dispose: () => undefined }),
  };
  return { events, observations, calls };
}

describe('what the host keeps for the panel is bounded in bytes', () => {
  it('stays under its byte bounds however long the rows are: console, requests, calls with thumbnails, one frame', () => {
    const { events, observations, calls } = source();
    const store = new LiveViewStore(events, () => 'Chromium');
    const long = 'x'.repeat(8000);
    const thumbnail = `data:image/jpeg;base64,${'A'.repeat(12000)}`;
    for (let i = 0; i < 5000; i++) {
      observations.fire({ kind: 'console', entry: { level: 'info', text: `${i} ${long}`, pageId: 'p', time: i } });
      observations.fire({ kind: 'network', entry: { id: `r${i}`, method: 'GET', url: `http://127.0.0.1/${long.slice(0, 2000)}`, resourceType: 'fetch', status: 200, pageId: 'p', time: i } });
      calls.fire({ id: i, name: 'browser_take_screenshot', args: {}, door: 'tool', title: 'Screenshot', startedAt: i });
      calls.fire({ id: i, name: 'browser_take_screenshot', args: {}, door: 'tool', title: 'Screenshot', startedAt: i, durationMs: 5, outcome: 'ok', thumbnail });
      observations.fire({ kind: 'frame', frame: { pageId: 'p', data: 'B'.repeat(60000), width: 640, height: 360, timestamp: i, source: 'screencast' } as never });
    }
    const bound = DEFAULT_LIVE_VIEW_LIMITS.consoleBytes + DEFAULT_LIVE_VIEW_LIMITS.networkBytes + DEFAULT_LIVE_VIEW_LIMITS.activityBytes + 200_000;
    assert.ok(store.keptBytes <= bound, `${store.keptBytes} bytes kept, bound ${bound}`);
    assert.ok(store.keptBytes > DEFAULT_LIVE_VIEW_LIMITS.consoleBytes, 'it does keep what fits');
    store.dispose();
  });
});
