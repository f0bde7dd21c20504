import { join } from 'node:path';
import { type Database, open, type RootDatabase } from 'lmdb';
import { fail } from '../../domain/shared/errors.js';
import type { StoredAppend } from './event-record.codec.js';

/** The one LMDB environment of a data directory's store: its data file, and LMDB's lock file beside it. */
export const STORE_FILE = 'store.mdb';

/**
 * The layout of the store's databases. 2: the events database is LZ4-compressed (lmdb-js `compression`),
 * which a reader of layout 1 (uncompressed, written by the first LMDB store) would misread, and the
 * reverse: a store of another layout is refused at open, never misread.
 */
export const STORE_FORMAT = 2;
/** Values of the events database longer than this are compressed (an append of one small event is not worth it). */
const COMPRESS_ABOVE_BYTES = 256;

/** A stream's append as the stream index keeps it under [stream, revision of its first event]: its commit, then its event ids. */
export type StreamEntry = readonly [commit: number, ...ids: string[]];

/**
 * The databases of the store's environment, all written in the same transactions:
 *   events       commit → StoredAppend (one entry per append; positions are { commit, index in the append })
 *   streams      [stream, revision of the append's first event] → StreamEntry
 *   checkpoints  name → [commit, prepare] as decimal strings (the CheckpointStore)
 *   meta         'format' → STORE_FORMAT
 * Commits are written in increasing order with LMDB's append flag, so the events database's pages are
 * filled instead of split in half.
 */
export interface StoreEnvironment {
  readonly env: RootDatabase;
  readonly events: Database<StoredAppend, number>;
  readonly streams: Database<StreamEntry, [string, number]>;
  readonly checkpoints: Database<readonly [commit: string, prepare: string], string>;
  /** 'format' → STORE_FORMAT. */
  readonly meta: Database<number, string>;
}

/**
 * Opens (creating) the environment in `dir`. With `fsync`, a commit resolves once it is on disk (no
 * overlapping sync: a resolved append is durable, which is what the service acknowledges); without it, the
 * OS writes the pages when it likes (tests and benches). The threads of one process share the environment,
 * so every opener of a path must pass the same flags.
 */
export function openStoreEnvironment(dir: string, options: { fsync: boolean; writer?: boolean }): StoreEnvironment {
  const env = open({ path: join(dir, STORE_FILE), maxDbs: 4, noSync: !options.fsync, overlappingSync: false, compression: false });
  const stored = {
    env,
    events: env.openDB<StoredAppend, number>({ name: 'events', compression: { threshold: COMPRESS_ABOVE_BYTES } }),
    streams: env.openDB<StreamEntry, [string, number]>({ name: 'streams' }),
    checkpoints: env.openDB<readonly [commit: string, prepare: string], string>({ name: 'checkpoints' }),
    meta: env.openDB<number, string>({ name: 'meta' }),
  };
  try {
    checkFormat(stored, dir, options.writer ?? true);
  } catch (error) {
    void env.close();
    throw error;
  }
  return stored;
}

/**
 * A new store is stamped with STORE_FORMAT; an existing one must carry it. A store with events and no stamp
 * is of layout 1 (the first LMDB store, before its events were compressed).
 */
function checkFormat(stored: StoreEnvironment, dir: string, writer: boolean): void {
  const format = stored.meta.get('format');
  if (format === STORE_FORMAT) return;
  const empty = stored.events.getKeysCount({ limit: 1 }) === 0;
  if (format === undefined && empty) {
    if (writer) stored.meta.putSync('format', STORE_FORMAT);
    return;
  }
  throw fail(
    'store_corrupt',
    `the store in ${dir} has layout ${format ?? 1}; this version reads layout ${STORE_FORMAT} only (move it aside to start a new store)`,
  );
}
