/**
 * The page's scripts paused while the browser hands a late trace over. Chromium hands a trace over only once the
 * traced page's renderer has flushed what it recorded, and a page that floods user timing without end keeps that
 * renderer too busy to: the trace came after 60 s, past the recorder's deadline, however small the trace buffer
 * (measured). With the page's scripts paused (DevTools' Emulation.setScriptExecutionDisabled) it came in 6 s. A page
 * that hands its trace over in time is never paused; one that does not is paused from PAUSE_AFTER_MS until the
 * trace is there, and its scripts run again after. Its timers that fell due meanwhile did not run: the answer says so.
 */
import type { CDPSession } from 'playwright';

/** How long the hand-over may take before the page's scripts are paused (a large trace of a calm page takes a few seconds). */
export const PAUSE_AFTER_MS = 5_000;

export class HandOverPause {
  private readonly timer: NodeJS.Timeout;
  private pausedAt: number | undefined;
  private pausing: Promise<unknown> = Promise.resolve();
  private pausedMs = 0;

  /** Starts counting from the trace's end: the pause begins only if the hand-over is still awaited `afterMs` later. */
  constructor(
    private readonly cdp: CDPSession,
    afterMs = PAUSE_AFTER_MS,
  ) {
    this.timer = setTimeout(() => {
      this.pausedAt = Date.now();
      this.pausing = cdp.send('Emulation.setScriptExecutionDisabled', { value: true }).catch(() => undefined);
    }, afterMs);
  }

  /** The hand-over came, or was given up: the page's scripts run again. How long they were paused (0: never). */
  async end(): Promise<number> {
    clearTimeout(this.timer);
    if (this.pausedAt !== undefined) {
      const since = this.pausedAt;
      this.pausedAt = undefined;
      await this.pausing;
      // The page may be gone by now (closed, or its session detached): nothing to resume then.
      await this.cdp.send('Emulation.setScriptExecutionDisabled', { value: false }).catch(() => undefined);
      this.pausedMs = Date.now() - since;
    }
    return this.pausedMs;
  }
}
