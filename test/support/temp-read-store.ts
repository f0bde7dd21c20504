import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadStore } from '../../domain/ports/read-store.port.js';
import { openLmdbReadStore } from '../../infra/embedded/lmdb-read-store.js';

/**
 * The embedded read store (LMDB) in a directory of its own, for a test that folds read models without a
 * service: the store the service runs on, not a stand-in. Closing it removes the directory.
 */
export async function openTempReadStore(): Promise<ReadStore> {
  const dir = await mkdtemp(join(tmpdir(), 'read-store-'));
  const store = await openLmdbReadStore(dir);
  return {
    ...store,
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
