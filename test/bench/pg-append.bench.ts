import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import type { EventData, EventStore, Position } from '../../domain/ports/event-store.port.js';
import { openPostgresEventStore } from '../../infra/postgres/pg-event-store.js';
import { updateReadme } from '../support/readme-figures.js';

/**
 * bench:pg-append — the two ways to keep a PostgreSQL log's subscribers from skipping events, side by side on
 * one server (ci/with-postgres.sh starts it with synchronous_commit=on, as production runs):
 * - `xmin` (what the adapter does): appends run concurrently, `$all` is ordered by transaction id and a reader
 *   waits for older transactions still running;
 * - `lock`: one append at a time under a global transaction advisory lock, so numbers commit in order and a
 *   reader may trust them (the same append function wrapped in `pg_advisory_xact_lock`).
 * For each writer count it appends two ~600-byte events per append to streams of their own for DURATION_S,
 * and prints appends/s, append p50/p99 and the p99 from an append's return to a live subscriber's delivery.
 *   npm run bench:pg-append [-- --writers 1,8,32 --seconds 5]
 */
const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const WRITERS = (args.get('writers') ?? '1,8,32').split(',').map(Number);
const DURATION_MS = Number(args.get('seconds') ?? 5) * 1000;
const url = process.env.POSTGRES_URL;
if (!url) throw new Error('POSTGRES_URL is not set: run it through npm run bench:pg-append');

const padding = 'x'.repeat(330);
function paidCall(): EventData[] {
  const metadata = { correlationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1 };
  return [
    { id: randomUUID(), type: 'Charged', data: { callId: randomUUID(), amountUsd: '0.50', note: padding }, metadata },
    { id: randomUUID(), type: 'UsageRecorded', data: { endpoint: '/v2/screen', units: 1, note: padding }, metadata },
  ];
}

/** The lock variant: the same function behind one global lock, called as the adapter calls its own. */
async function serializedAppender(schema: string, poolSize: number) {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  await pool.query(`
    CREATE OR REPLACE FUNCTION ${schema}.append_serialized(p_stream text, p_ids uuid[], p_types text[], p_data text[], p_metadata text[])
    RETURNS TABLE (o_outcome text, o_revision bigint, o_tx xid8, o_seq bigint) LANGUAGE plpgsql AS $fn$
    BEGIN
      PERFORM pg_advisory_xact_lock(4242);
      RETURN QUERY SELECT * FROM ${schema}.append_events(p_stream, 'revision', -1 + coalesce((SELECT max(revision) + 1 FROM ${schema}.events WHERE stream_id = p_stream), 0), p_ids, p_types, p_data, p_metadata);
    END $fn$`);
  // Subscribers are woken as the adapter wakes them: one NOTIFY after commit, coalesced while one is in flight.
  let notifying = false;
  const notify = () => {
    if (notifying) return;
    notifying = true;
    void pool.query(`SELECT pg_notify('${schema}_appended', '')`).finally(() => (notifying = false));
  };
  return {
    async append(stream: string, events: EventData[]) {
      await pool.query(`SELECT * FROM ${schema}.append_serialized($1, $2::uuid[], $3::text[], $4::text[], $5::text[])`, [
        stream,
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata)),
      ]);
      notify();
    },
    close: () => pool.end(),
  };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function run(variant: 'xmin' | 'lock', writers: number) {
  const schema = `bench_${variant}_${writers}_${process.pid}`;
  const poolSize = Math.min(writers, 32);
  const store: EventStore = await openPostgresEventStore({ url: url!, schema, poolSize });
  const serialized = variant === 'lock' ? await serializedAppender(schema, poolSize) : null;
  // Delivery lag: from an append's return to the subscriber's delivery of its last event.
  const returned = new Map<string, number>();
  const lags: number[] = [];
  const abort = new AbortController();
  const head: Position | 'start' = (await store.headPosition()) ?? 'start';
  const subscriber = (async () => {
    for await (const d of store.subscribeToAll({ from: head, signal: abort.signal })) {
      if (d.kind !== 'event') continue;
      const at = returned.get(d.event.id);
      if (at !== undefined) {
        lags.push(performance.now() - at);
        returned.delete(d.event.id);
      }
    }
  })();
  const latencies: number[] = [];
  const deadline = performance.now() + DURATION_MS;
  const writer = async (w: number) => {
    let revision = -1n;
    for (let n = 0; performance.now() < deadline; n += 1) {
      const events = paidCall();
      const started = performance.now();
      if (serialized) await serialized.append(`w-${w}`, events);
      else revision = (await store.append(`w-${w}`, events, { expected: revision })).nextExpectedRevision;
      const now = performance.now();
      latencies.push(now - started);
      if (n % 10 === 0) returned.set(events[1]!.id, now);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  const seconds = (performance.now() - started) / 1000;
  const waitUntil = performance.now() + 10_000;
  while (returned.size > 0 && performance.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
  abort.abort();
  await subscriber;
  await serialized?.close();
  await store.close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    perSecond: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    lagP99: percentile(lags, 0.99),
  };
}

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const settings = (await admin.query<{ v: string; s: string }>("SELECT version() AS v, current_setting('synchronous_commit') AS s"))
  .rows[0]!;
await admin.end();
const rows: string[] = [];
for (const writers of WRITERS) {
  const xmin = await run('xmin', writers);
  const lock = await run('lock', writers);
  const row = `| ${writers} | ${xmin.perSecond} | ${xmin.p50.toFixed(1)} / ${xmin.p99.toFixed(1)} | ${xmin.lagP99.toFixed(1)} | ${lock.perSecond} | ${lock.p50.toFixed(1)} / ${lock.p99.toFixed(1)} | ${lock.lagP99.toFixed(1)} | ${(xmin.perSecond / lock.perSecond).toFixed(2)} |`;
  rows.push(row);
  process.stdout.write(`${row}\n`);
}
const table = [
  `Measured by \`npm run bench:pg-append\` (${new Date().toISOString().slice(0, 10)}; ${settings.v.split(' on ')[0]}, synchronous_commit=${settings.s}, loopback; load average ${loadavg()[0]!.toFixed(1)} on 2 cores; ${DURATION_MS / 1000} s per cell, two ~600-byte events per append):`,
  '',
  '| writers | xmin: appends/s | xmin: append p50 / p99 ms | xmin: delivery p99 ms | lock: appends/s | lock: append p50 / p99 ms | lock: delivery p99 ms | xmin / lock |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
process.stdout.write(`\n${table}\n`);
await updateReadme('bench:pg-append', table);
