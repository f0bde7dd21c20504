import type { EventMetadata, Position, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { fail, ServiceError } from '../../domain/shared/errors.js';

/** Conversions between the `events` table and the port, and the errors a PostgreSQL client can meet. */

/** Qualified by the alias `e`: `tx` is also the name of its text output, which ORDER BY tx would sort as text. */
export const EVENT_COLUMNS = 'e.stream_id, e.revision, e.tx::text AS tx, e.seq, e.event_id, e.type, e.data, e.metadata, e.created';

/** int8 and xid8 arrive as decimal strings; json is parsed by the driver. */
export interface EventRow {
  readonly stream_id: string;
  readonly revision: string;
  readonly tx: string;
  readonly seq: string;
  readonly event_id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly created: Date;
}

export function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: toPosition(row.tx, row.seq),
    created: row.created,
  };
}

/** A `$all` position: the writing transaction's id (xid8), then the event's sequence number. */
export const toPosition = (tx: string, seq: string): Position => ({ commit: BigInt(tx), prepare: BigInt(seq) });

/** SQL parameters of a position, for `(tx, seq) > ($1::xid8, $2::bigint)`. */
export const positionParams = (position: Position): [string, string] => [position.commit.toString(), position.prepare.toString()];

/** The escaped schema name, checked: it is spliced into SQL. */
export function schemaIdentifier(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw fail('config_invalid', `POSTGRES_SCHEMA must be lower-case letters, digits and _ (at most 63), not ${JSON.stringify(schema)}`);
  return schema;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * A failure of the connection or of the server's availability (not of the statement): SQLSTATE class 08
 * (connection), 57P01-57P03 (shutting down, cannot connect now), 53300 (too many connections), a socket
 * error, or the driver's own timeouts and terminations. A subscription retries these; an append reports them
 * as `backend_unavailable` (its outcome is unknown, and a retry with the same ids is idempotent).
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300' || NETWORK_CODES.has(code)))
    return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(
    error.message,
  );
}

export function storeError(error: unknown): unknown {
  if (error instanceof ServiceError || !isUnavailable(error)) return error;
  return fail('backend_unavailable', `PostgreSQL event store unavailable: ${(error as Error).message}`);
}
