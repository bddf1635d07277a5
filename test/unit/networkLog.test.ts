/** The Network list as the host keeps it: Clear, and Preserve log (off: the page's own navigation starts a new list, with a line). */
import * as assert from 'assert';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import type { NetworkEntry } from '../../src/protocol/childMessages';
import { isMarker } from '../../src/protocol/panelRows';
import { fakeLiveViewSource } from '../support/liveViewSource';

describe('the Network list: Clear and Preserve log', () => {
  const make = () => {
    const { events, observations } = fakeLiveViewSource();
    const store = new LiveViewStore(events, () => 'Chromium');
    const request = (id: string, url: string, more: Partial<NetworkEntry> = {}) =>
      observations.fire({
        kind: 'network',
        entry: { id, method: 'GET', url, resourceType: more.navigation ? 'document' : 'fetch', status: 0, pageId: 'p', time: 1, ...more },
      });
    const listed = () => store.snapshot().network.map(row => (isMarker(row) ? `— ${row.marker}` : row.url));
    return { store, request, listed };
  };

  it("without Preserve log, the page's navigation starts the list again with a line; a late answer of the old page is not listed again", () => {
    const { store, request, listed } = make();
    request('a', 'http://site/one', { navigation: true });
    request('b', 'http://site/one.js');
    request('c', 'http://site/two', { navigation: true });
    assert.deepStrictEqual(listed(), ['— Navigated to http://site/two', 'http://site/two']);
    request('b', 'http://site/one.js', { status: 200, durationMs: 5 });
    assert.deepStrictEqual(listed(), ['— Navigated to http://site/two', 'http://site/two'], "the old page's request stays gone");
    store.dispose();
  });

  it("with Preserve log, the list keeps every page's requests, a line between them; Clear empties it whatever", () => {
    const { store, request, listed } = make();
    store.setPreserveLog(true);
    assert.strictEqual(store.state().network.preserveLog, true, 'the panel shows it on');
    request('a', 'http://site/one', { navigation: true });
    request('b', 'http://site/one.js');
    request('c', 'http://site/two', { navigation: true });
    assert.deepStrictEqual(listed(), [
      '— Navigated to http://site/one',
      'http://site/one',
      'http://site/one.js',
      '— Navigated to http://site/two',
      'http://site/two',
    ]);
    store.clearNetwork();
    assert.deepStrictEqual(listed(), ['— Network log cleared']);
    request('d', 'http://site/three.js');
    assert.deepStrictEqual(listed(), ['— Network log cleared', 'http://site/three.js']);
    store.dispose();
  });
});
