/**
 * When a page of the browser is paused in a debugger (a breakpoint in VS Code's debugger or the person's DevTools,
 * reached through the managed CDP endpoint): read off the CDP events those clients receive (`Debugger.paused`,
 * `Debugger.resumed`), so nothing extra is asked of the browser. A tool call that ran while a page was paused says
 * so in words (its mark `pausedInDebugger`), and the panel shows the pause while it lasts.
 */
export class DebuggerPauses {
  /** Paused sessions (a client link's session of a page) and since when. */
  private readonly paused = new Map<string, number>();
  /** Pauses that ended, as [start, end], the last few. */
  private readonly ended: [number, number][] = [];
  private readonly listeners = new Set<(paused: boolean) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A debugger client heard its page pause (`key`: its link and session). */
  pause(key: string): void {
    if (this.paused.has(key)) return;
    const was = this.isPaused;
    this.paused.set(key, this.now());
    if (!was) this.fire(true);
  }

  /** It resumed, or its client went (a debugger that detaches resumes the page). */
  resume(key: string): void {
    const since = this.paused.get(key);
    if (since === undefined) return;
    this.paused.delete(key);
    this.ended.push([since, this.now()]);
    if (this.ended.length > 50) this.ended.shift();
    if (!this.isPaused) this.fire(false);
  }

  get isPaused(): boolean {
    return this.paused.size > 0;
  }

  /** How long some page was paused between `start` and now (pauses that overlap counted once). */
  pausedMsSince(start: number): number {
    const end = this.now();
    const spans = [...this.ended, ...[...this.paused.values()].map(since => [since, end] as [number, number])]
      .map(([from, to]) => [Math.max(from, start), Math.min(to, end)] as [number, number])
      .filter(([from, to]) => to > from)
      .sort((a, b) => a[0] - b[0]);
    let total = 0;
    let reached = start;
    for (const [from, to] of spans) {
      if (to <= reached) continue;
      total += to - Math.max(from, reached);
      reached = to;
    }
    return total;
  }

  onChange(listener: (paused: boolean) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private fire(paused: boolean): void {
    for (const listener of this.listeners) listener(paused);
  }
}
