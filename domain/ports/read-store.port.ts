import type { Position } from './event-store.port.js';

/**
 * Read models live in collections of plain JSON documents keyed by id. Every write names the `$all`
 * position of the event that caused it, and a write whose position is not after the document's last one
 * changes nothing: a replayed or duplicated event is a no-op (position-guarded compare-and-set writes in MongoDB).
 * Projections build one typed repository per read model on top of this port, next to the projection that
 * writes it (e.g. accountRepository in projections/accounts.projection.ts).
 */

export type Doc = Readonly<Record<string, unknown>>;

export interface StoredDoc<D extends Doc> {
  readonly id: string;
  readonly doc: D;
  readonly position: Position;
}

/** Equality on top-level fields, optionally a lower bound on one string field (ISO dates sort as strings). */
export interface DocQuery {
  readonly where?: Readonly<Record<string, string | number | boolean | null>>;
  readonly since?: { readonly field: string; readonly value: string };
  readonly orderBy?: { readonly field: string; readonly direction: 'asc' | 'desc' };
  readonly skip?: number;
  readonly limit?: number;
}

/** What a collection holds under an id: the document, or null for a tombstone, with its last position. */
export interface DocEntry<D extends Doc> {
  readonly doc: D | null;
  readonly position: Position;
}

/** One document write of a batch: the next state (null deletes) at the position of the event behind it. */
export interface DocWrite {
  readonly collection: string;
  readonly id: string;
  readonly doc: Doc | null;
  readonly position: Position;
}

/** A checkpoint move, compare-and-set from `previous` (see CheckpointStore.store). */
export interface CheckpointMove {
  readonly name: string;
  readonly next: Position;
  readonly previous: Position | null;
}

/**
 * An index a read model declares for its queries: one field (`'status'`), or fields in order (`['user_id',
 * 'created_at']`: equality on the leading ones, then order or a `since` range on the next, as MongoDB's
 * compound indexes). Each declared index costs a write per document change, so a read model declares the
 * ones its queries walk and no more.
 */
export type IndexSpec = string | readonly string[];

/** The fields of an index, in order. */
export const indexFields = (spec: IndexSpec): readonly string[] => (typeof spec === 'string' ? [spec] : spec);

export interface Collection<D extends Doc> {
  get(id: string): Promise<StoredDoc<D> | null>;
  /** The live document or the tombstone under `id`, with its position; null when never written. */
  entry(id: string): Promise<DocEntry<D> | null>;
  /**
   * Applies `update` to the current document (null when absent) unless `position` is not after the stored
   * one. `update` returning null deletes the document. Resolves 'applied' or 'duplicate'.
   */
  apply(id: string, position: Position, update: (current: D | null) => D | null): Promise<'applied' | 'duplicate'>;
  find(query: DocQuery): Promise<readonly D[]>;
  count(query: Omit<DocQuery, 'skip' | 'limit' | 'orderBy'>): Promise<number>;
}

export interface ReadStore {
  /** `indexes`: what the collection's queries walk (`where`, `since`, `orderBy`), created at start. */
  collection<D extends Doc>(name: string, indexes?: readonly IndexSpec[]): Collection<D>;
  /** Removes every document of every collection. */
  clear(): Promise<void>;
  /**
   * Gives `target` the documents (and tombstones) of `source` and removes `source`: a read model rebuilt
   * beside the live one takes over; handles already held on `target` see the new documents. Not atomic on
   * every adapter (a write racing with it may be lost): callers keep writers of `target` away meanwhile,
   * as a rebuild does by pausing every projection runner through the log.
   */
  replace(target: string, source: string): Promise<void>;
  /** Removes one collection and its documents (e.g. an abandoned rebuild). */
  drop(name: string): Promise<void>;
  /** Where the projection runners writing through `commit` have got to. */
  checkpoint(name: string): Promise<Position | null>;
  /**
   * Writes a batch of documents and moves a runner's checkpoint together. Each write is guarded by its
   * position like `apply` (a write not after the stored position is skipped). Embedded: one transaction, so
   * a crash never leaves documents and checkpoint apart, and 'mismatch' writes nothing. MongoDB (no
   * multi-document transactions on FerretDB): the documents first, then the checkpoint, so a crash in
   * between leaves only writes that the replay from the old checkpoint repeats as no-ops.
   */
  commit(writes: readonly DocWrite[], checkpoint: CheckpointMove): Promise<'ok' | 'mismatch'>;
  close(): Promise<void>;
}

/**
 * Where each projection or processor has got to in `$all`. `store` is a compare-and-set: it succeeds only
 * when the stored checkpoint equals `previous`, so two competing runners get 'mismatch' instead of
 * silently overwriting each other.
 */
export interface CheckpointStore {
  load(name: string): Promise<Position | null>;
  store(name: string, next: Position, previous: Position | null): Promise<'ok' | 'mismatch'>;
  close(): Promise<void>;
}
