/**
 * A response's body read from the browser once, for whoever asks for it next. Reading 1 MB through CDP takes
 * Chromium 70-190 ms on a 2-core machine, most of the time a person waits for a request's details; the panel
 * asks for the read when the person points at a row or moves to it with the keyboard (`warm`), and the open
 * that follows the click takes that read, done or still under way. Bounded: a warm read is made only for a
 * finished body whose decoded size is bounded (KeptBodies' `decodedBound`) and within PER_BODY, one warm read
 * runs at a time with at most the latest one waiting (a pointer sweeping over forty rows reads two), and the
 * last KEPT reads are held, dropped when their request leaves the list. Nothing read here leaves the child
 * unmasked: it is the same body the open would read, masked on the way out as every body.
 */
import type { Request, Response } from 'playwright';

/** A body larger than this is not read ahead: one open of it reads it as before. */
const PER_BODY = 5 * 1024 * 1024;
/** Reads held: the row pointed at, the one before it (a person's pointer crosses its neighbour), the one open. */
const KEPT = 3;

export class BodyReads {
  /** By request, oldest first: each read's body, or the read under way. */
  private readonly reads = new Map<Request, Promise<Buffer>>();
  /** The warm read under way; the ask that waits for it (a newer ask replaces it) and how that one is let go. */
  private warming: Promise<void> | undefined;
  private waiting: { go: () => void; skip: () => void } | undefined;

  constructor(private readonly limits = { perBody: PER_BODY, kept: KEPT }) {}

  /** The body, from a read already made or under way, else read now (and held for the next ask). */
  read(request: Request, response: Response): Promise<Buffer> {
    const held = this.reads.get(request);
    if (held) {
      // Newest last: it is the one in use.
      this.reads.delete(request);
      this.reads.set(request, held);
      return held;
    }
    return this.start(request, response);
  }

  /**
   * Reads a finished body ahead of its open. `decodedBytes`: what it decodes to at most, known before the read
   * (undefined: unbounded, not read ahead). Resolves once this ask is read, skipped or replaced (for the tests).
   */
  warm(request: Request, response: Response | null, decodedBytes: number | undefined): Promise<void> {
    if (!response || this.reads.has(request) || (response.status() >= 300 && response.status() < 400)) return Promise.resolve();
    if (decodedBytes === undefined || decodedBytes === 0 || decodedBytes > this.limits.perBody) return Promise.resolve();
    return new Promise<void>(resolve => {
      const go = () => {
        const read = this.reads.get(request) ?? this.start(request, response);
        this.warming = read.then(
          () => this.done(resolve),
          () => this.done(resolve),
        );
      };
      if (!this.warming) return go();
      // The person has moved on from the row that waited: it is not read.
      this.waiting?.skip();
      this.waiting = { go, skip: resolve };
    });
  }

  /** A request the list no longer holds. */
  forget(request: Request): void {
    this.reads.delete(request);
  }

  /** How many reads are held or under way (for the tests). */
  get held(): number {
    return this.reads.size;
  }

  private done(resolve: () => void): void {
    this.warming = undefined;
    resolve();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.go();
  }

  private start(request: Request, response: Response): Promise<Buffer> {
    const read = response.body();
    this.reads.set(request, read);
    // A failed read is not held (the next ask tries again and says why), nor a body past PER_BODY once read.
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
}
