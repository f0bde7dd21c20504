import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { chainBatch, snapshotOf, transferAt, transferGraphStoreContract } from '../contracts/transfer-graph-store.contract.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/** The TransferGraphStore contract on a real PostgreSQL (npm run test:external starts Debian's), a schema per store. */
if (!external.postgresUrl) {
  skippedSuite('TransferGraphStore contract: PostgreSQL', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  const schemas = postgresSchemas(external.postgresUrl);
  afterAll(() => schemas.dropAll());
  const open = (schema: string, superNodeBound = 3) =>
    openPostgresGraphStore({ url: external.postgresUrl, schema, superNodeBound, poolSize: 2 });
  transferGraphStoreContract('PostgreSQL', (superNodeBound) => open(schemas.fresh('graph'), superNodeBound), { flowsOfMany: true });

  describe('PostgreSQL graph store shared by replicas', () => {
    it('counts each transfer once when two processes fold overlapping blocks side by side, hubs and all', async () => {
      // Every block touches the hub: the replicas contend for its node and ranked edges on every fold.
      const blocks = Array.from({ length: 60 }, (_, b) => [
        transferAt(`s${b % 17}`, 'hub', (b % 9) + 1, b + 1),
        transferAt('hub', `r${b % 13}`, (b % 5) + 1, b + 1, 1),
        transferAt(`s${b % 17}`, `r${b % 13}`, 2, b + 1, 2),
      ]);
      const addresses = ['hub', ...Array.from({ length: 17 }, (_, i) => `s${i}`), ...Array.from({ length: 13 }, (_, i) => `r${i}`)];
      const schema = schemas.fresh('graph');
      const [one, two] = [await open(schema), await open(schema)];
      const reference = await open(schemas.fresh('graph'));
      try {
        await reference.fold([chainBatch(blocks.flat())]);
        // Replica one folds blocks in ranges of 4, replica two in ranges of 3 from the end: every block twice, concurrently.
        const ranges = (size: number) =>
          Array.from({ length: Math.ceil(blocks.length / size) }, (_, i) => blocks.slice(i * size, i * size + size).flat());
        const foldAll = async (store: typeof one, batches: ReturnType<typeof ranges>) => {
          let folded = 0;
          for (const batch of batches) folded += (await store.fold([chainBatch(batch, { positions: 'blocks' })])).folded;
          return folded;
        };
        const [a, b] = await Promise.all([foldAll(one, ranges(4)), foldAll(two, ranges(3).reverse())]);
        expect(a + b).toBe(blocks.flat().length);
        expect(await one.size('ETH')).toBe(blocks.flat().length);
        expect(await snapshotOf(two, addresses)).toEqual(await snapshotOf(reference, addresses));
      } finally {
        await Promise.all([one.close(), two.close(), reference.close()]);
      }
    });
  });
}
