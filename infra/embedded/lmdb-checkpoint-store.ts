import { mkdir } from 'node:fs/promises';
import type { Position } from '../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { migrateLegacyCheckpoints } from './legacy-data-dir.js';
import { openStoreEnvironment, type StoreEnvironment } from './store-environment.js';

/** Compare-and-set on checkpoints: the stored position is the one the writer last saw (null: none yet). */
export function samePosition(a: Position | null, b: Position | null): boolean {
  return a === null || b === null ? a === b : a.commit === b.commit && a.prepare === b.prepare;
}

/**
 * Checkpoints in the store's environment (the `checkpoints` database, positions as decimal strings: an
 * external store's may exceed 2^53): a compare-and-set is one
 * transaction, which reads the current value in the write transaction, so it holds against any other
 * writer of the environment, and commits with the appends of the same event-loop turn.
 * `release` is what closing gives back: nothing when the event store owns the environment.
 */
export function checkpointStoreOn(stored: StoreEnvironment, release: () => Promise<void>): CheckpointStore {
  const db = stored.checkpoints;
  let closed = false;
  const read = (name: string): Position | null => {
    const value = db.get(name);
    return value === undefined ? null : { commit: BigInt(value[0]), prepare: BigInt(value[1]) };
  };
  const assertOpen = () => {
    if (closed) throw fail('store_closed', 'the checkpoint store is closed');
  };
  return {
    async load(name) {
      assertOpen();
      return read(name);
    },
    async store(name, next, expected) {
      assertOpen();
      return stored.env.transaction(() => {
        if (!samePosition(read(name), expected)) return 'mismatch' as const;
        db.putSync(name, [String(next.commit), String(next.prepare)]);
        return 'ok' as const;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await release();
    },
  };
}

/**
 * Checkpoints in `dir`'s store environment when no embedded event store opens it (EVENT_STORE=postgres or
 * esdb), with the checkpoints of a legacy data directory migrated first (`legacyDataDir`).
 */
export async function openLmdbCheckpointStore(dir: string, options: { legacyDataDir?: string } = {}): Promise<CheckpointStore> {
  await mkdir(dir, { recursive: true });
  const stored = openStoreEnvironment(dir, { fsync: true });
  try {
    if (options.legacyDataDir !== undefined) await migrateLegacyCheckpoints(options.legacyDataDir, stored);
  } catch (error) {
    await stored.env.close();
    throw error;
  }
  return checkpointStoreOn(stored, () => stored.env.close());
}
