import type { EventStore } from '../../domain/ports/event-store.port.js';
import { openLmdbEventStore } from '../../infra/embedded/lmdb-event-store.js';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { adapterEnv } from '../external/adapter-env.js';

/**
 * The event store of this run for a test that opens one itself: the embedded log in `dataDir`, or, in
 * test:external's PostgreSQL pass (EVENT_STORE=postgres), the schema named after `dataDir`.
 */
export async function openTestEventStore(dataDir: string): Promise<EventStore> {
  const env = adapterEnv(process.env, dataDir);
  if (env.EVENT_STORE !== 'postgres') return openLmdbEventStore(dataDir, { fsync: true });
  return openPostgresEventStore({ url: env.POSTGRES_URL ?? '', schema: env.POSTGRES_SCHEMA });
}
