import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventData, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { hasCode } from '../../domain/shared/errors.js';
import { MIGRATIONS, migrate } from '../../infra/postgres/pg-migrations.js';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { eventually } from '../contracts/eventually.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/**
 * What operating the PostgreSQL event store meets beyond the contract: processes migrating one schema at
 * the same moment, a database a newer build migrated, and connections the server drops under a live
 * subscription and under appends (a restart, a failover, an administrator's pg_terminate_backend).
 */

function event(): EventData {
  return {
    id: randomUUID(),
    type: 'Operated',
    data: {},
    metadata: { correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

async function sql<R extends object>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}

if (!external.postgresUrl) {
  skippedSuite('PostgreSQL event store operations', 'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)');
} else {
  describe('PostgreSQL event store operations', () => {
    const url = external.postgresUrl;
    const schemas = postgresSchemas(url);
    afterAll(() => schemas.dropAll());

    it('six processes opening a new schema at once migrate it once, and all of them work on it', async () => {
      const schema = schemas.fresh('migrate');
      const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresEventStore({ url, schema, poolSize: 2 })));
      try {
        const rows = await sql<{ version: number; name: string }>(
          url,
          `SELECT version, name FROM ${schema}.schema_migrations ORDER BY version`,
        );
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
        await Promise.all(stores.map((store, n) => store.append(`migrated-${n}`, [event()], { expected: 'no_stream' })));
        let count = 0;
        for await (const _ of stores[0]!.readAll()) count += 1;
        expect(count).toBe(6);
      } finally {
        await Promise.all(stores.map((store) => store.close()));
      }
    });

    it('a schema a newer build migrated stops the start with a message saying so, and is left as it was', async () => {
      const schema = schemas.fresh('newer');
      const store = await openPostgresEventStore({ url, schema });
      await store.close();
      const newer = [
        ...MIGRATIONS,
        { version: MIGRATIONS.length + 1, name: 'from the future', sql: (s: string) => `CREATE TABLE ${s}.future (x int)` },
      ];
      const pool = new pg.Pool({ connectionString: url });
      try {
        expect(await migrate(pool, schema, newer)).toBe(newer.length);
      } finally {
        await pool.end();
      }
      await expect(openPostgresEventStore({ url, schema })).rejects.toMatchObject({
        code: 'config_invalid',
        message: expect.stringMatching(/schema version 2, newer than this build knows \(1\)/),
      });
    });

    it(
      'connections dropped by the server: a live subscription resumes where it was, appends retried with their ids land once',
      { timeout: 60_000 },
      async () => {
        const schema = schemas.fresh('dropped');
        const reader = await openPostgresEventStore({ url, schema, poolSize: 2 });
        const writer = await openPostgresEventStore({ url, schema, poolSize: 4 });
        const seen: RecordedEvent[] = [];
        const abort = new AbortController();
        let caughtUp = false;
        const subscription = (async () => {
          for await (const d of reader.subscribeToAll({ from: 'start', signal: abort.signal })) {
            if (d.kind === 'caughtUp') caughtUp = true;
            else if (d.kind === 'event') seen.push(d.event);
          }
        })();
        try {
          await eventually(() => caughtUp);
          const written: string[] = [];
          let unavailable = 0;
          // Each writer appends to its own stream at the revision it expects, retrying an append whose
          // connection was cut with the same events: the retry either writes them or finds them written.
          const write = async (w: number) => {
            for (let n = 0; n < 40; n += 1) {
              const batch = [event()];
              for (;;) {
                try {
                  await writer.append(`dropped-${w}`, batch, { expected: BigInt(n - 1) });
                  break;
                } catch (error) {
                  if (!hasCode(error, 'backend_unavailable')) throw error;
                  unavailable += 1;
                  await new Promise((resolve) => setTimeout(resolve, 20));
                }
              }
              written.push(batch[0]!.id);
            }
          };
          const cut = async () => {
            for (let round = 0; round < 4; round += 1) {
              await new Promise((resolve) => setTimeout(resolve, 60));
              await sql(
                url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'risk-screening' AND pid <> pg_backend_pid()",
              );
            }
          };
          await Promise.all([write(0), write(1), write(2), cut()]);
          await eventually(() => expect(seen.length).toBeGreaterThanOrEqual(written.length), 30_000);
          expect(seen.map((e) => e.id).sort()).toEqual([...written].sort());
          expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
          console.info(
            `postgres operations: ${written.length} appends across 4 rounds of dropped connections, ${unavailable} retried after backend_unavailable, each delivered once`,
          );
        } finally {
          abort.abort();
          await subscription;
          await Promise.all([reader.close(), writer.close()]);
        }
      },
    );
  });
}
