import { afterAll } from 'vitest';
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
