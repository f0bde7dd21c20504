import pg from 'pg';
import {
  NO_STREAM_REVISION,
  type AppendResult,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Revision,
  type SubscribeToAllOptions,
  type SubscriptionDelivery,
} from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { present } from '../../domain/shared/present.js';
import { checkAppendInput } from '../external/append-input.js';
import { migrate } from './pg-migrations.js';
import { EVENT_COLUMNS, positionParams, schemaIdentifier, storeError, toPosition, toRecorded, type EventRow } from './pg-rows.js';
import { subscribe } from './pg-subscription.js';
import { openWakeups, type Wakeups } from './pg-wakeups.js';

/**
 * The EventStore port on PostgreSQL 13 or later, on the `pg` driver and SQL of our own
 * (docs/ARCHITECTURE.md#postgresql-event-store): one `events` table, an `append_events` function that applies
 * the append rule under a per-stream advisory lock in one round trip, and `$all` ordered by
 * (transaction id, sequence). A reader sees an event only once no older transaction is still running, so
 * concurrent writers, whose sequence numbers become visible out of order, never make a subscriber skip one.
 */

export interface PostgresOptions {
  /** e.g. `postgres://svc:secret@db:5432/risk_screening`. */
  readonly url: string;
  /** The schema holding the store's tables (created by the migrations). */
  readonly schema?: string;
  readonly connectTimeoutMs?: number;
  /** Connections of this process's pool (appends and reads); one more listens for other processes' appends. */
  readonly poolSize?: number;
  /** Names this process's connections in `pg_stat_activity` (e.g. `risk-screening api api-1`). */
  readonly applicationName?: string;
  /** Callers waiting for a connection at once, at most (MAX_POOL_WAITERS). */
  readonly maxWaiting?: number;
}

const PAGE = 500;
/** How long a caller may wait for its pool connection before the call fails (a bound on the pool's queue). */
const ACQUIRE_TIMEOUT_MS = 30_000;
/** Calls waiting for a pool connection at once, at most: past it an append is refused `overloaded` at once. */
export const MAX_POOL_WAITERS = 1_000;
/** How long one statement may run: a server that stopped answering mid-query fails the call instead of holding it. */
const QUERY_TIMEOUT_MS = 60_000;
/** How long `readAll` and `headPosition` wait for transactions that were running when called, at most. */
const SETTLE_MAX_MS = 10_000;

export async function openPostgresEventStore(options: PostgresOptions): Promise<EventStore> {
  const schema = schemaIdentifier(options.schema ?? 'event_store');
  const timeout = options.connectTimeoutMs ?? 2000;
  const applicationName = options.applicationName ?? 'risk-screening';
  await requireAnswer(options.url, timeout);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: Math.max(timeout, ACQUIRE_TIMEOUT_MS),
    query_timeout: QUERY_TIMEOUT_MS,
    application_name: applicationName,
  });
  // An idle connection the server dropped: the pool replaces it; the next query says if the server is gone.
  pool.on('error', () => undefined);
  let wakeups: Wakeups | null = null;
  try {
    await migrate(pool, schema);
    wakeups = await openWakeups({ url: options.url, applicationName }, `${schema}_appended`, timeout);
    return new PostgresEventStore(pool, schema, wakeups, options.maxWaiting ?? MAX_POOL_WAITERS);
  } catch (error) {
    await wakeups?.close();
    await pool.end().catch(() => undefined);
    throw storeError(error);
  }
}

/** One connection and one query, bounded, so a wrong URL or a stopped server stops the start at once. */
async function requireAnswer(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const where = safeUrl(url);
    throw fail('backend_unavailable', `PostgreSQL at ${where} is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL without its password, for messages. */
function safeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured POSTGRES_URL';
  }
}

interface AppendRow {
  readonly o_outcome: 'written' | 'duplicate' | 'conflict';
  readonly o_revision: string;
  readonly o_tx: string | null;
  readonly o_seq: string | null;
}

class PostgresEventStore implements EventStore {
  private readonly shutdown = new AbortController();

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    readonly wakeups: Wakeups,
    private readonly maxWaiting: number,
  ) {}

  async append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    checkAppendInput(stream, events, options.expected);
    // Appends are the traffic: past the bound they are refused at once. Subscriptions' reads (one per
    // runner) still queue, so a busy pool never ends a subscription.
    if (this.pool.waitingCount >= this.maxWaiting)
      throw fail('overloaded', `${this.pool.waitingCount} appends are waiting for a PostgreSQL connection already`);
    const { expected } = options;
    const mode = expected === 'any' || expected === 'stream_exists' ? expected : 'revision';
    const revision = expected === 'no_stream' ? NO_STREAM_REVISION : typeof expected === 'bigint' ? expected : null;
    const row = present(
      (
        await this.query<AppendRow>(
          `SELECT * FROM ${this.schema}.append_events($1, $2, $3, $4::uuid[], $5::text[], $6::text[], $7::text[])`,
          [
            stream,
            mode,
            revision?.toString() ?? null,
            events.map((e) => e.id),
            events.map((e) => e.type),
            events.map((e) => JSON.stringify(e.data) ?? 'null'),
            events.map((e) => JSON.stringify(e.metadata)),
          ],
        )
      )[0],
      'append_events row',
    );
    if (row.o_outcome === 'conflict') {
      const actual = BigInt(row.o_revision);
      throw fail('wrong_expected_version', `stream ${stream}: expected revision ${String(expected)}, actual ${actual}`, {
        stream,
        expected,
        actual,
      });
    }
    if (row.o_outcome === 'written') this.wakeups.appended();
    return {
      nextExpectedRevision: BigInt(row.o_revision),
      position: toPosition(present(row.o_tx, 'o_tx'), present(row.o_seq, 'o_seq')),
    };
  }

  async *read(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    const backwards = options.direction === 'backwards';
    if (options.fromRevision !== undefined && options.fromRevision < 0n)
      throw fail('bad_request', `invalid fromRevision ${options.fromRevision}`);
    let left = options.maxCount ?? Number.POSITIVE_INFINITY;
    let from = options.fromRevision ?? (backwards ? null : 0n);
    while (left > 0) {
      const limit = Math.min(PAGE, left);
      const bound = from === null ? '' : backwards ? 'AND e.revision <= $2' : 'AND e.revision >= $2';
      const rows = await this.query<EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events e WHERE e.stream_id = $1 ${bound} ORDER BY e.revision ${backwards ? 'DESC' : 'ASC'} LIMIT ${limit}`,
        from === null ? [stream] : [stream, from.toString()],
      );
      for (const row of rows) yield toRecorded(row);
      left -= rows.length;
      const last = rows.at(-1);
      if (rows.length < limit || !last) return;
      from = BigInt(last.revision) + (backwards ? -1n : 1n);
      if (from < 0n) return;
    }
  }

  async streamRevision(stream: string): Promise<Revision> {
    const rows = await this.query<{ revision: string }>(
      `SELECT coalesce(max(revision), -1)::text AS revision FROM ${this.schema}.events WHERE stream_id = $1`,
      [stream],
    );
    return BigInt(present(rows[0], 'max(revision) row').revision);
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    let left = options.maxCount ?? Number.POSITIVE_INFINITY;
    if (left <= 0) return;
    const head = await this.headPosition();
    if (head === null) return;
    let cursor = options.after === undefined || options.after === 'start' ? null : options.after;
    while (left > 0) {
      const events = await this.page(cursor, Math.min(PAGE, left), head);
      for (const event of events) yield event;
      left -= events.length;
      const last = events.at(-1);
      if (!last || events.length < PAGE) return;
      cursor = last.position;
    }
  }

  async headPosition(): Promise<Position | null> {
    const below = await this.settled();
    const rows = await this.query<{ tx: string; seq: string }>(
      `SELECT tx::text AS tx, seq FROM ${this.schema}.events e WHERE e.tx < $1::xid8 ORDER BY e.tx DESC, e.seq DESC LIMIT 1`,
      [below],
    );
    const row = rows[0];
    return row ? toPosition(row.tx, row.seq) : null;
  }

  subscribeToAll(options: SubscribeToAllOptions): AsyncIterable<SubscriptionDelivery> {
    return subscribe(this, options, this.shutdown.signal);
  }

  /** Events after `after` (exclusive) up to `upTo` (inclusive). */
  async page(after: Position | null, limit: number, upTo: Position): Promise<RecordedEvent[]> {
    const [lower, params] = after
      ? ['(e.tx, e.seq) > ($3::xid8, $4::bigint)', [...positionParams(upTo), ...positionParams(after)]]
      : ['TRUE', positionParams(upTo)];
    const rows = await this.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events e WHERE ${lower} AND (e.tx, e.seq) <= ($1::xid8, $2::bigint) ORDER BY e.tx, e.seq LIMIT ${limit}`,
      params,
    );
    return rows.map(toRecorded);
  }

  /**
   * A live subscription's read, in one statement (one snapshot): up to `limit` events after `after` that no
   * running transaction precedes, and whether committed events after them wait behind one.
   */
  async live(after: Position | null, limit: number): Promise<{ events: RecordedEvent[]; unsettled: boolean }> {
    const lower = after ? '(e.tx, e.seq) > ($1::xid8, $2::bigint)' : 'TRUE';
    const frontier = 'pg_snapshot_xmin(pg_current_snapshot())';
    const rows = await this.query<EventRow & { unsettled: boolean }>(
      `SELECT u.unsettled, p.* FROM
         (SELECT EXISTS (SELECT 1 FROM ${this.schema}.events e WHERE ${lower} AND e.tx >= ${frontier}) AS unsettled) u
         LEFT JOIN LATERAL (
           SELECT ${EVENT_COLUMNS} FROM ${this.schema}.events e WHERE ${lower} AND e.tx < ${frontier} ORDER BY e.tx, e.seq LIMIT ${limit}
         ) p ON TRUE`,
      after ? positionParams(after) : [],
    );
    // No event: one row whose event columns are null.
    const events = rows.filter((row) => row.stream_id !== null).map(toRecorded);
    return { events, unsettled: present(rows[0], 'live row').unsettled };
  }

  /**
   * A transaction id below which every transaction has ended and which is above every event committed
   * before this call: waits (polling, bounded by SETTLE_MAX_MS) for the transactions that were running
   * below the newest committed event. Past the bound it answers what is settled then, which may leave out
   * the newest events but never lets a later read find one behind them.
   */
  private async settled(): Promise<string> {
    const deadline = Date.now() + SETTLE_MAX_MS;
    const first = await this.frontier(true);
    let delay = 1;
    for (let { xmin } = first; ;) {
      if (first.top === null || BigInt(xmin) > BigInt(first.top) || Date.now() > deadline) return xmin;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 20);
      ({ xmin } = await this.frontier(false));
    }
  }

  private async frontier(withTop: boolean): Promise<{ xmin: string; top: string | null }> {
    const top = withTop ? `(SELECT e.tx::text FROM ${this.schema}.events e ORDER BY e.tx DESC, e.seq DESC LIMIT 1)` : 'NULL';
    const rows = await this.query<{ xmin: string; top: string | null }>(
      `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, ${top} AS top`,
    );
    return present(rows[0], 'frontier row');
  }

  private async query<R extends object>(sql: string, params: readonly unknown[] = []): Promise<R[]> {
    if (this.shutdown.signal.aborted) throw fail('store_closed', 'the PostgreSQL event store is closed');
    try {
      return (await this.pool.query<R>(sql, params as unknown[])).rows;
    } catch (error) {
      throw storeError(error);
    }
  }

  async close(): Promise<void> {
    if (this.shutdown.signal.aborted) return;
    this.shutdown.abort();
    await this.wakeups.close();
    await this.pool.end();
  }
}
