import { afterAll, describe, expect, it } from 'vitest';
import type { TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { openPostgresGraphStore, type PostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { BULK_BOUND, fixture } from '../support/bulk-fixture.js';
import { pgGraphContents } from '../support/pg-graph-contents.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/**
 * The bulk load of the PostgreSQL graph store (infra/postgres/pg-graph-bulk.ts) on a real PostgreSQL: the same
 * fixture as the LMDB bulk load's tests, bulk-loaded, equals a fold of it row for row, and the fold after it
 * skips what the load covered, waits while it runs, and a killed load is started over.
 */
if (!external.postgresUrl) {
  skippedSuite('PostgreSQL graph store bulk load', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  const url = external.postgresUrl;
  const schemas = postgresSchemas(url);
  afterAll(() => schemas.dropAll());
  const open = (schema: string) => openPostgresGraphStore({ url, schema, superNodeBound: BULK_BOUND, poolSize: 2 });

  async function folded(batches: readonly TransferBatch[]): Promise<string> {
    const schema = schemas.fresh('graph');
    const store = await open(schema);
    for (const batch of batches) await store.fold([batch]);
    await store.close();
    return schema;
  }

  async function bulkLoaded(batches: Iterable<TransferBatch>, then?: (store: PostgresGraphStore) => Promise<void>): Promise<string> {
    const schema = schemas.fresh('graph');
    const store = await open(schema);
    await store.bulkLoad({ network: 'ETH', batches, workDir: '' });
    await then?.(store);
    await store.close();
    return schema;
  }

  describe('bulk load of the PostgreSQL graph store', () => {
    it('builds the store a fold of the same transfers builds (edges, kept with the bound, nodes, coverage)', async () => {
      const batches = fixture();
      const expected = await pgGraphContents(url, await folded(batches));
      expect(expected.edges.length).toBeGreaterThan(2000);
      expect(expected.edges.filter((e) => !(e as { kept: boolean }).kept).length).toBeGreaterThan(100);
      expect(await pgGraphContents(url, await bulkLoaded(batches))).toEqual(expected);
    });

    it('then the fold skips transfers in the blocks it covered and folds later ones, as a fold of all would', async () => {
      const history = fixture(6000);
      const later = fixture(2000, 6000);
      const again = fixture(1000, 2000).map((b) => ({ ...b, positions: 'blocks' as const }));
      const schema = await bulkLoaded(history, async (store) => {
        expect(await store.fold(again)).toEqual({ folded: 0, skipped: 1000 });
        for (const batch of later) await store.fold([batch]);
      });
      expect(await pgGraphContents(url, schema)).toEqual(await pgGraphContents(url, await folded([...history, ...later])));
    });

    it('restarts a load that was killed half way, counting nothing twice; the fold waits for it', async () => {
      const batches = fixture();
      const schema = schemas.fresh('graph');
      const store = await open(schema);
      function* dying() {
        yield* batches.slice(0, 5);
        throw new Error('killed');
      }
      try {
        await expect(store.bulkLoad({ network: 'ETH', batches: dying(), workDir: '' })).rejects.toThrow('killed');
        await expect(store.fold([batches[0]!])).rejects.toThrow(/bulk load of ETH is under way/);
        await store.bulkLoad({ network: 'ETH', batches, workDir: '' });
        await expect(store.bulkLoad({ network: 'ETH', batches, workDir: '' })).rejects.toThrow(/bulk-loaded already/);
        expect(await store.size('ETH')).toBe(batches.flatMap((b) => b.transfers).filter((t) => t.from !== t.to).length);
      } finally {
        await store.close();
      }
      expect(await pgGraphContents(url, schema)).toEqual(await pgGraphContents(url, await folded(batches)));
    });

    it('refuses a network that holds transfers already', async () => {
      const batches = fixture(1000);
      const store = await open(await folded(batches.slice(0, 1)));
      try {
        await expect(store.bulkLoad({ network: 'ETH', batches, workDir: '' })).rejects.toThrow(/holds ETH data already/);
      } finally {
        await store.close();
      }
    });
  });
}
