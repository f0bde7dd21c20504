import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventData,
  type EventStore,
  type Position,
  type RecordedEvent,
} from '../../domain/ports/event-store.port.js';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { eventually } from '../contracts/eventually.js';
import { external, skippedSuite } from './external-env.js';
import { postgresSchemas } from './postgres-schemas.js';

/**
 * The pitfall of a log on PostgreSQL: with concurrent writers, sequence numbers become visible out of
 * order (a transaction takes its number, another takes a higher one and commits first), and a reader that
 * trusts the sequence moves past the lower one before it commits, skipping it for good. The store orders
 * `$all` by transaction id and shows an event only once no older transaction still runs; these tests hold
 * transactions open on purpose and check that subscribers see every committed event exactly once, in order.
 */

const WRITER_STORES = 3;
const WRITERS = 24;
const APPENDS_PER_WRITER = 40;
const SLOW_TRANSACTIONS = 30;

function event(type = 'Written'): EventData {
  return {
    id: randomUUID(),
    type,
    data: { at: Date.now() },
    metadata: { correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

/** An append through the store's own SQL function in a transaction held open until `commit`. */
async function openTransaction(url: string, schema: string, stream: string, events: readonly EventData[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT * FROM ${schema}.append_events($1, 'any', NULL, $2::uuid[], $3::text[], $4::text[], $5::text[])`, [
    stream,
    events.map((e) => e.id),
    events.map((e) => e.type),
    events.map((e) => JSON.stringify(e.data)),
    events.map((e) => JSON.stringify(e.metadata)),
  ]);
  return {
    async commit() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Collects a live subscription's events of the streams starting with `prefix`. */
function collect(store: EventStore, from: 'start' | Position, prefix: string) {
  const seen: RecordedEvent[] = [];
  const abort = new AbortController();
  let caughtUp = false;
  const done = (async () => {
    for await (const delivery of store.subscribeToAll({ from, filter: { streamPrefixes: [prefix] }, signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') caughtUp = true;
      else if (delivery.kind === 'event') seen.push(delivery.event);
    }
  })();
  return {
    seen,
    isCaughtUp: () => caughtUp,
    async stop() {
      abort.abort();
      await done;
    },
  };
}

function expectExactlyOnceInOrder(seen: readonly RecordedEvent[], written: ReadonlySet<string>) {
  const ids = seen.map((e) => e.id);
  expect(new Set(ids).size, 'an event delivered twice').toBe(ids.length);
  expect(new Set(ids)).toEqual(written);
  seen.slice(1).forEach((e, i) => expect(comparePositions(seen[i]!.position, e.position)).toBe(-1));
}

if (!external.postgresUrl) {
  skippedSuite(
    'PostgreSQL event store under concurrent writers',
    'POSTGRES_URL is not set (npm run test:external starts a PostgreSQL cluster)',
  );
} else {
  describe('PostgreSQL event store under concurrent writers', () => {
    const url = external.postgresUrl;
    const schemas = postgresSchemas(url);
    const schema = schemas.fresh('concurrency');
    let reader: EventStore;
    const writers: EventStore[] = [];
    beforeAll(async () => {
      reader = await openPostgresEventStore({ url, schema });
      for (let n = 0; n < WRITER_STORES; n += 1) writers.push(await openPostgresEventStore({ url, schema, poolSize: 10 }));
    });
    afterAll(async () => {
      await Promise.all([reader, ...writers].map((store) => store?.close()));
      await schemas.dropAll();
    });

    it('delivers an event whose transaction commits after a later-numbered one, which a sequence-trusting reader skips', async () => {
      const prefix = `held-${randomUUID()}`;
      const sub = collect(reader, (await reader.headPosition()) ?? 'start', prefix);
      await eventually(() => sub.isCaughtUp());
      const early = event('Early');
      const held = await openTransaction(url, schema, `${prefix}-a`, [early]);
      const late = event('Late');
      await writers[0]!.append(`${prefix}-b`, [late], { expected: 'no_stream' });

      // A reader that orders by sequence alone sees the later event now and moves its cursor past the held one.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const bySeq = async (after: string) =>
        (
          await client.query<{ seq: string; event_id: string }>(
            `SELECT seq, event_id FROM ${schema}.events WHERE seq > $1 AND stream_id LIKE $2 ORDER BY seq`,
            [after, `${prefix}%`],
          )
        ).rows;
      const before = await bySeq('0');
      expect(before.map((r) => r.event_id)).toEqual([late.id]);
      await held.commit();
      const after = await bySeq(before.at(-1)!.seq);
      await client.end();
      expect(after, 'the sequence-trusting reader found nothing more: it skipped the held event').toEqual([]);

      // The store's subscriber waited for the held transaction, then delivered both, in $all order, once.
      await eventually(() => expect(sub.seen.map((e) => e.id).sort()).toEqual([early.id, late.id].sort()));
      await sub.stop();
      expectExactlyOnceInOrder(sub.seen, new Set([early.id, late.id]));
      const all: string[] = [];
      for await (const e of reader.readAll()) if (e.streamId.startsWith(prefix)) all.push(e.id);
      expect(all).toEqual(sub.seen.map((e) => e.id));
    });

    it(
      `${WRITERS} writers on ${WRITER_STORES} pools and ${SLOW_TRANSACTIONS} transactions held open: two subscribers (live, and one catching up meanwhile) see every event exactly once, in order`,
      { timeout: 180_000 },
      async () => {
        const prefix = `race-${randomUUID()}`;
        const from = (await reader.headPosition()) ?? 'start';
        const live = collect(reader, from, prefix);
        await eventually(() => live.isCaughtUp());
        const written = new Set<string>();
        let conflicts = 0;
        const writer = async (w: number) => {
          const store = writers[w % writers.length]!;
          // Each writer keeps one stream of its own (expected revisions) and shares four hot ones ('any').
          let revision = -1n;
          for (let n = 0; n < APPENDS_PER_WRITER; n += 1) {
            const batch = Array.from({ length: 1 + (n % 3) }, () => event());
            if (n % 4 === 0) {
              await store.append(`${prefix}-hot-${n % 16}`, batch, { expected: 'any' });
            } else {
              const result = await store.append(`${prefix}-own-${w}`, batch, { expected: revision }).catch((error: unknown) => {
                conflicts += 1;
                throw error;
              });
              revision = result.nextExpectedRevision;
            }
            batch.forEach((e) => written.add(e.id));
          }
        };
        const slow = async (n: number) => {
          await new Promise((resolve) => setTimeout(resolve, n * 7));
          const batch = [event('Held'), event('Held')];
          const held = await openTransaction(url, schema, `${prefix}-held-${n}`, batch);
          await new Promise((resolve) => setTimeout(resolve, 20 + (n % 5) * 15));
          await held.commit();
          batch.forEach((e) => written.add(e.id));
        };
        // A second subscriber starts from the same anchor while the writers run: catch-up, then live.
        const lateStart = new Promise<ReturnType<typeof collect>>((resolve) =>
          setTimeout(() => resolve(collect(reader, from, prefix)), 150),
        );
        await Promise.all([
          ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
          ...Array.from({ length: SLOW_TRANSACTIONS }, (_, n) => slow(n)),
        ]);
        const late = await lateStart;
        expect(conflicts).toBe(0);

        await eventually(() => expect(live.seen.length).toBeGreaterThanOrEqual(written.size), 60_000);
        await eventually(() => expect(late.seen.length).toBeGreaterThanOrEqual(written.size), 60_000);
        await Promise.all([live.stop(), late.stop()]);
        expectExactlyOnceInOrder(live.seen, written);
        expectExactlyOnceInOrder(late.seen, written);
        expect(late.seen.map((e) => e.id)).toEqual(live.seen.map((e) => e.id));
        const all: string[] = [];
        for await (const e of reader.readAll({ after: from })) if (e.streamId.startsWith(prefix)) all.push(e.id);
        expect(all).toEqual(live.seen.map((e) => e.id));
        console.info(
          `postgres concurrency: ${written.size} events by ${WRITERS} writers and ${SLOW_TRANSACTIONS} held transactions, each seen once by both subscribers`,
        );
      },
    );
  });
}
