import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TransferBatch } from '../../../../domain/ports/transfer-graph.port.js';
import { BULK_BOUND as BOUND, contents, fixture } from '../../../../test/support/bulk-fixture.js';
import { openLmdbGraphStore, type LmdbGraphStore } from '../lmdb-graph-store.js';

/** A budget whose sorters spill every 700 records (several runs per sorter on the fixture). */
const CHUNKS_OF_700 = 700_000;
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-bulk-'));
  dirs.push(dir);
  return dir;
}

async function folded(batches: readonly TransferBatch[]): Promise<string> {
  const dir = await freshDir();
  const store = await openLmdbGraphStore({ dir, superNodeBound: BOUND });
  for (const batch of batches) await store.fold([batch]);
  await store.close();
  return dir;
}

async function bulkLoaded(
  batches: Iterable<TransferBatch>,
  then?: (store: LmdbGraphStore) => Promise<void>,
  memoryBytes = CHUNKS_OF_700,
): Promise<string> {
  const dir = await freshDir();
  const store = await openLmdbGraphStore({ dir, superNodeBound: BOUND });
  await store.bulkLoad({ network: 'ETH', batches, workDir: await freshDir(), memoryBytes });
  await then?.(store);
  await store.close();
  return dir;
}

describe('bulk load of the LMDB graph store', () => {
  it('builds the store a fold of the same transfers builds (ids, pairs, ranked with the bound, nodes, coverage)', async () => {
    const batches = fixture();
    const expected = await contents(await folded(batches));
    expect(expected.pairs.length).toBeGreaterThan(1000);
    expect(expected.ranked.length).toBeLessThan(2 * expected.pairs.length);
    expect(await contents(await bulkLoaded(batches))).toEqual(expected);
  });

  it('builds the same store on a tiny memory budget (runs of 16 records, 16 addresses cached of 400)', async () => {
    const batches = fixture();
    expect(await contents(await bulkLoaded(batches, undefined, 16_000))).toEqual(await contents(await folded(batches)));
  });

  it('then the fold skips transfers in the blocks it covered and folds later ones, as a fold of all would', async () => {
    const history = fixture(6000);
    const later = fixture(2000, 6000);
    const again = fixture(1000, 2000).map((b) => ({ ...b, positions: 'blocks' as const }));
    const dir = await bulkLoaded(history, async (store) => {
      expect(await store.fold(again)).toEqual({ folded: 0, skipped: 1000 });
      for (const batch of later) await store.fold([batch]);
    });
    expect(await contents(dir)).toEqual(await contents(await folded([...history, ...later])));
  });

  it('restarts a load that was killed half way, counting nothing twice; the fold waits for it', async () => {
    const batches = fixture();
    const dir = await freshDir();
    const store = await openLmdbGraphStore({ dir, superNodeBound: BOUND });
    function* dying() {
      yield* batches.slice(0, 5);
      throw new Error('killed');
    }
    const work = await freshDir();
    await expect(store.bulkLoad({ network: 'ETH', batches: dying(), workDir: work, memoryBytes: CHUNKS_OF_700 })).rejects.toThrow('killed');
    await expect(store.fold([batches[0]!])).rejects.toThrow(/bulk load of ETH is under way/);
    await store.bulkLoad({ network: 'ETH', batches, workDir: work, memoryBytes: CHUNKS_OF_700 });
    await expect(store.bulkLoad({ network: 'ETH', batches, workDir: work })).rejects.toThrow(/bulk-loaded already/);
    await store.close();
    expect(await contents(dir)).toEqual(await contents(await folded(batches)));
  });

  it('refuses a network that holds transfers already', async () => {
    const batches = fixture(1000);
    const dir = await folded(batches.slice(0, 1));
    const store = await openLmdbGraphStore({ dir, superNodeBound: BOUND });
    await expect(store.bulkLoad({ network: 'ETH', batches, workDir: await freshDir() })).rejects.toThrow(/holds ETH data already/);
    await store.close();
  });
});
