/** A burst passed at once: this many seconds' worth. */
const BURST_SECONDS = 2;

/**
 * Passes `perSecond` events a second on average, and up to BURST_SECONDS' worth at once (a token bucket): events
 * reach the child in bunches when it or the page was busy, and a budget counted per calendar second dropped lines
 * of a page logging 80 a second (the panel bench lost 11 and 19 of its 2,000 lines in two of seven runs). What it holds back
 * is counted, and the count is reported a second later, so a flooding page costs the extension a line, not a stall.
 */
export class EventBudget {
  private tokens: number;
  private last: number;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly reportDropped: (count: number) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perSecond * BURST_SECONDS;
    this.last = now();
  }

  allow(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.perSecond * BURST_SECONDS, this.tokens + (Math.max(0, now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens--;
      return true;
    }
    this.dropped++;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const count = this.dropped;
      this.dropped = 0;
      if (count) this.reportDropped(count);
    }, 1000);
    this.timer.unref?.();
    return false;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
