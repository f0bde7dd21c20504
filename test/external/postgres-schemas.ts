import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Schemas of their own for the PostgreSQL suites (the event store is a shared log: two services in one
 * schema would read each other's events), dropped when the suite ends.
 */
export function postgresSchemas(url: string) {
  const created: string[] = [];
  return {
    /** A new schema name; the store's migrations create it on open. */
    fresh(purpose: string): string {
      const name = `test_${purpose}_${randomBytes(5).toString('hex')}`;
      created.push(name);
      return name;
    },
    async dropAll(): Promise<void> {
      if (created.length === 0) return;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const name of created.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
