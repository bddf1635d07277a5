/**
 * A body read ahead when the person points at a request is the read the open takes: one read from the browser,
 * not two. Bounded before a byte is read, as kept bodies are: a body whose decoded size is unknown or past the
 * limit is not read ahead, nor a redirect's; one warm read runs at a time and only the latest waits (a pointer
 * sweeping over forty rows reads two); a failed read is not held, so the open after it reads again; a body past
 * the limit that an open read is not held after it; the oldest reads go past the few held.
 */
import * as assert from 'assert';
import type { Request, Response } from 'playwright';
import { BodyReads } from '../../src/child/observer/bodyReads';

describe('bodies read ahead of a request opened', () => {
  /** Responses as BodyReads reads them: a status and a body (the unit is the sharing, not the browser); each counts its reads. */
  let reading = 0;
  let mostAtOnce = 0;
  function fake(bytes: number, options: { status?: number; fails?: boolean } = {}) {
    const made = { reads: 0, request: {} as Request, response: undefined as unknown as Response };
    made.response = {
      status: () => options.status ?? 200,
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

  it('the open takes the read the pointer started, finished or still under way', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const pointed = fake(60);
    const warmed = reads.warm(pointed.request, pointed.response, 60);
    // The click comes while the read runs: it waits for that read, and makes none of its own.
    const opened = await reads.read(pointed.request, pointed.response);
    await warmed;
    assert.strictEqual(opened.length, 60);
    assert.strictEqual(pointed.reads, 1);
    // "Show more" on the same request reads nothing again.
    assert.strictEqual((await reads.read(pointed.request, pointed.response)).length, 60);
    assert.strictEqual(pointed.reads, 1);
  });

  it('reads nothing ahead that is unbounded, too large or a redirect, and the open still reads it', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const unknown = fake(60);
    const large = fake(500);
    const redirect = fake(0, { status: 302 });
    await reads.warm(unknown.request, unknown.response, undefined);
    await reads.warm(large.request, large.response, 500);
    await reads.warm(redirect.request, redirect.response, 10);
    await reads.warm(fake(0).request, null, 10);
    assert.deepStrictEqual([unknown.reads, large.reads, redirect.reads], [0, 0, 0]);
    assert.strictEqual(reads.held, 0);
    assert.strictEqual((await reads.read(large.request, large.response)).length, 500);
    assert.strictEqual(reads.held, 0, 'a body past the limit is not held once the open has it');
    await reads.read(large.request, large.response);
    assert.strictEqual(large.reads, 2);
  });

  it('reads ahead one at a time, and of the rows a pointer sweeps over only the latest waits', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const rows = Array.from({ length: 40 }, () => fake(10));
    await Promise.all(rows.map(row => reads.warm(row.request, row.response, 10)));
    assert.strictEqual(mostAtOnce, 1);
    assert.deepStrictEqual(
      rows.map((row, i) => (row.reads ? i : -1)).filter(i => i >= 0),
      [0, 39],
      'the first row, under way when the sweep began, and the row it ended on',
    );
  });

  it('a failed read is not held: the open after it reads again and says what the browser said', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 3 });
    const gone = fake(10, { fails: true });
    await reads.warm(gone.request, gone.response, 10);
    assert.strictEqual(reads.held, 0);
    await assert.rejects(reads.read(gone.request, gone.response), /No resource with given identifier/);
    assert.strictEqual(gone.reads, 2);
  });

  it('holds the last few reads; an older one and one that left the list are read again', async () => {
    const reads = new BodyReads({ perBody: 100, kept: 2 });
    const [a, b, c] = [fake(10), fake(10), fake(10)];
    for (const row of [a, b, c]) await reads.warm(row.request, row.response, 10);
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
