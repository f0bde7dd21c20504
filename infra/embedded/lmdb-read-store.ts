import { open, type Database, type Key, type RootDatabase } from 'lmdb';
import { comparePositions, type Position } from '../../domain/ports/event-store.port.js';
import type { Collection, Doc, DocEntry, DocQuery, DocWrite, IndexSpec, ReadStore, StoredDoc } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { matches, type Row, sortRows } from './doc-query.js';
import { samePosition } from './lmdb-checkpoint-store.js';
import { type CachedDocEntry, LmdbDocCache } from './lmdb-doc-cache.js';
import { changedIndexKeys, indexKeys, indexName, planQuery, type IndexKey } from './lmdb-index-plan.js';

/**
 * The embedded read store on LMDB (the `lmdb` package: a memory-mapped B+tree with ACID transactions;
 * its prebuilt binary ships inside @lmdb/lmdb-linux-x64, so nothing is downloaded at install). Documents,
 * their secondary indexes and the projection checkpoints live in one environment, so `commit` writes a
 * batch of documents and its checkpoint in ONE transaction: a crash never leaves them apart, and a
 * restart folds only the log after the checkpoint. The JS heap holds no documents: reads go through the
 * memory map (the OS page cache is the only cache), so memory depends on the working set, not on history.
 *
 * The threads of one process may each open the environment (the projection thread writes what the API's
 * thread reads): a store reports what its transactions wrote (`onWritten`), and whoever carries that to
 * the other thread's store has it `forget` those documents (and read LMDB afresh) before anything there
 * waits on them.
 *
 * Layout: `docs` [collection, id] → { d: document | null (tombstone), c, p: position as decimal strings };
 * `index` [collection, index name, value(s)…, id] → true (see lmdb-index-plan.ts); `indexes` collection → the
 * names of its declared indexes (a change of them re-indexes the collection); `checkpoints` name → {c, p}.
 */

const toPosition = (entry: { c: string; p: string }): Position => ({ commit: BigInt(entry.c), prepare: BigInt(entry.p) });
/** Decoded documents kept across collections (lmdb-doc-cache.ts): the ones hot paths fold into again and again. */
export const DOC_CACHE_SIZE = 4096;
/** Sorts after every id and index value (strings, numbers, booleans, null): the end of a key prefix. */
const END = '\uffff';
/** The range of a collection's keys in the docs and index databases. */
const inCollection = (name: string) => ({ start: [name], end: [name, END] });
/**
 * Where the docs database keeps msgpackr's shared record structures: a document's field names are written
 * once there, and each document refers to its shape by number instead of repeating them (a History row
 * 459 → 217 B, a usage row 382 → 232 B; docs/benchmarks.md). Older documents, written as plain maps, read
 * as before. Shapes whose keys are not all plain names (dates, addresses, ids as keys) are not shared, so
 * maps keyed by data cannot fill the table; the limit is fixed for good (a store with more shared shapes
 * than a later limit could not be written).
 */
const SHARED_STRUCTURES = Symbol.for('structures');
const MAX_SHARED_STRUCTURES = 1000;
const isPlainName = (key: string): boolean => /^[A-Za-z_]+$/.test(key);
/** msgpackr's options, passed through by lmdb-js (its DatabaseOptions typings omit them). */
const sharedStructureLimits: object = {
  maxSharedStructures: MAX_SHARED_STRUCTURES,
  shouldShareStructure: (keys: string[]) => keys.every(isPlainName),
};

interface Dbs {
  readonly root: RootDatabase;
  readonly docs: Database<CachedDocEntry, Key[]>;
  /** Keys hold nulls too (LMDB's key encoding orders them first; its typings omit them). */
  readonly index: Database<true, Key[]>;
  readonly checkpoints: Database<{ c: string; p: string }, string>;
  /** Collection → the names of its declared indexes, so a start does not re-index what is already indexed. */
  readonly indexes: Database<string[], string>;
  readonly cache: LmdbDocCache;
  /** Awaits a write transaction, then tells the cache (and the other threads' stores) what it wrote. */
  readonly settle: <T>(written: readonly string[], transaction: Promise<T>) => Promise<T>;
}

/** What a transaction wrote: the cache keys of its documents, or 'all' (a collection cleared, replaced, dropped). */
export type WrittenKeys = readonly string[] | 'all';

/** The LMDB read store, with what the threads sharing its environment need. */
export interface LmdbReadStore extends ReadStore {
  /** Calls `listener` with what each committed write transaction wrote; returns the way to stop. */
  onWritten(listener: (keys: WrittenKeys) => void): () => void;
  /** Another thread's store wrote these: drop them from the cache, and read LMDB afresh from now on. */
  forget(keys: WrittenKeys): void;
}

const cacheKey = (collection: string, id: string): string => `${collection}\u0000${id}`;

class LmdbCollection<D extends Doc> implements Collection<D> {
  constructor(
    private readonly dbs: Dbs,
    readonly name: string,
    readonly indexes: () => readonly IndexSpec[],
    private readonly isOpen: () => void,
  ) {}

  /** The committed entry, decoded once and then served from the cache. */
  private stored(id: string): CachedDocEntry | undefined {
    const key = cacheKey(this.name, id);
    const cached = this.dbs.cache.get(key);
    if (cached !== undefined) return cached;
    const stored = this.dbs.docs.get([this.name, id]);
    if (stored !== undefined) this.dbs.cache.fill(key, stored);
    return stored;
  }

  async get(id: string): Promise<StoredDoc<D> | null> {
    this.isOpen();
    const stored = this.stored(id);
    return stored?.d == null ? null : { id, doc: stored.d as D, position: toPosition(stored) };
  }

  async entry(id: string): Promise<DocEntry<D> | null> {
    this.isOpen();
    const stored = this.stored(id);
    return stored === undefined ? null : { doc: stored.d as D | null, position: toPosition(stored) };
  }

  async apply(id: string, position: Position, update: (current: D | null) => D | null): Promise<'applied' | 'duplicate'> {
    this.isOpen();
    const written: string[] = [];
    return this.dbs.settle(
      written,
      this.dbs.root.transaction(() => this.writeInTransaction(id, position, update, written)),
    );
  }

  /**
   * The position-guarded write; runs inside a write transaction (apply, commit), and adds the document's
   * cache key to `written`, for the cache to learn the outcome once the transaction settles.
   */
  writeInTransaction(id: string, position: Position, update: (current: D | null) => D | null, written: string[]): 'applied' | 'duplicate' {
    const key = [this.name, id];
    const stored = this.stored(id);
    if (stored !== undefined && comparePositions(position, toPosition(stored)) <= 0) return 'duplicate';
    const current = (stored?.d ?? null) as D | null;
    const next = update(current);
    const { removed, added } = changedIndexKeys(this.name, this.indexes(), id, current, next);
    for (const indexKey of removed) this.dbs.index.removeSync(indexKey as Key[]);
    for (const indexKey of added) this.dbs.index.putSync(indexKey as Key[], true);
    const entry = { d: next, c: String(position.commit), p: String(position.prepare) };
    this.dbs.docs.putSync(key, entry);
    this.dbs.cache.writeBegins(cacheKey(this.name, id), entry, stored !== undefined);
    written.push(cacheKey(this.name, id));
    return 'applied';
  }

  async find(query: DocQuery): Promise<readonly D[]> {
    this.isOpen();
    const plan = planQuery(this.indexes(), query);
    const out: D[] = [];
    let skip = Math.max(0, query.skip ?? 0);
    const limit = query.limit === undefined ? Infinity : Math.max(0, query.limit);
    if (limit === 0) return out;
    let rows: Iterable<Row<D>>;
    // Unless no index yields the query's order, skip and limit apply as the documents stream by (a
    // covering index skips on its keys alone, without reading the skipped documents).
    if (!plan.ordered && query.orderBy !== undefined) rows = sortRows([...this.rows(plan.index)], query);
    else if (plan.covered && plan.index !== null) [rows, skip] = [this.rowsOf(this.ids(plan.index, plan.reverse, skip)), 0];
    else rows = this.rows(plan.index, plan.reverse);
    for (const { doc } of rows) {
      if (!matches(doc, query)) continue;
      if (skip > 0) skip -= 1;
      else if (out.push(doc) >= limit) break;
    }
    return out;
  }

  async count(query: Omit<DocQuery, 'skip' | 'limit' | 'orderBy'>): Promise<number> {
    this.isOpen();
    const plan = planQuery(this.indexes(), query);
    if (plan.covered && plan.index !== null) return this.dbs.index.getKeysCount(this.bounds(plan.index, false));
    let n = 0;
    for (const { doc } of this.rows(plan.index)) if (matches(doc, query)) n += 1;
    return n;
  }

  private bounds(index: IndexKey, reverse: boolean) {
    const low = [this.name, index.name, ...index.prefix, ...(index.from === undefined ? [] : [index.from])] as Key[];
    const high = [this.name, index.name, ...index.prefix, END] as Key[];
    return reverse ? { start: high, end: low, reverse: true } : { start: low, end: high };
  }

  /** Document ids under an index range, in its order, past the first `offset`. */
  private *ids(index: IndexKey, reverse: boolean, offset = 0): Iterable<string> {
    for (const key of this.dbs.index.getKeys({ ...this.bounds(index, reverse), offset })) yield String(key[key.length - 1]);
  }

  /** The live documents of these ids. */
  private *rowsOf(ids: Iterable<string>): Iterable<Row<D>> {
    for (const id of ids) {
      const stored = this.dbs.docs.get([this.name, id]);
      if (stored?.d != null) yield { id, doc: stored.d as D };
    }
  }

  /** Live documents under an index range (ids read from the index, then their documents), else all of them. */
  private *rows(index: IndexKey | null, reverse = false): Iterable<Row<D>> {
    if (index === null) {
      for (const { key, value } of this.dbs.docs.getRange(inCollection(this.name)))
        if (value.d !== null) yield { id: String(key[1]), doc: value.d as D };
      return;
    }
    yield* this.rowsOf(this.ids(index, reverse));
  }
}

export async function openLmdbReadStore(path: string): Promise<LmdbReadStore> {
  const root = open({ path, compression: false });
  const dbs: Dbs = {
    root,
    docs: root.openDB({ name: 'docs', sharedStructuresKey: SHARED_STRUCTURES, ...sharedStructureLimits }),
    index: root.openDB({ name: 'index' }),
    checkpoints: root.openDB({ name: 'checkpoints' }),
    indexes: root.openDB({ name: 'indexes' }),
    cache: new LmdbDocCache(DOC_CACHE_SIZE),
    settle: async (written, transaction) => {
      try {
        const result = await transaction;
        dbs.cache.settle(written, true);
        tell(written);
        return result;
      } catch (error) {
        dbs.cache.settle(written, false);
        throw error;
      }
    },
  };
  /** The indexes of each collection, as declared by its readers since this process started. */
  const declared = new Map<string, IndexSpec[]>();
  const listeners = new Set<(keys: WrittenKeys) => void>();
  const tell = (keys: WrittenKeys) => {
    if (keys === 'all' || keys.length > 0) for (const listener of listeners) listener(keys);
  };
  const collections = new Map<string, LmdbCollection<Doc>>();
  let closed = false;
  const isOpen = (): void => {
    if (closed) throw fail('store_closed', 'the read store is closed');
  };
  const named = (name: string): LmdbCollection<Doc> => {
    let collection = collections.get(name);
    if (collection === undefined) {
      collection = new LmdbCollection(dbs, name, () => declared.get(name) ?? [], isOpen);
      collections.set(name, collection);
    }
    return collection;
  };
  /**
   * Index entries are derived data. The indexes named for a collection in this process accumulate (a
   * reader naming it with none, like a projection's batch, changes nothing); when they differ from the ones
   * the environment maintains, the collection is re-indexed from its documents, which builds the new ones
   * and drops the keys of those no longer declared (a key nobody maintains would go stale).
   */
  const declare = (name: string, wanted: readonly IndexSpec[]) => {
    const all = new Map((declared.get(name) ?? []).map((spec) => [indexName(spec), spec]));
    for (const spec of wanted) if (!all.has(indexName(spec))) all.set(indexName(spec), spec);
    declared.set(name, [...all.values()]);
    if (wanted.length === 0) return;
    const stored = dbs.indexes.get(name) ?? [];
    // A data directory of an earlier layout (a key per field and per pair of fields) has no entry in `indexes`:
    // its collections are re-indexed once, which drops the old keys with the rest.
    if (stored.length === all.size && stored.every((n) => all.has(n))) return;
    reindex(name);
  };
  /** Rebuilds the collection's index keys from its documents, for the indexes declared; in a write transaction. */
  const indexAll = (name: string) => {
    const all = declared.get(name) ?? [];
    for (const key of dbs.index.getKeys(inCollection(name))) dbs.index.removeSync(key);
    for (const { key, value } of dbs.docs.getRange(inCollection(name))) {
      if (value.d !== null)
        for (const indexKey of indexKeys(name, all, String(key[1]), value.d)) dbs.index.putSync(indexKey as Key[], true);
    }
    dbs.indexes.putSync(name, all.map(indexName));
  };
  const reindex = (name: string) => root.transactionSync(() => indexAll(name));
  const removeAll = (name: string) => {
    dbs.indexes.removeSync(name);
    for (const key of dbs.docs.getKeys(inCollection(name))) dbs.docs.removeSync(key);
    for (const key of dbs.index.getKeys(inCollection(name))) dbs.index.removeSync(key);
  };
  /**
   * After a transaction removed collection `name` (replaced or dropped): the cache drops what it read before
   * the commit, the other thread's store is told, and the name is forgotten. (The cache is not cleared before
   * the transaction too: until it commits, LMDB serves what the cache holds.)
   */
  const removed = (name: string) => {
    dbs.cache.clear();
    tell('all');
    declared.delete(name);
    collections.delete(name);
  };

  return {
    onWritten(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    forget(keys) {
      root.resetReadTxn();
      if (keys === 'all') dbs.cache.clear();
      else dbs.cache.forget(keys);
    },
    collection<D extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Collection<D> {
      isOpen();
      const collection = named(name);
      declare(name, indexes);
      return collection as unknown as Collection<D>;
    },
    async clear() {
      isOpen();
      await root.transaction(() => {
        // Keys only: the shared structures (under a symbol, which a range never yields) stay, as documents refer to them.
        for (const key of dbs.docs.getKeys()) dbs.docs.removeSync(key);
        for (const key of dbs.index.getKeys()) dbs.index.removeSync(key);
        for (const key of dbs.checkpoints.getKeys()) dbs.checkpoints.removeSync(key);
      });
      dbs.cache.clear();
      for (const [name, list] of declared) if (list.length > 0) reindex(name);
      tell('all');
    },
    async replace(target, source) {
      isOpen();
      declare(target, declared.get(source) ?? []);
      await root.transaction(() => {
        removeAll(target);
        for (const { key, value } of dbs.docs.getRange(inCollection(source))) dbs.docs.putSync([target, key[1] as Key], value);
        removeAll(source);
        indexAll(target);
      });
      removed(source);
    },
    async drop(name) {
      isOpen();
      await root.transaction(() => removeAll(name));
      removed(name);
    },
    async checkpoint(name) {
      isOpen();
      const stored = dbs.checkpoints.get(name);
      return stored === undefined ? null : toPosition(stored);
    },
    async commit(writes: readonly DocWrite[], move) {
      isOpen();
      const written: string[] = [];
      return dbs.settle(
        written,
        root.transaction(() => {
          const stored = dbs.checkpoints.get(move.name);
          if (!samePosition(stored === undefined ? null : toPosition(stored), move.previous)) return 'mismatch' as const;
          for (const write of writes) named(write.collection).writeInTransaction(write.id, write.position, () => write.doc, written);
          dbs.checkpoints.putSync(move.name, { c: String(move.next.commit), p: String(move.next.prepare) });
          return 'ok' as const;
        }),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await root.close();
    },
  };
}
