/**
 * The adapter choice of this run, for test services: `npm run test:external` sets BUS=kafka, READ_STORE=mongo
 * and the server addresses; plain `npm test` sets none, so everything stays embedded. (No vitest import here:
 * test/support/test-service.ts is also used by the benchmarks.)
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

export function adapterEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(ADAPTER_KEYS.flatMap((key) => (env[key] ? [[key, env[key]!]] : [])));
}
