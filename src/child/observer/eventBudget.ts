/**
 * Passes at most `perSecond` events each second. What it holds back is counted, and the count is
 * reported once the second is over, so a flooding page costs the extension a line, not a stall.
 */
export class EventBudget {
  private windowStart = 0;
  private passed = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly reportDropped: (count: number) => void,
  ) {}

  allow(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.passed = 0;
    }
    if (this.passed < this.perSecond) {
      this.passed++;
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
