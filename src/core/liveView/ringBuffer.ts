/** An entry before the buffer numbers it (distributes over unions of entry kinds). */
export type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

/**
 * What an entry costs to keep, roughly: two bytes per character of its strings (V8 may store them
 * in one, so this errs high), eight per number, and a fixed overhead for the object itself.
 */
export function approximateBytes(entry: object): number {
  let bytes = 64;
  for (const value of Object.values(entry)) {
    if (typeof value === 'string') bytes += 2 * value.length;
    else if (typeof value === 'number' || typeof value === 'boolean') bytes += 8;
    else if (value && typeof value === 'object') bytes += approximateBytes(value);
  }
  return bytes;
}

/**
 * A bounded list: the newest entries, at most `capacity` of them and at most `maxBytes` of them
 * together (oldest dropped first, though the newest is always kept). Entries carry a growing
 * sequence number so a viewer can append, update in place and drop without re-sending all.
 */
export class RingBuffer<T extends { seq: number }> {
  /** Oldest first; their sequence numbers are consecutive, so an entry's index is its seq minus the first's. */
  private items: T[] = [];
  private sizes: number[] = [];
  private bytes = 0;
  private nextSeq = 1;

  constructor(
    readonly capacity: number,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`capacity must be a positive integer, got ${capacity}`);
    if (!(maxBytes > 0)) throw new Error(`maxBytes must be positive, got ${maxBytes}`);
  }

  get size(): number {
    return this.items.length;
  }

  /** What the kept entries cost, by approximateBytes. */
  get byteSize(): number {
    return this.bytes;
  }

  /** Sequence number of the oldest entry kept (entries before it were dropped). */
  get firstSeq(): number {
    return this.items.length ? this.items[0].seq : this.nextSeq;
  }

  push(entry: Unnumbered<T>): T {
    const item = { ...entry, seq: this.nextSeq++ } as unknown as T;
    const size = approximateBytes(item);
    this.items.push(item);
    this.sizes.push(size);
    this.bytes += size;
    this.trim();
    return item;
  }

  /** Replaces the entry with this sequence number, if still kept (a grown entry may push out older ones). */
  update(seq: number, change: (item: T) => T): T | undefined {
    const index = seq - this.firstSeq;
    if (!this.items.length || index < 0 || index >= this.items.length) return undefined;
    const updated = { ...change(this.items[index]), seq };
    const size = approximateBytes(updated);
    this.bytes += size - this.sizes[index];
    this.items[index] = updated;
    this.sizes[index] = size;
    this.trim();
    return seq >= this.firstSeq ? updated : undefined;
  }

  toArray(): T[] {
    return [...this.items];
  }

  clear(): void {
    this.items = [];
    this.sizes = [];
    this.bytes = 0;
  }

  private trim(): void {
    let drop = 0;
    let bytes = this.bytes;
    while (this.items.length - drop > 1 && (this.items.length - drop > this.capacity || bytes > this.maxBytes)) {
      bytes -= this.sizes[drop];
      drop++;
    }
    if (!drop) return;
    this.items.splice(0, drop);
    this.sizes.splice(0, drop);
    this.bytes = bytes;
  }
}
