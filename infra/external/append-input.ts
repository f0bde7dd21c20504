import { type EventData, type ExpectedRevision, NO_STREAM_REVISION } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EXPECTED_KINDS: readonly unknown[] = ['any', 'no_stream', 'stream_exists'];

/**
 * What a server-backed event store (EventStoreDB, PostgreSQL) refuses before sending anything, so that a bad
 * batch writes nothing: the embedded log's rules (docs/ARCHITECTURE.md#the-event-stores-append-rule), plus
 * `$` stream names, which belong to EventStoreDB.
 */
export function checkAppendInput(stream: string, events: readonly EventData[], expected: ExpectedRevision): void {
  if (typeof stream !== 'string' || stream.length === 0) throw fail('bad_request', 'stream name must be a non-empty string');
  if (stream.startsWith('$'))
    throw fail('bad_request', `stream ${stream} is reserved: names starting with $ belong to the store`, { stream });
  if (events.length === 0) throw fail('bad_request', `append to ${stream} has no events`, { stream });
  if (typeof expected === 'bigint' ? expected < NO_STREAM_REVISION : !EXPECTED_KINDS.includes(expected))
    throw fail('bad_request', `invalid expected revision ${String(expected)}`, { stream });
  for (const event of events) {
    if (typeof event.id !== 'string' || !UUID.test(event.id))
      throw fail('bad_request', `event id ${String(event.id)} is not a UUID`, { stream });
    if (typeof event.type !== 'string' || event.type.length === 0)
      throw fail('bad_request', 'event type must be a non-empty string', { stream });
    if (event.type.startsWith('$'))
      throw fail('bad_request', `event type ${event.type} is reserved: types starting with $ belong to the store`, {
        stream,
        type: event.type,
      });
    if (typeof event.metadata !== 'object' || event.metadata === null)
      throw fail('bad_request', 'event metadata must be an object', { stream });
  }
}
