/**
 * The notes a model reads before its next result, kept per browser context: what they say belongs to the
 * context they speak of. The window's context (chat's tools, `shared` MCP sessions) is `window`; with
 * isolation `perClient` each MCP session's own context is its session id. The person's changes and the
 * panel's notes (a resize, a restore) are about the context the panel watches; a lost browser is every
 * context's loss. A note never reaches another context's call (a second agent read the window's title and
 * address from a note meant for the window).
 */
import type { ObservationEvent } from '../../protocol/childMessages';
import { HeldNote } from './pendingNote';

export const WINDOW_CONTEXT = 'window';

/** One context's notes: that its browser was lost (pipeline step browserLost), and what the person or the panel changed (panelNotes). */
export interface HeldNotes {
  readonly lost: HeldNote;
  readonly panel: HeldNote;
}

/** What of a call says which context it drives: its MCP session, and the isolation the child said it has. */
export interface CallPlace {
  options: { session?: { id: string } };
  connection?: { facts?: { isolation?: string } };
}

/**
 * Which context a call drives: an MCP session's own under isolation `perClient` (also when the child did not say
 * which isolation it has: a note kept from a context is never a leak), else the window's.
 */
export function contextOfCall(call: CallPlace): string {
  const session = call.options.session;
  if (!session) return WINDOW_CONTEXT;
  return (call.connection?.facts?.isolation ?? 'perClient') === 'perClient' ? session.id : WINDOW_CONTEXT;
}

export class ContextNotes {
  private readonly notes = new Map<string, HeldNotes>();
  /** Contexts that have made calls since the browser started: the ones a loss is news to. */
  private readonly seen = new Set<string>([WINDOW_CONTEXT]);
  private watchedContext = WINDOW_CONTEXT;

  /** The notes of one context (made when first asked for). */
  of(context: string): HeldNotes {
    let notes = this.notes.get(context);
    if (!notes) this.notes.set(context, (notes = { lost: new HeldNote(), panel: new HeldNote() }));
    this.seen.add(context);
    return notes;
  }

  /** The context the panel shows, where the person's and the panel's changes happen. */
  get watched(): HeldNotes {
    return this.of(this.watchedContext);
  }

  /** Follows the child's word on which context the panel shows. */
  observe(event: ObservationEvent): void {
    if (event.kind === 'sessions') this.watchedContext = event.sessions.find(session => session.watched)?.id ?? WINDOW_CONTEXT;
  }

  /**
   * The whole browser went: each context that knew it is told once, at its own next call. What the person or the
   * panel changed on its pages goes with them (the first result after a restart spoke of the dead browser's pages).
   */
  lostForAll(note: string): void {
    for (const context of this.seen) {
      const notes = this.of(context);
      notes.lost.set(note);
      notes.panel.take();
    }
  }

  /** A client's context closed: its notes go with it (a new session of that id would be another context). */
  forget(context: string): void {
    if (context === WINDOW_CONTEXT) return;
    this.notes.delete(context);
    this.seen.delete(context);
    if (this.watchedContext === context) this.watchedContext = WINDOW_CONTEXT;
  }

  /** A new browser: no client context survives it, and the panel watches the window's again. */
  restarted(): void {
    for (const context of [...this.seen]) if (context !== WINDOW_CONTEXT) this.seen.delete(context);
    this.watchedContext = WINDOW_CONTEXT;
  }
}
