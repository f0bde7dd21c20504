import { describe, it } from 'vitest';

/**
 * The real-server suites run when their server is configured (npm run test:external starts Kafka, FerretDB
 * and PostgreSQL and sets these variables) and otherwise show up as one skipped test whose name says why.
 */
export const external = {
  kafkaBrokers: process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [],
  mongoUrl: process.env.MONGO_URL ?? '',
  /** The PostgreSQL event store's server (npm run test:external starts one); each suite uses schemas of its own. */
  postgresUrl: process.env.POSTGRES_URL ?? '',
};

export function skippedSuite(name: string, reason: string): void {
  describe.skip(name, () => {
    it(`skipped: ${reason}`, () => undefined);
  });
}
