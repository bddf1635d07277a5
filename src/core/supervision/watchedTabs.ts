/**
 * The tabs of the context the panel watches, as the child last reported them: the one copy in the host.
 * The panel's store shows them and the person's control compares them (what the person changed); both
 * read them here. Emptied when that browser closes or is lost, when a new child starts, and when the panel
 * starts watching another context (until that one says its tabs).
 */
import type { BrowserStateParams, ObservationEvent, TabInfo } from '../../protocol/childMessages';

export class WatchedTabs {
  private current: readonly TabInfo[] = [];
  private watching = 'window';

  get tabs(): readonly TabInfo[] {
    return this.current;
  }

  observe(event: ObservationEvent): void {
    if (event.kind === 'tabs') this.current = event.tabs;
    else if (event.kind === 'sessions') {
      const watched = event.sessions.find(session => session.watched)?.id ?? 'window';
      if (watched !== this.watching) this.current = [];
      this.watching = watched;
    }
  }

  browserState(state: BrowserStateParams): void {
    if (state.state === 'closed' || state.state === 'lost') this.current = [];
  }

  /** A new child: nothing of the old browser's tabs is left. */
  reset(): void {
    this.current = [];
    this.watching = 'window';
  }
}
