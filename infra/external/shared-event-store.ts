import type { EventStore } from '../../domain/ports/event-store.port.js';
import { present } from '../../domain/shared/present.js';
import { openEsdbEventStore } from '../esdb/esdb-event-store.js';
import { openPostgresEventStore } from '../postgres/pg-event-store.js';

/** The event store every process of a deployment shares: PostgreSQL for EVENT_STORE=postgres, else EventStoreDB. */
export function openSharedEventStore(config: {
  EVENT_STORE: 'embedded' | 'esdb' | 'postgres';
  ESDB_URL?: string | undefined;
  POSTGRES_URL?: string | undefined;
  POSTGRES_SCHEMA: string;
  POSTGRES_POOL_SIZE: number;
  CONNECT_TIMEOUT_MS: number;
  ROLE: string;
  INSTANCE_ID?: string | undefined;
}): Promise<EventStore> {
  const connectTimeoutMs = config.CONNECT_TIMEOUT_MS;
  if (config.EVENT_STORE !== 'postgres')
    return openEsdbEventStore({ url: present(config.ESDB_URL, 'the config requires ESDB_URL when EVENT_STORE is esdb'), connectTimeoutMs });
  return openPostgresEventStore({
    url: present(config.POSTGRES_URL, 'the config requires POSTGRES_URL when EVENT_STORE is postgres'),
    schema: config.POSTGRES_SCHEMA,
    poolSize: config.POSTGRES_POOL_SIZE,
    connectTimeoutMs,
    // Which process holds a connection, for whoever reads pg_stat_activity (operators, the topology test).
    applicationName: ['risk-screening', config.ROLE, config.INSTANCE_ID].filter(Boolean).join(' '),
  });
}
