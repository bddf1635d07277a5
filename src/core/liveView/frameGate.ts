/**
 * Backpressure for live frames: at most one frame is on its way to the viewer; while it is, a newer
 * frame replaces the one waiting (older frames are dropped, never queued).
 */
export class FrameGate<F> {
  private inFlight = false;
  private waiting: F | undefined;
  private dropped = 0;
  private sent = 0;

  constructor(private readonly deliver: (frame: F) => void) {}

  offer(frame: F): void {
    if (!this.inFlight) {
      this.inFlight = true;
      this.sent++;
      this.deliver(frame);
      return;
    }
    if (this.waiting !== undefined) this.dropped++;
    this.waiting = frame;
  }

  /** The viewer has drawn the frame in flight: the newest waiting one (if any) goes now. */
  ack(): void {
    this.inFlight = false;
    const next = this.waiting;
    this.waiting = undefined;
    if (next !== undefined) this.offer(next);
  }

  /** Forget everything (the viewer went away): the next frame goes at once. */
  reset(): void {
    this.inFlight = false;
    this.waiting = undefined;
  }

  get stats(): { sent: number; dropped: number; waiting: number; inFlight: boolean } {
    return { sent: this.sent, dropped: this.dropped, waiting: this.waiting === undefined ? 0 : 1, inFlight: this.inFlight };
  }
}
