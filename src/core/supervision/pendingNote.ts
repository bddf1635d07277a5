import { MAX_KEPT_NOTE_CHARS } from '../egress/byteBounds';

/** A note the model reads once (its browser was lost, or put back to a step), kept until a model's call takes it. */
export interface PendingNote {
  /** Keeps a note unless one is already pending (the first is the one to tell). */
  keep(note: string): void;
  take(): string | undefined;
}

/**
 * A note the model reads once, before its next result (the browser was lost, the browser was put back to a
 * step): kept until a model's call takes it. `keep` leaves a note already waiting (the first one is the one to
 * tell); `set` replaces it (a newer event says more); `add` tells both.
 */
export class HeldNote implements PendingNote {
  private note: string | undefined;

  keep(note: string): void {
    this.note ??= note;
  }

  set(note: string): void {
    this.note = note;
  }

  /** Another thing to tell, after what is already waiting (bounded: a person who resizes a hundred times is told the latest). */
  add(note: string): void {
    const joined = this.note ? `${this.note}\n${note}` : note;
    const tail = joined.slice(-MAX_KEPT_NOTE_CHARS);
    this.note = joined.length > MAX_KEPT_NOTE_CHARS ? tail.slice(tail.indexOf('\n') + 1) : joined;
  }

  take(): string | undefined {
    const note = this.note;
    this.note = undefined;
    return note;
  }
}
