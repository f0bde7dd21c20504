import { present } from '../../domain/shared/present.js';
import type { Position } from '../../domain/ports/event-store.port.js';
import {
  indexFields,
  type Collection,
  type Doc,
  type DocEntry,
  type DocQuery,
  type DocWrite,
  type IndexSpec,
  type ReadStore,
  type StoredDoc,
} from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { matches, runQuery, type Row } from './doc-query.js';
import { samePosition } from './lmdb-checkpoint-store.js';

/**
 * The embedded read store: plain maps, rebuilt by replaying the event log at start. Deleted documents keep a
 * tombstone with their last position, so a replayed older event cannot bring a document back. Stored
 * documents are deep-frozen copies: nothing a caller holds is a live view into the store.
 */

interface Entry {
  doc: Doc | null;
  position: Position;
}

const isAfter = (a: Position, b: Position): boolean => a.commit > b.commit || (a.commit === b.commit && a.prepare > b.prepare);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Equality lookups only need the value's identity; non-primitive values are never indexed. */
function indexKey(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? `${type}:${String(value)}` : undefined;
}

class MemoryCollection<D extends Doc> implements Collection<D> {
  private readonly entries = new Map<string, Entry>();
  /** field → index key → ids of live documents. */
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly isOpen: () => void) {}

  addIndexes(fields: readonly string[]): void {
    for (const field of fields) {
      if (this.indexes.has(field)) continue;
      this.indexes.set(field, new Map());
      for (const [id, entry] of this.entries) if (entry.doc !== null) this.indexOne(field, id, entry.doc, 'add');
    }
  }

  clear(): void {
    this.entries.clear();
    for (const index of this.indexes.values()) index.clear();
  }

  /** Takes over `source`'s documents (and its indexed fields), in place: handles on this one stay valid. */
  adopt(source: MemoryCollection<Doc>): void {
    this.clear();
    for (const field of source.indexes.keys()) if (!this.indexes.has(field)) this.indexes.set(field, new Map());
    for (const [id, entry] of source.entries) {
      this.entries.set(id, entry);
      if (entry.doc !== null) this.reindex(id, entry.doc, 'add');
    }
  }

  async get(id: string): Promise<StoredDoc<D> | null> {
    this.isOpen();
    const entry = this.entries.get(id);
    return entry?.doc == null ? null : { id, doc: entry.doc as D, position: entry.position };
  }

  async entry(id: string): Promise<DocEntry<D> | null> {
    this.isOpen();
    const entry = this.entries.get(id);
    return entry === undefined ? null : { doc: entry.doc as D | null, position: entry.position };
  }

  async apply(id: string, position: Position, update: (current: D | null) => D | null): Promise<'applied' | 'duplicate'> {
    this.isOpen();
    return this.write(id, position, update);
  }

  /** The position-guarded write, synchronous so that a batch of them is atomic. */
  write(id: string, position: Position, update: (current: D | null) => D | null): 'applied' | 'duplicate' {
    const entry = this.entries.get(id);
    if (entry !== undefined && !isAfter(position, entry.position)) return 'duplicate';
    const current = (entry?.doc ?? null) as D | null;
    const next = update(current);
    const stored = next === null ? null : deepFreeze(structuredClone(next));
    if (current !== null) this.reindex(id, current, 'delete');
    if (stored !== null) this.reindex(id, stored, 'add');
    this.entries.set(id, { doc: stored, position: { commit: position.commit, prepare: position.prepare } });
    return 'applied';
  }

  async find(query: DocQuery): Promise<readonly D[]> {
    this.isOpen();
    return runQuery(this.candidates(query), query);
  }

  async count(query: Omit<DocQuery, 'skip' | 'limit' | 'orderBy'>): Promise<number> {
    this.isOpen();
    let n = 0;
    for (const row of this.candidates(query)) if (matches(row.doc, query)) n += 1;
    return n;
  }

  /** The smallest indexed equality set when `where` names an indexed field, else every live document. */
  private *candidates(query: Pick<DocQuery, 'where'>): Iterable<Row<D>> {
    let ids: Set<string> | undefined;
    for (const [field, value] of Object.entries(query.where ?? {})) {
      const index = this.indexes.get(field);
      if (index === undefined) continue;
      const hit = index.get(present(indexKey(value), 'query values are indexable scalars')) ?? new Set<string>();
      if (ids === undefined || hit.size < ids.size) ids = hit;
    }
    if (ids === undefined) {
      for (const [id, entry] of this.entries) if (entry.doc !== null) yield { id, doc: entry.doc as D };
      return;
    }
    // Copied so that a caller applying writes between two pulls of the iterator cannot disturb it.
    for (const id of [...ids]) {
      const doc = this.entries.get(id)?.doc;
      if (doc != null) yield { id, doc: doc as D };
    }
  }

  private reindex(id: string, doc: Doc, op: 'add' | 'delete'): void {
    for (const field of this.indexes.keys()) this.indexOne(field, id, doc, op);
  }

  private indexOne(field: string, id: string, doc: Doc, op: 'add' | 'delete'): void {
    const key = indexKey(doc[field]);
    if (key === undefined) return;
    const index = present(this.indexes.get(field), 'only indexed fields are passed here');
    let ids = index.get(key);
    if (op === 'add') {
      if (ids === undefined) index.set(key, (ids = new Set()));
      ids.add(id);
    } else if (ids !== undefined) {
      ids.delete(id);
      if (ids.size === 0) index.delete(key);
    }
  }
}

export function createMemoryReadStore(): ReadStore {
  const collections = new Map<string, MemoryCollection<Doc>>();
  const checkpoints = new Map<string, Position>();
  const named = (name: string): MemoryCollection<Doc> => {
    let collection = collections.get(name);
    if (collection === undefined) collections.set(name, (collection = new MemoryCollection(isOpen)));
    return collection;
  };
  let closed = false;
  const isOpen = (): void => {
    if (closed) throw fail('store_closed', 'the read store is closed');
  };
  return {
    collection<D extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Collection<D> {
      isOpen();
      const collection = named(name);
      // Equality sets per field: an index's leading field narrows a `where` (order and ranges are sorted here).
      collection.addIndexes(indexes.map((spec) => present(indexFields(spec)[0], 'an index names a field')));
      return collection as unknown as Collection<D>;
    },
    async clear() {
      isOpen();
      for (const collection of collections.values()) collection.clear();
    },
    async replace(target, source) {
      isOpen();
      const from = collections.get(source) ?? new MemoryCollection(isOpen);
      const into = collections.get(target);
      if (into === undefined) collections.set(target, from);
      else into.adopt(from);
      collections.delete(source);
    },
    async drop(name) {
      isOpen();
      collections.get(name)?.clear();
      collections.delete(name);
    },
    async checkpoint(name) {
      isOpen();
      return checkpoints.get(name) ?? null;
    },
    async commit(writes: readonly DocWrite[], move) {
      isOpen();
      if (!samePosition(checkpoints.get(move.name) ?? null, move.previous)) return 'mismatch';
      for (const write of writes) named(write.collection).write(write.id, write.position, () => write.doc);
      checkpoints.set(move.name, move.next);
      return 'ok';
    },
    async close() {
      closed = true;
      collections.clear();
    },
  };
}
