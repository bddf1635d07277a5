/** One MCP client's place (isolation `perClient`): its session while one is open, and its idle clock. */
export interface ClientSlot<S> {
  id: string;
  client?: string;
  inner?: Promise<S>;
  lastUsed: number;
  busy: number;
  /** Why its context went away before its next call, for that call's result. */
  pendingLoss?: string;
}

export interface ClientSlotsOptions<S> {
  /** A client's context closes after this long without a call. */
  idleMs: number;
  /** Opens a client's session (its own browser context) on its first call. */
  open(slot: ClientSlot<S>): Promise<S>;
  close(session: S): Promise<void>;
  /** The list changed (a client came or went): the panel's session picker follows. */
  changed(closedId?: string): Promise<void> | void;
  log(line: string): void;
}

/**
 * The MCP clients' own sessions (isolation `perClient`), by the endpoint's session id: made on a
 * client's first call, closed when the client leaves, idles out, or another client closes it.
 */
export class ClientSlots<S> {
  private readonly slots = new Map<string, ClientSlot<S>>();
  /** Clients whose context was closed while they stayed (idle, closed by another): their next call is told. */
  private readonly closedUnderClient = new Map<string, string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: ClientSlotsOptions<S>) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(30_000, Math.max(250, options.idleMs / 4)));
    this.sweeper.unref();
  }

  get(id: string): ClientSlot<S> | undefined {
    return this.slots.get(id);
  }

  all(): ClientSlot<S>[] {
    return [...this.slots.values()];
  }

  /** Ids that start with `prefix` (at least 8 characters, so a guess cannot match by chance). */
  matching(prefix: string): string[] {
    return prefix.length >= 8 ? [...this.slots.keys()].filter(id => id.startsWith(prefix)) : [];
  }

  /** The client's place, made on its first call. */
  take(id: string, client: unknown): ClientSlot<S> {
    let slot = this.slots.get(id);
    if (!slot) {
      slot = { id, client: typeof client === 'string' ? client.slice(0, 100) : undefined, lastUsed: Date.now(), busy: 0 };
      slot.pendingLoss = this.closedUnderClient.get(id);
      this.closedUnderClient.delete(id);
      this.slots.set(id, slot);
      void this.options.changed();
      this.options.log(`Session ${id.slice(0, 8)} opened for client "${slot.client ?? 'unnamed'}" (${this.slots.size} client session(s))`);
    }
    return slot;
  }

  /** The client's session, opened if it has none. */
  session(slot: ClientSlot<S>): Promise<S> {
    if (!slot.inner) {
      const opening = this.options.open(slot);
      slot.inner = opening;
      opening.catch(() => {
        if (slot.inner === opening) slot.inner = undefined;
      });
    }
    return slot.inner;
  }

  /** Runs one call of the client, keeping its idle clock and the sweeper off it meanwhile. */
  async during<T>(slot: ClientSlot<S>, work: () => Promise<T>): Promise<T> {
    slot.busy++;
    try {
      return await work();
    } finally {
      slot.busy--;
      slot.lastUsed = Date.now();
    }
  }

  /** Closes one client's context; `tellClient` when the client stays and its next call must hear of it. */
  async close(id: string, why: string, tellClient = false): Promise<boolean> {
    const slot = this.slots.get(id);
    if (!slot) return false;
    this.slots.delete(id);
    if (tellClient && slot.inner) {
      this.closedUnderClient.set(id, `before this call, its browser context was closed (${why})`);
      // Bounded: a client that never comes back must not grow this forever.
      if (this.closedUnderClient.size > 256) this.closedUnderClient.delete(this.closedUnderClient.keys().next().value!);
    }
    const session = await slot.inner?.catch(() => undefined);
    slot.inner = undefined;
    if (session) await this.options.close(session);
    await this.options.changed(id);
    this.options.log(`Session ${id.slice(0, 8)} (client "${slot.client ?? 'unnamed'}") closed: ${why}`);
    return true;
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const slot of this.all()) {
      if (slot.busy === 0 && now - slot.lastUsed > this.options.idleMs) {
        await this.close(slot.id, `idle for over ${Math.round(this.options.idleMs / 1000)} s`, true);
      }
    }
  }

  async dispose(why: string): Promise<void> {
    clearInterval(this.sweeper);
    for (const id of [...this.slots.keys()]) await this.close(id, why);
  }
}
