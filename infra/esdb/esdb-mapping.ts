import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
  type JSONType,
  type ResolvedEvent,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import type { EventData, EventMetadata, ExpectedRevision, Position, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { NO_STREAM_REVISION } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { checkAppendInput } from '../external/append-input.js';

/** Conversions between the port and @eventstore/db-client 6, in one place (docs/ARCHITECTURE.md#the-event-stores-append-rule). */

export function toExpected(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream' || expected === NO_STREAM_REVISION) return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  if (typeof expected === 'bigint' && expected >= 0n) return expected;
  throw fail('bad_request', `invalid expected revision ${String(expected)}`);
}

/** The same input rules as the embedded store, checked before anything is sent: all or nothing. */
export function toEventData(stream: string, events: readonly EventData[], expected: ExpectedRevision) {
  checkAppendInput(stream, events, expected);
  return events.map((event) => {
    // JSON.stringify by the client: any JSON value round-trips, not only the objects its types allow.
    return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata as unknown as JSONType });
  });
}

/** WrongExpectedVersion → the port's conflict; 'no_stream' becomes -1n explicitly. */
export function toConflict(error: unknown, stream: string, expected: ExpectedRevision): unknown {
  if (!(error instanceof WrongExpectedVersionError)) return error;
  const actual = error.actualVersion === NO_STREAM || typeof error.actualVersion !== 'bigint' ? NO_STREAM_REVISION : error.actualVersion;
  return fail('wrong_expected_version', `stream ${stream}: expected revision ${String(expected)}, actual ${actual}`, {
    stream,
    expected,
    actual,
  });
}

/** Our events only: link events, system events and `$`-streams stay inside the server. */
export function toRecorded(resolved: ResolvedEvent | AllStreamResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event || event.type.startsWith('$') || event.streamId.startsWith('$')) return null;
  if (!event.position)
    throw fail('invalid_state', 'EventStoreDB returned an event without its position: a server of 22.10 or later is needed');
  const data = event.isJson ? event.data : Buffer.from(event.data as Uint8Array).toString('utf8');
  return {
    id: event.id,
    type: event.type,
    data,
    metadata: event.metadata as unknown as EventMetadata,
    streamId: event.streamId,
    revision: event.revision,
    position: { commit: event.position.commit, prepare: event.position.prepare },
    created: event.created,
  };
}

export const isAfter = (a: Position, b: Position): boolean => a.commit > b.commit || (a.commit === b.commit && a.prepare > b.prepare);
