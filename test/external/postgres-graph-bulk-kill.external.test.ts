import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresGraphStore } from '../../infra/postgres/pg-graph-store.js';
import { BULK_BOUND, fixture } from '../support/bulk-fixture.js';
import { bulkLoadKilledIn } from '../support/bulk-kill.js';
import { pgGraphContents } from '../support/pg-graph-contents.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/**
 * A PostgreSQL bulk load killed with SIGKILL while it stages the transfers (read) or inside its build
 * transaction (merge pairs: pairs summed, edges and nodes not yet written) leaves the network `loading`; the
 * next load wipes it and starts over, and the graph equals a fold of the same transfers from scratch.
 */
if (!external.postgresUrl) {
  skippedSuite('PostgreSQL bulk load killed', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  const url = external.postgresUrl;
  const schemas = postgresSchemas(url);
  afterAll(() => schemas.dropAll());
  const open = (schema: string) => openPostgresGraphStore({ url, schema, superNodeBound: BULK_BOUND, poolSize: 2 });

  describe('PostgreSQL bulk load killed with SIGKILL', () => {
    it.each(['read', 'merge pairs'])(
      'in its %s stage: the next load counts nothing twice',
      async (stage) => {
        const schema = schemas.fresh('graph');
        await bulkLoadKilledIn('test/external/postgres-graph-bulk-kill.child.ts', [url, schema], stage);
        const batches = fixture(20_000);
        const store = await open(schema);
        const referenceSchema = schemas.fresh('graph');
        const reference = await open(referenceSchema);
        try {
          await expect(store.fold([batches[0]!])).rejects.toThrow(/under way/);
          await store.bulkLoad({ network: 'ETH', batches, workDir: '' });
          for (const batch of batches) await reference.fold([batch]);
        } finally {
          await Promise.all([store.close(), reference.close()]);
        }
        expect(await pgGraphContents(url, schema)).toEqual(await pgGraphContents(url, referenceSchema));
      },
      180_000,
    );
  });
}
