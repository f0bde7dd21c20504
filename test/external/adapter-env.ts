import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/**
 * The adapter choice of this run, for test services: `npm run test:external` sets BUS=kafka, READ_STORE=mongo
 * and the server addresses (its second pass also EVENT_STORE=postgres); plain `npm test` sets none, so
 * everything stays embedded. (No vitest import here: test/support/test-service.ts is also used by the benchmarks.)
 */
const ADAPTER_KEYS = [
  'EVENT_STORE',
  'BUS',
  'READ_STORE',
  'ESDB_URL',
  'POSTGRES_URL',
  'POSTGRES_SCHEMA',
  'KAFKA_BROKERS',
  'KAFKA_PARTITIONS',
  'KAFKA_SESSION_TIMEOUT_MS',
  'MONGO_URL',
] as const;

/**
 * With `dataDir`, a service on a shared log (PostgreSQL) gets names of its own derived from that directory: a
 * schema, a Kafka prefix and a MongoDB database (on a shared log the service's names are otherwise fixed, and
 * two test services would read each other's events). A restart on the same directory finds them again.
 */
export function adapterEnv(env: NodeJS.ProcessEnv = process.env, dataDir?: string): Record<string, string> {
  const chosen = Object.fromEntries(ADAPTER_KEYS.flatMap((key) => (env[key] ? [[key, env[key]!]] : [])));
  if (chosen.EVENT_STORE !== 'postgres' || dataDir === undefined || chosen.POSTGRES_SCHEMA) return chosen;
  return { ...chosen, ...sharedLogNames(dataDir) };
}

export function sharedLogNames(dataDir: string): { POSTGRES_SCHEMA: string; KAFKA_PREFIX: string; MONGO_DB: string } {
  const id = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 12);
  return { POSTGRES_SCHEMA: `t_${id}`, KAFKA_PREFIX: `t-${id}.`, MONGO_DB: `t_${id}` };
}
