import { join } from 'node:path';
import { type Database, open, type RootDatabase } from 'lmdb';
import type { StoredAppend } from './event-record.codec.js';

/** The one LMDB environment of a data directory's store: its data file, and LMDB's lock file beside it. */
export const STORE_FILE = 'store.mdb';

/** A stream's append as the stream index keeps it under [stream, revision of its first event]: its commit, then its event ids. */
export type StreamEntry = readonly [commit: number, ...ids: string[]];

/**
 * The databases of the store's environment, all written in the same transactions:
 *   events       commit → StoredAppend (one entry per append; positions are { commit, index in the append })
 *   streams      [stream, revision of the append's first event] → StreamEntry
 *   checkpoints  name → [commit, prepare] as decimal strings (the CheckpointStore)
 */
export interface StoreEnvironment {
  readonly env: RootDatabase;
  readonly events: Database<StoredAppend, number>;
  readonly streams: Database<StreamEntry, [string, number]>;
  readonly checkpoints: Database<readonly [commit: string, prepare: string], string>;
}

/**
 * Opens (creating) the environment in `dir`. With `fsync`, a commit resolves once it is on disk (no
 * overlapping sync: a resolved append is durable, which is what the service acknowledges); without it, the
 * OS writes the pages when it likes (tests and benches). The threads of one process share the environment,
 * so every opener of a path must pass the same flags.
 */
export function openStoreEnvironment(dir: string, options: { fsync: boolean }): StoreEnvironment {
  const env = open({ path: join(dir, STORE_FILE), maxDbs: 3, noSync: !options.fsync, overlappingSync: false, compression: false });
  return {
    env,
    events: env.openDB({ name: 'events' }),
    streams: env.openDB({ name: 'streams' }),
    checkpoints: env.openDB({ name: 'checkpoints' }),
  };
}
