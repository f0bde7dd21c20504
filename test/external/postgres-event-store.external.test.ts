import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { eventStoreContract } from '../contracts/event-store.contract.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/** The EventStore contract and its model-based test on a real PostgreSQL (npm run test:external starts Debian's). */
if (!external.postgresUrl) {
  skippedSuite('EventStore contract: PostgreSQL', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  const schemas = postgresSchemas(external.postgresUrl);
  const schema = schemas.fresh('contract');
  afterAll(() => schemas.dropAll());
  eventStoreContract('PostgreSQL', () => openPostgresEventStore({ url: external.postgresUrl, schema }));
}

if (external.postgresUrl) {
  const url = external.postgresUrl;
  describe('PostgreSQL event store bounds', () => {
    const schemas = postgresSchemas(url);
    afterAll(() => schemas.dropAll());

    it('refuses appends with overloaded past maxWaiting callers queued for the pool, and serves the others', async () => {
      const store = await openPostgresEventStore({ url, schema: schemas.fresh('bounds'), poolSize: 1, maxWaiting: 2 });
      try {
        const event = (n: number) => ({
          id: randomUUID(),
          type: 'Probe',
          data: { n },
          metadata: { correlationId: 'c', occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
        });
        // One connection, at most two appends queued for it: of eight at once, some are refused at once.
        const outcomes = await Promise.allSettled(
          [1, 2, 3, 4, 5, 6, 7, 8].map((n) => store.append(`probe-${n}`, [event(n)], { expected: 'any' })),
        );
        const refused = outcomes.filter((o) => o.status === 'rejected');
        expect(refused.length).toBeGreaterThan(0);
        expect(outcomes.length - refused.length).toBeGreaterThanOrEqual(2);
        for (const o of refused) expect(o.reason).toMatchObject({ code: 'overloaded' });
        await store.append('probe-9', [event(9)], { expected: 'any' });
      } finally {
        await store.close();
      }
    });
  });
}
