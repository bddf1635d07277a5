/** A frame waiting to go: sent as it is, with when it came. */
export type PacedSend<F> = (frame: F, cameAt: number) => void;

/**
 * At most one frame per `minGapMs`, and never the last one lost: a frame that comes too soon after the one sent,
 * or while the channel is backed up, waits (a newer one replaces it) and goes as soon as it may. A page that
 * paints once and then stays still is shown as it is, however busy the moment of that paint was.
 *
 * Why not pace at the source: Chromium's screencast with `everyNthFrame: 2` sends every second compositor frame,
 * so a page that painted once (data arrived, nothing animating) was never sent: the picture kept the page's
 * previous state until something else painted (issue 44's frozen picture). Dropping a frame because the pipe
 * was busy had the same effect.
 */
export class FramePacer<F> {
  private waiting: { frame: F; cameAt: number } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastSentAt = -Infinity;
  private stopped = false;

  constructor(
    private readonly minGapMs: number,
    private readonly congested: () => boolean,
    private readonly send: PacedSend<F>,
    /** How often a backed-up channel is looked at again. */
    private readonly retryMs = 50,
  ) {}

  offer(frame: F, now = Date.now()): void {
    if (this.stopped) return;
    this.waiting = { frame, cameAt: now };
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    if (!waiting || this.stopped) return;
    const now = Date.now();
    const wait = this.congested() ? this.retryMs : this.lastSentAt + this.minGapMs - now;
    if (wait > 0) {
      this.timer = setTimeout(() => this.flush(), wait);
      this.timer.unref?.();
      return;
    }
    this.waiting = undefined;
    this.lastSentAt = now;
    this.send(waiting.frame, waiting.cameAt);
  }

  /** Nothing more goes out (the stream stopped: a frame held now would show a page that is no longer watched). */
  stop(): void {
    this.stopped = true;
    this.waiting = undefined;
    clearTimeout(this.timer);
  }
}
