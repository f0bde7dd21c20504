import type { Doc } from '../../domain/ports/read-store.port.js';
import { deepFreeze } from './event-record.codec.js';

/** A document as the LMDB read store keeps it (the docs database) and caches it: the document (null: a tombstone) and its position. */
export interface CachedDocEntry {
  readonly d: Doc | null;
  readonly c: string;
  readonly p: string;
}

const NOT_PLAIN = Symbol('not plain');

/**
 * A frozen deep copy of a document made of plain objects, arrays and primitives (what read models hold), or
 * NOT_PLAIN for anything else (a Date, a Buffer…), which the cache then does not keep: the writer keeps
 * its own object, and the cache must not share it.
 */
function frozenCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (const item of value) {
      const copied = frozenCopy(item);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      copy.push(copied);
    }
    return Object.freeze(copy);
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = frozenCopy(item);
    if (copied === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = copied;
  }
  return Object.freeze(copy);
}

/**
 * Decoded documents of the LMDB read store, the oldest dropped first (a hit does not reorder: the hot ones
 * are re-read soon after they drop out), so that a projection folding an event
 * into a document (a balance, a day's usage) and then committing it does not decode it from LMDB twice,
 * and the next call on the same account finds it decoded. It only ever holds what LMDB has committed: a
 * document being written is not served from here (nor filled) until its transaction has committed, and it
 * then holds a copy of what was written. Entries are deep-frozen, so that a projection mutating the document
 * it is given fails (what LMDB decoded is the cache's own; a writer's document is copied). Bounded by `capacity`.
 */
export class LmdbDocCache {
  private readonly entries = new Map<string, CachedDocEntry>();
  /** Documents in transactions not committed yet: how many such transactions, and the last value written. */
  private readonly writing = new Map<string, { count: number; latest: CachedDocEntry | null }>();

  constructor(readonly capacity: number) {}

  get(key: string): CachedDocEntry | undefined {
    return this.writing.has(key) ? undefined : this.entries.get(key);
  }

  /** What a read found committed in LMDB; ignored while a write of the document is in flight. */
  fill(key: string, entry: CachedDocEntry): void {
    if (this.writing.has(key)) return;
    this.remember(key, entry);
  }

  /**
   * A transaction writes `entry`: the document is served from LMDB until `settle`. An update (`keep`) is
   * then kept, copied (the writer keeps its object); a new document (a usage row) is not: rows written once
   * are rarely read again, and copying them would cost more than it saves.
   */
  writeBegins(key: string, entry: CachedDocEntry, keep: boolean): void {
    this.entries.delete(key);
    const pending = this.writing.get(key);
    const doc = keep ? frozenCopy(entry.d) : NOT_PLAIN;
    const latest = doc === NOT_PLAIN ? null : { d: doc as Doc | null, c: entry.c, p: entry.p };
    this.writing.set(key, { count: (pending?.count ?? 0) + 1, latest });
  }

  /** The transaction that wrote these keys committed (or failed): the last write committed is kept. */
  settle(keys: readonly string[], committed: boolean): void {
    for (const key of keys) {
      const pending = this.writing.get(key);
      if (pending === undefined) continue;
      pending.count -= 1;
      if (pending.count > 0) continue;
      this.writing.delete(key);
      if (committed && pending.latest !== null) this.remember(key, pending.latest);
    }
  }

  /** Forgets these documents (another thread's store wrote them). */
  forget(keys: readonly string[]): void {
    for (const key of keys) this.entries.delete(key);
  }

  /** Forgets every entry (a collection was cleared, replaced or dropped). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(key: string, entry: CachedDocEntry): void {
    this.entries.delete(key);
    this.entries.set(key, deepFreeze(entry));
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }
}
