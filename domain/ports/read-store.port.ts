import type { Position } from './event-store.port.js';

/**
 * Read models live in collections of plain JSON documents keyed by id. Every write names the `$all`
 * position of the event that caused it, and a write whose position is not after the document's last one
 * changes nothing: a replayed or duplicated event is a no-op (revision-guarded upserts in MongoDB).
 * Projections build one typed repository per read model on top of this port (projections/*.repository.ts).
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

export interface Collection<D extends Doc> {
  get(id: string): Promise<StoredDoc<D> | null>;
  /**
   * Applies `update` to the current document (null when absent) unless `position` is not after the stored
   * one. `update` returning null deletes the document. Resolves 'applied' or 'duplicate'.
   */
  apply(id: string, position: Position, update: (current: D | null) => D | null): Promise<'applied' | 'duplicate'>;
  find(query: DocQuery): Promise<readonly D[]>;
  count(query: Omit<DocQuery, 'skip' | 'limit' | 'orderBy'>): Promise<number>;
}

export interface ReadStore {
  /** `indexes` lists the fields queried with `where`/`since`/`orderBy`, created at start. */
  collection<D extends Doc>(name: string, indexes?: readonly string[]): Collection<D>;
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
