/**
 * A response's body read from the browser once for the asks that follow it: the panel asks for a request's
 * details ahead of the click while the person's pointer rests on its row, and the click, "Show more" or Add to
 * Chat that follow take that read, done or still under way. Reading 1 MB through CDP takes Chromium 70-190 ms on
 * a 2-core machine, most of what a person waited for. The last KEPT reads are held, a body past READ_AHEAD_LIMIT
 * only while its read runs, and a read that failed not at all (the next ask tries again and says why). Nothing
 * read here leaves the child unmasked: it is the body an open would read, masked on the way out as every body.
 */
import type { Request, Response } from 'playwright';

/** The largest body read ahead of a click, or held after a read (a kept body's limit, keptBodies.ts). */
export const READ_AHEAD_LIMIT = 5 * 1024 * 1024;
/** Reads held: the row pointed at, the one before it (a person's pointer crosses its neighbour), the one open. */
const KEPT = 3;

export class BodyReads {
  /** By request, oldest first: each read's body, or the read under way. */
  private readonly reads = new Map<Request, Promise<Buffer>>();

  constructor(private readonly limits = { perBody: READ_AHEAD_LIMIT, kept: KEPT }) {}

  /** The body, from a read already made or under way, else read now (and held for the next ask). */
  read(request: Request, response: Response): Promise<Buffer> {
    const held = this.reads.get(request);
    if (held) {
      // Newest last: it is the one in use.
      this.reads.delete(request);
      this.reads.set(request, held);
      return held;
    }
    const read = response.body();
    this.reads.set(request, read);
    read.then(
      body => {
        if (body.length > this.limits.perBody && this.reads.get(request) === read) this.reads.delete(request);
      },
      () => {
        if (this.reads.get(request) === read) this.reads.delete(request);
      },
    );
    for (const oldest of this.reads.keys()) {
      if (this.reads.size <= this.limits.kept) break;
      this.reads.delete(oldest);
    }
    return read;
  }

  /** A request the list no longer holds. */
  forget(request: Request): void {
    this.reads.delete(request);
  }

  /** How many reads are held or under way (for the tests). */
  get held(): number {
    return this.reads.size;
  }
}
