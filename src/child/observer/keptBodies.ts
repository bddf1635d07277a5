/**
 * Response bodies kept as each response ends, while Network's Preserve log is on. Chromium drops a page's
 * bodies when the next page commits, so the list would keep an earlier page's requests with nothing behind
 * them: a HAR without their bodies, details that say the browser no longer has them. Read the moment the
 * request finishes (the earliest Playwright gives it), never waited for by anything else. Bounded: a body
 * past PER_BODY is not kept, and the oldest go once the kept pass TOTAL (as much as one HAR holds); a body
 * not kept is read from the browser as before, and says so when it is gone.
 */
import type { Response } from 'playwright';
import { HAR_BUDGET } from '../harBudget';

/** The largest body kept: a HAR keeps none larger whole (harExport.ts' BODY_LIMIT). */
const PER_BODY = 5 * 1024 * 1024;
/** All kept bodies together: no HAR holds more. */
const TOTAL = HAR_BUDGET;

export class KeptBodies {
  private on = false;
  /** By request id, oldest first. */
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly limits = { perBody: PER_BODY, total: TOTAL }) {}

  /** Preserve log on: keep from now. Off: the list starts again at each navigation, so nothing kept is needed. */
  setOn(on: boolean): void {
    this.on = on;
    if (!on) {
      this.bodies.clear();
      this.bytes = 0;
    }
  }

  /** A response that ended: its body kept while Preserve log is on (a redirect has none). */
  async keep(id: string, response: Response | null): Promise<void> {
    if (!this.on || !response || (response.status() >= 300 && response.status() < 400)) return;
    const body = await response.body().catch(() => undefined);
    // Turned off meanwhile, or nothing to keep.
    if (!this.on || !body || !body.length || body.length > this.limits.perBody) return;
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
