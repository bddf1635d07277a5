import type { CDPSession } from 'playwright';

/**
 * Time travel's own storage read of one tab, for a checkpoint: the tab's origin's local storage and IndexedDB
 * in the shape Playwright's storage state has (so `setStorageState` puts it back), and the tab's
 * sessionStorage. It runs in an isolated world of the checkpoint's own (DevTools `Page.createIsolatedWorld`):
 * the page's scripts can neither see it nor change what it calls. Unlike Playwright's `storageState`, which
 * has no timeout and no way to be stopped, this read ends its own work:
 * - it counts what it has read and stops (answering only how much) once past the limit, so a page that
 *   stores more than a checkpoint keeps never sends it over to the child;
 * - it stops at its deadline, wherever it waits (a page that holds its database open for an upgrade stalls
 *   every other open of it), and the child can stop it sooner (`cancelRead`);
 * - a database whose open it gave up on is not opened again while that open is still queued in the browser,
 *   so a page that stalls the reads step after step leaves at most one open waiting, never a pile.
 */

/** The isolated world's name (also the key of the read's bookkeeping in that world's globals). */
export const CHECKPOINT_WORLD = '__playwright_bridge_checkpoint__';

/** One origin's storage as Playwright's storage state holds it. */
export interface OriginStorage {
  origin: string;
  localStorage: { name: string; value: string }[];
  indexedDB: unknown[];
}

export type TabRead =
  | { kind: 'read'; origin: OriginStorage; chars: number; session?: [string, string][] }
  /** More than the limit: only how much was read before it stopped. */
  | { kind: 'over'; chars: number }
  /** Stopped before the end: why. */
  | { kind: 'ended'; why: string };

interface ReadOptions {
  id: number;
  limit: number;
  deadlineMs: number;
  session: boolean;
  world: string;
  origin: string;
  /** Characters of records asked of a store at a time (their count judged from the batch before). */
  batchChars: number;
}

/**
 * About this many characters of records are asked of a store at a time (16 records first, then as many as
 * the last batch's size says fit, at most 256): the read checks its limit and its deadline between batches,
 * and holds little more than one batch beyond what it keeps.
 */
const BATCH_CHARS = 1024 * 1024;

/**
 * Reads the tab's storage in the checkpoint's isolated world. Resolves with what it read, or how much when
 * over `limit` characters, or why it ended; rejects only when DevTools cannot reach the tab.
 */
export async function readTabStorage(
  cdp: CDPSession,
  options: { id: number; origin: string; limit: number; deadlineMs: number; session: boolean },
): Promise<TabRead> {
  const contextId = await worldOf(cdp);
  const args: ReadOptions = { ...options, world: CHECKPOINT_WORLD, batchChars: BATCH_CHARS };
  const answer = await cdp.send('Runtime.evaluate', {
    contextId,
    expression: `(${readInWorld.toString()})(${JSON.stringify(args)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (answer.exceptionDetails)
    return { kind: 'ended', why: `the read failed (${answer.exceptionDetails.exception?.description?.split('\n')[0] ?? answer.exceptionDetails.text})` };
  return answer.result.value as TabRead;
}

/** Stops read `id` in the tab wherever it waits (it answers `ended` at once). */
export async function cancelRead(cdp: CDPSession, id: number): Promise<void> {
  const contextId = await worldOf(cdp);
  await cdp.send('Runtime.evaluate', { contextId, expression: `globalThis[${JSON.stringify(CHECKPOINT_WORLD)}]?.cancels.get(${id})?.()` });
}

/** The checkpoint's isolated world in the tab's current document (the same one while the document stays). */
async function worldOf(cdp: CDPSession): Promise<number> {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const world = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: CHECKPOINT_WORLD, grantUniveralAccess: false });
  return world.executionContextId;
}

/* The browser's objects the read touches, as far as it uses them (the child is type-checked without the DOM). */
interface IdbRequest<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
  onblocked?: (() => void) | null;
}
interface IdbStore {
  keyPath: string | string[] | null;
  autoIncrement: boolean;
  indexNames: ArrayLike<string> & Iterable<string>;
  index(name: string): { name: string; keyPath: string | string[]; multiEntry: boolean; unique: boolean };
  getAll(range: unknown, count: number): IdbRequest<unknown[]>;
  getAllKeys(range: unknown, count: number): IdbRequest<unknown[]>;
}
interface IdbDatabase {
  objectStoreNames: ArrayLike<string> & Iterable<string>;
  transaction(names: string[], mode: 'readonly'): { objectStore(name: string): IdbStore; abort(): void };
  close(): void;
}
interface WorldGlobals {
  indexedDB: { databases(): Promise<{ name?: string; version?: number }[]>; open(name: string): IdbRequest<IdbDatabase> };
  IDBKeyRange: { lowerBound(key: unknown, open: boolean): unknown };
  localStorage: { length: number; key(index: number): string | null; getItem(name: string): string | null };
  sessionStorage: { length: number; key(index: number): string | null; getItem(name: string): string | null };
  location: { origin: string };
  btoa(text: string): string;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(timer: number): void;
  [world: string]: unknown;
}

/**
 * The read itself, run in the isolated world (serialized: it uses nothing from outside its own body). Values
 * that JSON carries as they are go as `value` / `key`; the others (dates, maps, typed arrays, NaN...) as
 * `valueEncoded` / `keyEncoded` in Playwright's serialized-value form, which `setStorageState` reads back.
 */
async function readInWorld(options: ReadOptions): Promise<TabRead> {
  const g = globalThis as unknown as WorldGlobals;
  type Registry = { cancels: Map<number, () => void>; waiting: Set<string> };
  const registry = (g[options.world] ??= { cancels: new Map(), waiting: new Set() }) as Registry;
  class Ended extends Error {}
  let stopped = '';
  let stop: (why: string) => void = () => undefined;
  const stopping = new Promise<never>((_, reject) => {
    stop = why => {
      stopped ||= why;
      reject(new Ended(why));
    };
  });
  stopping.catch(() => undefined);
  const timer = g.setTimeout(() => stop(`it did not end within ${options.deadlineMs} ms`), options.deadlineMs);
  registry.cancels.set(options.id, () => stop('the child stopped it'));
  const settle = <T>(request: IdbRequest<T>) =>
    Promise.race([
      new Promise<T>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      }),
      stopping,
    ]);
  let chars = 0;
  const count = (n: number) => {
    chars += n;
    if (chars > options.limit) throw new Ended('over');
  };

  const isPlain = (value: unknown, seen: Set<unknown>): boolean => {
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
    if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
    if (typeof value !== 'object' || seen.has(value)) return false;
    seen.add(value);
    const proto = Object.getPrototypeOf(value) as unknown;
    if (Array.isArray(value)) return value.every(item => isPlain(item, seen));
    if (proto !== Object.prototype && proto !== null) return false;
    return Object.values(value as Record<string, unknown>).every(item => isPlain(item, seen));
  };
  const base64 = (bytes: Uint8Array) => {
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return g.btoa(binary);
  };
  const TYPED: [string, string][] = [
    ['Int8Array', 'i8'],
    ['Uint8Array', 'ui8'],
    ['Uint8ClampedArray', 'ui8c'],
    ['Int16Array', 'i16'],
    ['Uint16Array', 'ui16'],
    ['Int32Array', 'i32'],
    ['Uint32Array', 'ui32'],
    ['Float32Array', 'f32'],
    ['Float64Array', 'f64'],
    ['BigInt64Array', 'bi64'],
    ['BigUint64Array', 'bui64'],
  ];
  const encode = (value: unknown, ids: Map<object, number>): unknown => {
    if (value === undefined) return { v: 'undefined' };
    if (value === null) return { v: 'null' };
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return { v: 'NaN' };
      if (value === Infinity) return { v: 'Infinity' };
      if (value === -Infinity) return { v: '-Infinity' };
      if (Object.is(value, -0)) return { v: '-0' };
      return value;
    }
    if (typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'bigint') return { bi: value.toString() };
    if (typeof value !== 'object') return { v: 'undefined' };
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (tag === 'Date') return { d: (value as Date).toJSON() };
    if (tag === 'RegExp') return { r: { p: (value as RegExp).source, f: (value as RegExp).flags } };
    if (value instanceof Error || tag === 'Error') {
      const error = value as Error;
      return { e: { n: error.name, m: error.message, s: error.stack ?? `${error.name}: ${error.message}` } };
    }
    const typed = TYPED.find(([name]) => name === tag);
    if (typed) {
      const view = value as Uint8Array;
      return { ta: { b: base64(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)), k: typed[1] } };
    }
    if (tag === 'ArrayBuffer') return { ab: { b: base64(new Uint8Array(value as ArrayBuffer)) } };
    const known = ids.get(value);
    if (known) return { ref: known };
    const id = ids.size + 1;
    ids.set(value, id);
    if (tag === 'Map') return { m: [...(value as Map<unknown, unknown>)].map(([k, v]) => ({ k: encode(k, ids), v: encode(v, ids) })), id };
    if (tag === 'Set') return { s: [...(value as Set<unknown>)].map(item => encode(item, ids)), id };
    if (Array.isArray(value)) return { a: value.map(item => encode(item, ids)), id };
    return { o: Object.keys(value).map(k => ({ k, v: encode((value as Record<string, unknown>)[k], ids) })), id };
  };
  /** A key or value as its record carries it, counted. */
  const put = (record: Record<string, unknown>, name: 'key' | 'value', value: unknown) => {
    const plain = isPlain(value, new Set());
    const carried = plain ? value : encode(value, new Map());
    count(JSON.stringify(carried).length + 16);
    record[plain ? name : `${name}Encoded`] = carried;
  };

  const readDatabase = async (name: string, version: number) => {
    // An open still queued from a read given up on: opening again would only queue one more.
    if (registry.waiting.has(name)) throw new Ended(`the page still holds its database "${name}" from an earlier read`);
    const opening = g.indexedDB.open(name);
    let db: IdbDatabase;
    try {
      db = await settle(opening);
    } catch (error) {
      if (error instanceof Ended) {
        registry.waiting.add(name);
        // When the browser lets it through at last: closed at once, and the next read may open it again.
        opening.onsuccess = () => {
          opening.result.close();
          registry.waiting.delete(name);
        };
        opening.onerror = () => registry.waiting.delete(name);
      }
      throw error;
    }
    let transaction: ReturnType<IdbDatabase['transaction']> | undefined;
    try {
      const names = [...db.objectStoreNames];
      if (!names.length) return { name, version, stores: [] };
      transaction = db.transaction(names, 'readonly');
      const stores = [];
      for (const storeName of names) {
        const store = transaction.objectStore(storeName);
        const records: Record<string, unknown>[] = [];
        let range: unknown = undefined;
        let batch = 16;
        for (;;) {
          const [keys, values] = await Promise.all([settle(store.getAllKeys(range, batch)), settle(store.getAll(range, batch))]);
          const before = chars;
          for (let i = 0; i < keys.length; i++) {
            const record: Record<string, unknown> = {};
            if (store.keyPath === null) put(record, 'key', keys[i]);
            put(record, 'value', values[i]);
            records.push(record);
          }
          if (keys.length < batch) break;
          batch = Math.max(1, Math.min(256, Math.floor(options.batchChars / Math.max(1, (chars - before) / keys.length))));
          range = g.IDBKeyRange.lowerBound(keys[keys.length - 1], true);
        }
        const indexes = [...store.indexNames].map(indexName => {
          const index = store.index(indexName);
          return {
            name: index.name,
            keyPath: typeof index.keyPath === 'string' ? index.keyPath : undefined,
            keyPathArray: Array.isArray(index.keyPath) ? index.keyPath : undefined,
            multiEntry: index.multiEntry,
            unique: index.unique,
          };
        });
        // In the order of Playwright's own (so that its reads and these compare equal as text).
        stores.push({
          name: storeName,
          autoIncrement: store.autoIncrement,
          keyPath: typeof store.keyPath === 'string' ? store.keyPath : undefined,
          keyPathArray: Array.isArray(store.keyPath) ? store.keyPath : undefined,
          records,
          indexes,
        });
      }
      return { name, version, stores };
    } catch (error) {
      try {
        transaction?.abort();
      } catch {
        /* already finished */
      }
      throw error;
    } finally {
      db.close();
    }
  };

  const items = (storage: WorldGlobals['localStorage']): [string, string][] => {
    const all: [string, string][] = [];
    for (let i = 0; i < storage.length; i++) {
      const name = storage.key(i);
      if (name === null) continue;
      const value = storage.getItem(name) ?? '';
      count(name.length + value.length + 24);
      all.push([name, value]);
    }
    return all;
  };

  try {
    // The document's own origin, which no page script can fake: the read is of the origin the child asked for.
    if (g.location.origin !== options.origin) return { kind: 'ended', why: `the tab is now on ${g.location.origin}` };
    const localStorage = items(g.localStorage).map(([name, value]) => ({ name, value }));
    const session = options.session ? items(g.sessionStorage) : undefined;
    const indexedDB = [];
    for (const info of await Promise.race([g.indexedDB.databases(), stopping])) {
      if (!info.name || !info.version) continue;
      indexedDB.push(await readDatabase(info.name, info.version));
    }
    return { kind: 'read', origin: { origin: options.origin, localStorage, indexedDB }, chars, ...(session ? { session } : {}) };
  } catch (error) {
    if (!(error instanceof Ended)) return { kind: 'ended', why: `the read failed (${String((error as Error)?.message ?? error)})` };
    if (error.message === 'over') return { kind: 'over', chars };
    return { kind: 'ended', why: stopped || error.message };
  } finally {
    g.clearTimeout(timer);
    registry.cancels.delete(options.id);
  }
}
