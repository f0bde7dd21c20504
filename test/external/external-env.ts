import { describe, it } from 'vitest';

/**
 * The real-server suites run when their server is configured (npm run test:external starts Kafka and
 * FerretDB and sets these variables) and otherwise show up as one skipped test whose name says why.
 */
export const external = {
  kafkaBrokers: process.env.KAFKA_BROKERS?.split(',').filter(Boolean) ?? [],
  mongoUrl: process.env.MONGO_URL ?? '',
};

export function skippedSuite(name: string, reason: string): void {
  describe.skip(name, () => {
    it(`skipped: ${reason}`, () => undefined);
  });
}
