/**
 * Response bodies kept as each response ends, while Network's Preserve log is on. Chromium drops a page's
 * bodies when the next page commits, so the list would keep an earlier page's requests with nothing behind
 * them: a HAR without their bodies, details that say the browser no longer has them. Read when the request
 * finishes (the earliest Playwright gives it), one at a time, never waited for by anything else. Bounded
 * before a byte is read: a body is read only when its decoded size is bounded and within PER_BODY
 * (decodedBound: a small compressed image can decode to hundreds of MB, and reading it would hold them all),
 * at most MAX_WAITING wait their turn, and the oldest kept go once all pass TOTAL (as much as one HAR holds).
 * A body not kept is read from the browser as before, and says so when it is gone.
 */
import type { Response } from 'playwright';
import { HAR_BUDGET } from '../harBudget';

/** The largest body kept: a HAR keeps none larger whole (harExport.ts' BODY_LIMIT). */
const PER_BODY = 5 * 1024 * 1024;
/** All kept bodies together: no HAR holds more. */
const TOTAL = HAR_BUDGET;
/** Reads waiting their turn: past this a page ends requests faster than they are read, and the rest are not kept. */
const MAX_WAITING = 100;

/** Types Chromium's DevTools buffer keeps a copy of (bounded by it): an image, media or font is served from elsewhere, whole. */
const BUFFERED_TYPES = new Set(['document', 'stylesheet', 'script', 'xhr', 'fetch', 'manifest', 'texttrack', 'eventsource', 'websocket']);

/**
 * The most a body can be once decoded, known before it is read; undefined when nothing bounds it. Without a
 * content encoding it is the bytes that came (the browser's own count). Compressed, only the browser's count of
 * decoded bytes bounds it, and only for a type its DevTools buffer holds: a compressed image's count is of what
 * came over the wire (measured: 576 KB for an image that decodes to 64 MB).
 */
export function decodedBound(response: Response, resourceType: string, counted: { resourceBytes?: number; transferBytes?: number }): number | undefined {
  const encoding = response.headers()['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return counted.resourceBytes ?? counted.transferBytes;
  return BUFFERED_TYPES.has(resourceType) ? counted.resourceBytes : undefined;
}

export class KeptBodies {
  private on = false;
  /** By request id, oldest first. */
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;
  /** The reads, one after another. */
  private turn: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly limits = { perBody: PER_BODY, total: TOTAL, waiting: MAX_WAITING }) {}

  /**
   * Preserve log on: keep from now (a Clear with it on says this again, and what was kept goes). Off: the list
   * starts again at each navigation, so nothing kept is needed.
   */
  setOn(on: boolean): void {
    this.on = on;
    this.bodies.clear();
    this.bytes = 0;
  }

  /**
   * A response that ended, its decoded size as the browser counted it (undefined: not known, not read), kept
   * while Preserve log is on and `stillListed` says the list holds it (a redirect has no body).
   */
  keep(id: string, response: Response | null, decodedBytes: number | undefined, stillListed: () => boolean): Promise<void> {
    if (!this.on || !response || (response.status() >= 300 && response.status() < 400)) return Promise.resolve();
    if (decodedBytes === undefined || decodedBytes === 0 || decodedBytes > this.limits.perBody || this.waiting >= this.limits.waiting) return Promise.resolve();
    this.waiting++;
    this.turn = this.turn.then(async () => {
      this.waiting--;
      if (!this.on || !stillListed()) return;
      const body = await response.body().catch(() => undefined);
      // Turned off or cleared meanwhile, scrolled out of the list, or nothing to keep.
      if (!this.on || !stillListed() || !body || !body.length || body.length > this.limits.perBody) return;
      this.store(id, body);
    });
    return this.turn;
  }

  private store(id: string, body: Buffer): void {
    this.forget(id);
    this.bodies.set(id, body);
    this.bytes += body.length;
    for (const [oldest, kept] of this.bodies) {
      if (this.bytes <= this.limits.total) break;
      this.bodies.delete(oldest);
      this.bytes -= kept.length;
    }
  }

  get(id: string): Buffer | undefined {
    return this.bodies.get(id);
  }

  /** A request the list no longer holds. */
  forget(id: string): void {
    const kept = this.bodies.get(id);
    if (!kept) return;
    this.bodies.delete(id);
    this.bytes -= kept.length;
  }

  /** What is kept, for the tests' figures. */
  get keptBytes(): number {
    return this.bytes;
  }
}
