/** An entry before the buffer numbers it (distributes over unions of entry kinds). */
export type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

/**
 * A bounded list: the newest `capacity` entries, oldest dropped first. Entries carry a growing
 * sequence number so a viewer can append, update in place and drop without re-sending all.
 */
export class RingBuffer<T extends { seq: number }> {
  private readonly items: T[] = [];
  private start = 0;
  private nextSeq = 1;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.items.length;
  }

  /** Sequence number of the oldest entry kept (entries before it were dropped). */
  get firstSeq(): number {
    return this.items.length ? this.items[this.start].seq : this.nextSeq;
  }

  push(entry: Unnumbered<T>): T {
    const item = { ...entry, seq: this.nextSeq++ } as unknown as T;
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
    return item;
  }

  /** Replaces the entry with this sequence number, if still kept. */
  update(seq: number, change: (item: T) => T): T | undefined {
    const index = this.indexOf(seq);
    if (index === undefined) return undefined;
    const updated = { ...change(this.items[index]), seq };
    this.items[index] = updated;
    return updated;
  }

  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  clear(): void {
    this.items.length = 0;
    this.start = 0;
  }

  private indexOf(seq: number): number | undefined {
    const first = this.firstSeq;
    const offset = seq - first;
    if (!this.items.length || offset < 0 || offset >= this.items.length) return undefined;
    const index = (this.start + offset) % this.items.length;
    return this.items[index].seq === seq ? index : undefined;
  }
}
