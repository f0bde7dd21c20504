import { present } from '../../domain/shared/present.js';
import type { Collection as MongoCollection, Db, Document, Filter, Sort } from 'mongodb';
import { comparePositions, type Position } from '../../domain/ports/event-store.port.js';
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
import { createMongoCheckpointStore } from './mongo-checkpoint-store.js';
import { fail } from '../../domain/shared/errors.js';
import { isDuplicateKey, positionKey, positionOfKey } from './mongo-connect.js';
import { samePosition } from '../embedded/lmdb-checkpoint-store.js';

/**
 * The read-store port on MongoDB, one collection per read model, stored as
 *   { _id, p: position key, live, j: the document as JSON text (null once deleted), f: its top-level scalars }
 * - `j` keeps the document exactly (no key or value restrictions, nested arrays, -0…), which also keeps us
 *   clear of FerretDB's data-model gaps; `f` holds what queries filter and sort on, indexed as `f.<field>`.
 * - Every write is guarded by position: an update's filter names the position it read (compare-and-set),
 *   the first write is an insert that a competing insert loses on `_id`; a lost race re-reads and re-decides.
 *   No multi-document transaction is needed (FerretDB has none).
 * - A delete keeps a tombstone (`live: false`) with its position, so an older replayed event cannot bring
 *   the document back.
 */

interface Stored {
  _id: string;
  p: string;
  live: boolean;
  j: string | null;
  f: Record<string, string | number | boolean | null>;
}

/** Names MongoDB (and FerretDB) accept as field names inside `f`. */
const SAFE_FIELD = /^[^.$\0][^.\0]*$/;

function queryField(field: string): string {
  if (!SAFE_FIELD.test(field)) throw fail('invalid_state', `read-store field ${JSON.stringify(field)} cannot be queried`);
  return `f.${field}`;
}

/** Top-level scalars of the document: what `where`, `since` and `orderBy` can name. */
function scalars(doc: Doc): Stored['f'] {
  const out: Stored['f'] = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!SAFE_FIELD.test(key)) continue;
    if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) out[key] = value;
    else if (typeof value === 'string' && !value.includes('\0')) out[key] = value;
  }
  return out;
}

function filterOf(query: Pick<DocQuery, 'where' | 'since'>): Filter<Stored> {
  const conditions: Filter<Document>[] = [];
  for (const [field, value] of Object.entries(query.where ?? {})) conditions.push({ [queryField(field)]: value });
  if (query.since) conditions.push({ [queryField(query.since.field)]: { $gte: query.since.value } });
  return (conditions.length === 0 ? { live: true } : { live: true, $and: conditions }) as Filter<Stored>;
}

class MongoReadCollection<D extends Doc> implements Collection<D> {
  constructor(
    private readonly docs: MongoCollection<Stored>,
    private readonly ready: () => Promise<void>,
  ) {}

  async get(id: string): Promise<StoredDoc<D> | null> {
    await this.ready();
    const stored = await this.docs.findOne({ _id: id, live: true });
    return stored?.j == null ? null : { id, doc: JSON.parse(stored.j) as D, position: positionOfKey(stored.p) };
  }

  async entry(id: string): Promise<DocEntry<D> | null> {
    await this.ready();
    const stored = await this.docs.findOne({ _id: id });
    return stored === null ? null : { doc: stored.j === null ? null : (JSON.parse(stored.j) as D), position: positionOfKey(stored.p) };
  }

  async apply(id: string, position: Position, update: (current: D | null) => D | null): Promise<'applied' | 'duplicate'> {
    await this.ready();
    const key = positionKey(position);
    for (;;) {
      const existing = await this.docs.findOne({ _id: id }, { projection: { p: 1, j: 1 } });
      if (existing && existing.p >= key) return 'duplicate';
      const next = update(existing?.j == null ? null : (JSON.parse(existing.j) as D));
      const fields = { p: key, live: next !== null, j: next === null ? null : JSON.stringify(next), f: next === null ? {} : scalars(next) };
      if (!existing) {
        try {
          await this.docs.insertOne({ _id: id, ...fields });
          return 'applied';
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          continue;
        }
      }
      const result = await this.docs.updateOne({ _id: id, p: existing.p }, { $set: fields });
      if (result.matchedCount === 1) return 'applied';
    }
  }

  async find(query: DocQuery): Promise<readonly D[]> {
    await this.ready();
    let cursor = this.docs.find(filterOf(query), { projection: { j: 1 } });
    if (query.orderBy) {
      const direction = query.orderBy.direction === 'asc' ? 1 : -1;
      // Ties broken by id, as the embedded store does, so that pages are stable.
      cursor = cursor.sort({ [queryField(query.orderBy.field)]: direction, _id: direction } as Sort);
    }
    if (query.skip) cursor = cursor.skip(Math.max(0, query.skip));
    if (query.limit !== undefined) {
      if (query.limit <= 0) return [];
      cursor = cursor.limit(query.limit);
    }
    return (await cursor.toArray()).map((stored) => JSON.parse(present(stored.j, 'every document is written with its JSON in j')) as D);
  }

  async count(query: Omit<DocQuery, 'skip' | 'limit' | 'orderBy'>): Promise<number> {
    await this.ready();
    return this.docs.countDocuments(filterOf(query));
  }
}

function checkName(name: string): void {
  if (name.startsWith('_') || name.startsWith('system.') || name.includes('$') || name.length === 0) {
    throw fail('invalid_state', `invalid read-model collection name ${JSON.stringify(name)}`);
  }
}

/** Projection checkpoints, kept apart from the processors' (a `_` collection is not a read model). */
const PROJECTION_CHECKPOINTS = '_projection_checkpoints';

/**
 * FerretDB 1.24 never answers an update command with as many replacements of existing documents as its
 * backend has pooled connections (it holds one per statement until the command ends): 100 on SQLite, 50 on
 * PostgreSQL (measured; the next one waits forever, and so does every later command).
 */
const COPY_BATCH = 25;

/**
 * Overwrites `into` with the documents of `from` (tombstones included) and deletes what `from` lacks.
 * A copy, not renameCollection: FerretDB v1 implements no `dropTarget`. Not atomic: a racing write to
 * `into` may be lost, which is why a rebuild first pauses every projection runner (through the log).
 */
async function copyOver(from: MongoCollection<Stored>, into: MongoCollection<Stored>): Promise<void> {
  const kept = new Set<string>();
  let batch: Stored[] = [];
  const flush = async () => {
    if (batch.length > 0)
      await into.bulkWrite(
        batch.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
        { ordered: false },
      );
    batch = [];
  };
  for await (const doc of from.find({})) {
    kept.add(doc._id);
    batch.push(doc);
    if (batch.length >= COPY_BATCH) await flush();
  }
  await flush();
  let stale: string[] = [];
  for await (const { _id } of into.find({}, { projection: { _id: 1 } })) {
    if (!kept.has(_id)) stale.push(_id);
    if (stale.length >= COPY_BATCH) {
      await into.deleteMany({ _id: { $in: stale } });
      stale = [];
    }
  }
  if (stale.length > 0) await into.deleteMany({ _id: { $in: stale } });
}

/** MongoDB's NamespaceNotFound (26): dropping what is not there. */
const isNamespaceNotFound = (error: unknown): boolean => (error as { code?: unknown }).code === 26;

export function createMongoReadStore(db: Db, options: { onClose?: () => Promise<void> } = {}): ReadStore {
  const indexed = new Map<string, Promise<unknown>>();
  const checkpoints = createMongoCheckpointStore(db, { collection: PROJECTION_CHECKPOINTS });
  let closed = false;
  const isOpen = () => {
    if (closed) throw fail('store_closed', 'the read store is closed');
  };
  /** A dropped collection gets its indexes again when it is next named. */
  const forgetIndexes = (name: string) => {
    for (const key of [...indexed.keys()]) if (key.startsWith(`${name}/`)) indexed.delete(key);
  };
  const drop = async (name: string) => {
    isOpen();
    checkName(name);
    await db
      .collection(name)
      .drop()
      .catch((error: unknown) => {
        if (!isNamespaceNotFound(error)) throw error;
      });
    forgetIndexes(name);
  };
  return {
    collection<D extends Doc>(name: string, indexes: readonly IndexSpec[] = []): Collection<D> {
      isOpen();
      checkName(name);
      const docs = db.collection<Stored>(name);
      // Indexes are created when the collection is first named (at start) and awaited before its first use.
      const keyOf = (spec: IndexSpec) => `${name}/${indexFields(spec).join('>')}`;
      const pending = indexes.filter((spec) => !indexed.has(keyOf(spec)));
      const created = Promise.all(
        pending.map((spec) => docs.createIndex(Object.fromEntries(indexFields(spec).map((field) => [queryField(field), 1])))),
      );
      for (const spec of pending) indexed.set(keyOf(spec), created);
      created.catch(() => undefined);
      const all = () => Promise.all(indexes.map((spec) => indexed.get(keyOf(spec))));
      return new MongoReadCollection<D>(docs, async () => {
        isOpen();
        await all();
      });
    },
    async clear() {
      isOpen();
      // Every read model; collections whose names start with `_` (checkpoints) are not read models.
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name as string);
      await Promise.all(names.filter((n) => !n.startsWith('_') && !n.startsWith('system.')).map((n) => db.collection(n).deleteMany({})));
    },
    async replace(target, source) {
      isOpen();
      checkName(target);
      checkName(source);
      await copyOver(db.collection<Stored>(source), db.collection<Stored>(target));
      await drop(source);
    },
    drop,
    async checkpoint(name) {
      isOpen();
      return checkpoints.load(name);
    },
    async commit(writes, move) {
      isOpen();
      // The checkpoint is checked first so that a runner that lost its name to another writes nothing.
      if (!samePosition(await checkpoints.load(move.name), move.previous)) return 'mismatch';
      // One write per document, the latest: what the guarded writes in order would leave.
      const latest = new Map<string, DocWrite>();
      for (const write of writes) {
        const key = `${write.collection}\u0000${write.id}`;
        const known = latest.get(key);
        if (!known || comparePositions(write.position, known.position) > 0) latest.set(key, write);
      }
      const byCollection = new Map<string, DocWrite[]>();
      for (const write of latest.values()) {
        const list = byCollection.get(write.collection);
        if (list) list.push(write);
        else byCollection.set(write.collection, [write]);
      }
      // Each document through the same compare-and-set as `apply` (a guarded `$lt` upsert lost a document on
      // FerretDB 1.24: found by the contract suite).
      for (const [name, list] of byCollection) {
        checkName(name);
        const collection = new MongoReadCollection<Doc>(db.collection<Stored>(name), async () => undefined);
        for (const write of list) await collection.apply(write.id, write.position, () => write.doc);
      }
      return checkpoints.store(move.name, move.next, move.previous);
    },
    async close() {
      if (closed) return;
      closed = true;
      await options.onClose?.();
    },
  };
}
