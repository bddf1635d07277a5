/**
 * The bodies Preserve log keeps stay bounded: one past its limit is not kept, the oldest go once all pass
 * theirs, a redirect keeps none, and turning Preserve log off lets go of them all.
 */
import * as assert from 'assert';
import type { Response } from 'playwright';
import { KeptBodies } from '../../src/child/observer/keptBodies';
import { LiveViewStore } from '../../src/core/liveView/liveViewStore';
import { fakeLiveViewSource } from '../support/liveViewSource';

/** A response as KeptBodies reads it: a status and a body (the unit is the keeping, not the browser). */
const response = (bytes: number, status = 200) => ({ status: () => status, body: async () => Buffer.alloc(bytes, 'a') }) as unknown as Response;

describe('bodies kept while Preserve log is on', () => {
  it('keeps nothing while off, and within its limits while on', async () => {
    const kept = new KeptBodies({ perBody: 100, total: 240 });
    await kept.keep('r1', response(50));
    assert.strictEqual(kept.get('r1'), undefined, 'off: nothing kept');
    kept.setOn(true);
    await kept.keep('r1', response(50));
    await kept.keep('r2', response(101));
    await kept.keep('r3', response(90, 302));
    assert.strictEqual(kept.get('r1')?.length, 50);
    assert.strictEqual(kept.get('r2'), undefined, 'past the body limit');
    assert.strictEqual(kept.get('r3'), undefined, 'a redirect has no body');
    await kept.keep('r4', response(100));
    await kept.keep('r5', response(100));
    assert.strictEqual(kept.get('r1'), undefined, 'the oldest went once all passed the total');
    assert.strictEqual(kept.keptBytes, 200);
    kept.forget('r4');
    assert.strictEqual(kept.keptBytes, 100);
    kept.setOn(false);
    assert.strictEqual(kept.keptBytes, 0, 'off lets go of all');
  });

  it("is told by the panel's Preserve log", () => {
    const source = fakeLiveViewSource();
    const store = new LiveViewStore(source.events, () => 'Chromium');
    store.setPreserveLog(true);
    store.setPreserveLog(false);
    assert.deepStrictEqual(source.preserveNetworkLog, [true, false]);
    store.dispose();
  });
});
