/**
 * A body read for details asked ahead of a click is the read the click takes: one read from the browser, not
 * two. A failed read is not held, so the ask after it reads again; a body past the limit is not held once read;
 * the oldest reads go past the few held, and one whose request left the list goes.
 */
import * as assert from 'assert';
import type { Request, Response } from 'playwright';
import { BodyReads } from '../../src/child/observer/bodyReads';

describe('bodies read ahead of a request opened', () => {
  /** Responses as BodyReads reads them: a status and a body (the unit is the sharing, not the browser); each counts its reads. */
  let reading = 0;
  let mostAtOnce = 0;
  function fake(bytes: number, options: { fails?: boolean } = {}) {
    const made = { reads: 0, request: {} as Request, response: undefined as unknown as Response };
    made.response = {
      body: async () => {
        made.reads++;
        mostAtOnce = Math.max(mostAtOnce, ++reading);
        await new Promise(resolve => setTimeout(resolve, 5));
        reading--;
        if (options.fails) throw new Error('No resource with given identifier found');
        return Buffer.alloc(bytes, 'a');
      },
    } as unknown as Response;
    return made;
  }
  beforeEach(() => {
    reading = 0;
    mostAtOnce = 0;
  });

  it('an ask takes the read under way or held: one read from the browser, not two', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const pointed = fake(60);
    // Asked ahead, then clicked while the read runs: the click waits for that read.
    const [first, second] = await Promise.all([reads.read(pointed.request, pointed.response), reads.read(pointed.request, pointed.response)]);
    assert.strictEqual(first.length, 60);
    assert.strictEqual(second, first);
    // "Show more" on the same request reads nothing again.
    await reads.read(pointed.request, pointed.response);
    assert.strictEqual(pointed.reads, 1);
    assert.strictEqual(mostAtOnce, 1);
  });

  it('holds no body past the limit once read, and no failed read: the next ask reads again and says what the browser said', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const large = fake(500);
    assert.strictEqual((await reads.read(large.request, large.response)).length, 500);
    assert.strictEqual(reads.held, 0);
    await reads.read(large.request, large.response);
    assert.strictEqual(large.reads, 2);
    const gone = fake(10, { fails: true });
    await assert.rejects(reads.read(gone.request, gone.response), /No resource with given identifier/);
    assert.strictEqual(reads.held, 0);
    await assert.rejects(reads.read(gone.request, gone.response), /No resource with given identifier/);
    assert.strictEqual(gone.reads, 2);
  });

  it('holds the last few reads; an older one and one that left the list are read again', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 2 });
    const [a, b, c] = [fake(10), fake(10), fake(10)];
    for (const row of [a, b, c]) await reads.read(row.request, row.response);
    assert.strictEqual(reads.held, 2);
    await reads.read(a.request, a.response);
    assert.strictEqual(a.reads, 2, 'the oldest went');
    reads.forget(c.request);
    await reads.read(c.request, c.response);
    assert.strictEqual(c.reads, 2, 'forgotten when its request left the list');
    await reads.read(a.request, a.response);
    assert.strictEqual(a.reads, 2, 'the one just opened is held');
  });
});
