/**
 * The bodies Preserve log keeps stay bounded before a byte is read: a body whose decoded size the browser did not
 * count, or counted past the limit, is never read (a small compressed image can decode to hundreds of MB); reads
 * go one at a time; the oldest go once all pass their total; a redirect keeps none; a request that left the list
 * keeps nothing; turning Preserve log off, or on again (Clear), lets go of them all.
 */
import * as assert from 'assert';
import type { Response } from 'playwright';
import { KeptBodies } from '../../src/child/observer/keptBodies';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { fakeLiveViewSource } from '../support/liveViewSource';

describe('bodies kept while Preserve log is on', () => {
  /** Responses as KeptBodies reads them: a status and a body (the unit is the keeping, not the browser); `read` counts body() calls. */
  let read = 0;
  let reading = 0;
  let mostAtOnce = 0;
  const response = (bytes: number, status = 200) =>
    ({
      status: () => status,
      body: async () => {
        read++;
        mostAtOnce = Math.max(mostAtOnce, ++reading);
        await new Promise(resolve => setTimeout(resolve, 1));
        reading--;
        return Buffer.alloc(bytes, 'a');
      },
    }) as unknown as Response;
  const listed = () => true;
  beforeEach(() => {
    read = 0;
    reading = 0;
    mostAtOnce = 0;
  });

  it('keeps nothing while off, and within its limits while on, reading one at a time', async () => {
    const kept = new KeptBodies({ perBody: 100, total: 240, waiting: 10 });
    await kept.keep('r1', response(50), 50, listed);
    assert.strictEqual(kept.get('r1'), undefined, 'off: nothing kept');
    kept.setOn(true);
    await Promise.all([
      kept.keep('r1', response(50), 50, listed),
      kept.keep('r2', response(90, 302), 90, listed),
      kept.keep('r4', response(100), 100, listed),
      kept.keep('r5', response(100), 100, listed),
    ]);
    assert.strictEqual(mostAtOnce, 1, 'one read at a time');
    assert.strictEqual(kept.get('r2'), undefined, 'a redirect has no body');
    assert.strictEqual(kept.get('r1'), undefined, 'the oldest went once all passed the total');
    assert.strictEqual(kept.keptBytes, 200);
    kept.forget('r4');
    assert.strictEqual(kept.keptBytes, 100);
    kept.setOn(true);
    assert.strictEqual(kept.keptBytes, 0, 'on again (a Clear) keeps from now');
    await kept.keep('r6', response(10), 10, listed);
    kept.setOn(false);
    assert.strictEqual(kept.keptBytes, 0, 'off lets go of all');
  });

  it('never reads a body whose decoded size is unknown or past the limit, and keeps none for a request no longer listed', async () => {
    const kept = new KeptBodies({ perBody: 100, total: 1000, waiting: 10 });
    kept.setOn(true);
    await kept.keep('bomb', response(100_000_000), 100_000_000, listed);
    await kept.keep('unknown', response(10), undefined, listed);
    assert.strictEqual(read, 0, 'neither was read');
    await kept.keep('gone', response(10), 10, () => false);
    assert.strictEqual(kept.get('gone'), undefined);
    assert.strictEqual(kept.keptBytes, 0);
  });

  it('lets at most so many reads wait their turn', async () => {
    const kept = new KeptBodies({ perBody: 100, total: 1000, waiting: 2 });
    kept.setOn(true);
    await Promise.all(['a', 'b', 'c', 'd'].map(id => kept.keep(id, response(10), 10, listed)));
    assert.strictEqual(read, 2);
  });

  it("is told by the panel's Preserve log, and again by Clear while it is on", () => {
    const source = fakeLiveViewSource();
    const store = new LiveViewStore(source.events, () => 'Chromium');
    store.setPreserveLog(true);
    store.clearNetwork();
    store.setPreserveLog(false);
    store.clearNetwork();
    assert.deepStrictEqual(source.preserveNetworkLog, [true, true, false]);
    store.dispose();
  });
});
