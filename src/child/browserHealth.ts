/**
 * Whether one inner session's browser is there, kept in one place for the child. The session registry
 * makes one per session and hands it what to do with a change (the window's browser tells the host, a
 * client's own context only the log); the call path reads it (a launch that failed, a browser lost during
 * a call) and never keeps a copy. Once lost, failed or closed a session stays so: a new browser is a new session.
 */
import type { BrowserState, BrowserStateParams } from '../protocol/childMessages';

/** What happens on a change: `lost` carries whether a call saw it happen (then the next call needs no word of it). */
export interface BrowserHealthListener {
  changed(params: BrowserStateParams, seenByCall: boolean): void;
}

export class BrowserHealth {
  private current: BrowserStateParams = { state: 'launching' };

  constructor(private readonly listener: BrowserHealthListener) {}

  get state(): BrowserState {
    return this.current.state;
  }

  /** Why the browser went away without being asked to; undefined while it is there. */
  get lostReason(): string | undefined {
    return this.current.state === 'lost' ? this.current.message : undefined;
  }

  get launchFailed(): boolean {
    return this.current.state === 'failed';
  }

  /** Its end is decided (lost, failed or closed): nothing can bring this session's browser back. */
  get ended(): boolean {
    return this.current.state === 'lost' || this.current.state === 'failed' || this.current.state === 'closed';
  }

  launching(): void {
    this.move({ state: 'launching' });
  }

  ready(): void {
    if (!this.ended) this.move({ state: 'ready' });
  }

  failed(message: string): void {
    this.move({ state: 'failed', message });
  }

  /** The browser went away (it crashed, its connection dropped, its context was closed under it); the first word stands. */
  lost(why: string, seenByCall = false): void {
    if (!this.ended) this.move({ state: 'lost', message: why }, seenByCall);
  }

  /** The agent closed it (browser_close). */
  closed(): void {
    if (!this.ended) this.move({ state: 'closed' });
  }

  private move(next: BrowserStateParams, seenByCall = false): void {
    this.current = next;
    this.listener.changed(next, seenByCall);
  }
}
