import type { Pool } from 'pg';
import { fail } from '../../domain/shared/errors.js';

/**
 * The event store's schema, as numbered migrations applied in order at start (each in its own transaction,
 * recorded in `<schema>.schema_migrations`). Processes starting together take turns on a session advisory
 * lock; a database migrated by a newer build than this one stops the start rather than be written by code
 * that does not know its shape. A migration, once released, is never edited: changes are new migrations.
 */

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (schema: string) => string;
}

/** First key of the per-stream advisory locks ("SV", then hashtext of the stream), apart from other applications' locks. */
export const STREAM_LOCK_CLASS = 0x5356;
/** The migration lock: a one-key (bigint) advisory lock, a space of its own beside the two-key stream locks. */
const MIGRATION_LOCK = 0x5356_4d49_4752n; // "SVMIGR"

/**
 * Version 1. Positions in `$all` are (tx, seq): the writing transaction's id, then a sequence number. Readers
 * only return events whose transaction is older than every transaction still running
 * (`tx < pg_snapshot_xmin(pg_current_snapshot())`), so an event can never appear behind a position a reader
 * has already passed (docs/ARCHITECTURE.md#postgresql-event-store). `append_events` applies the append rule
 * under a per-stream transaction advisory lock, in one round trip.
 */
const EVENTS: Migration = {
  version: 1,
  name: 'events ordered by transaction id, append_events',
  sql: (s) => `
    CREATE TABLE ${s}.events (
      stream_id text NOT NULL,
      revision bigint NOT NULL,
      tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
      seq bigint GENERATED ALWAYS AS IDENTITY,
      event_id uuid NOT NULL,
      type text NOT NULL,
      data json NOT NULL,
      metadata json NOT NULL,
      created timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (stream_id, revision)
    );
    CREATE UNIQUE INDEX events_position ON ${s}.events (tx, seq);

    CREATE FUNCTION ${s}.append_events(
      p_stream text, p_mode text, p_expected bigint, p_ids uuid[], p_types text[], p_data text[], p_metadata text[]
    ) RETURNS TABLE (o_outcome text, o_revision bigint, o_tx xid8, o_seq bigint)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      v_current bigint;
      v_count int := cardinality(p_ids);
      v_found bigint[];
      v_last bigint;
    BEGIN
      PERFORM pg_advisory_xact_lock(${STREAM_LOCK_CLASS}, hashtext(p_stream));
      SELECT coalesce(max(e.revision), -1) INTO v_current FROM ${s}.events e WHERE e.stream_id = p_stream;

      IF p_mode = 'revision' THEN
        IF p_expected > v_current THEN
          RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint; RETURN;
        ELSIF p_expected < v_current THEN
          -- A retry succeeds without writing only if every id sits exactly after the expected revision.
          IF (SELECT count(*) FROM unnest(p_ids) WITH ORDINALITY AS i(id, k)
                JOIN ${s}.events e ON e.stream_id = p_stream AND e.revision = p_expected + i.k AND e.event_id = i.id) <> v_count THEN
            RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint; RETURN;
          END IF;
          v_last := p_expected + v_count;
        END IF;
      ELSE
        IF p_mode = 'stream_exists' AND v_current = -1 THEN
          RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint; RETURN;
        END IF;
        -- 'any': a retry when the first id is already in the stream, and then all of them must be.
        SELECT array_agg((SELECT max(e.revision) FROM ${s}.events e WHERE e.stream_id = p_stream AND e.event_id = i.id) ORDER BY i.k)
          INTO v_found FROM unnest(p_ids) WITH ORDINALITY AS i(id, k);
        IF v_found[1] IS NOT NULL THEN
          IF array_position(v_found, NULL) IS NOT NULL THEN
            RETURN QUERY SELECT 'conflict'::text, v_current, NULL::xid8, NULL::bigint; RETURN;
          END IF;
          v_last := v_found[v_count];
        END IF;
      END IF;

      IF v_last IS NOT NULL THEN
        RETURN QUERY SELECT 'duplicate'::text, e.revision, e.tx, e.seq FROM ${s}.events e
          WHERE e.stream_id = p_stream AND e.revision = v_last;
        RETURN;
      END IF;

      RETURN QUERY WITH written AS (
        INSERT INTO ${s}.events (stream_id, revision, event_id, type, data, metadata)
        SELECT p_stream, v_current + i.k, i.id, i.t, i.d::json, i.m::json
        FROM unnest(p_ids, p_types, p_data, p_metadata) WITH ORDINALITY AS i(id, t, d, m, k)
        ORDER BY i.k
        RETURNING revision, tx, seq
      )
      SELECT 'written'::text, w.revision, w.tx, w.seq FROM written w ORDER BY w.seq DESC LIMIT 1;
    END
    $fn$;
  `,
};

export const MIGRATIONS: readonly Migration[] = [EVENTS];

/** Applies the migrations `schema` lacks; returns its version afterwards. */
export async function migrate(pool: Pool, schema: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema}.schema_migrations`);
    const current = rows[0]?.version ?? 0;
    if (current > latest)
      throw fail(
        'config_invalid',
        `the PostgreSQL event store ${schema} is at schema version ${current}, newer than this build knows (${latest}): run a build of that version or later`,
      );
    for (const migration of migrations.filter((m) => m.version > current)) {
      await client.query('BEGIN');
      try {
        await client.query(migration.sql(schema));
        await client.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return Math.max(current, latest);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK.toString()]).catch(() => undefined);
    client.release();
  }
}
