import type { EventData } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';

/**
 * One append as the embedded store keeps it under its commit number: the stream, when it was written, the
 * revision of its first event, and its events as one JSON text. The text is parsed only when an event is
 * read, so a reader that looks at streams alone (a filtered subscription) never pays for it.
 */
export type StoredAppend = readonly [stream: string, createdMs: number, first: number, events: string];

/** The events as JSON: event data and metadata must be plain JSON, as they would be on EventStoreDB's wire. */
export function encodeEvents(stream: string, events: readonly EventData[]): string {
  try {
    return JSON.stringify(events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })));
  } catch (error) {
    throw fail('bad_request', `event data and metadata must be plain JSON: ${String(error)}`, { stream });
  }
}

/**
 * Events come back deep-frozen: readers share them, and a reader mutating one must not change what the
 * next reader (or a replay after restart) sees. The text is what encodeEvents wrote in the same LMDB
 * transaction as the append's index entry (LMDB never leaves a value half-written), so it is parsed as is.
 */
export function decodeEvents(json: string): readonly EventData[] {
  return deepFreeze(JSON.parse(json) as EventData[]);
}

/** Freezes `value` and everything it holds (stored events here, cached read-model documents in lmdb-doc-cache.ts). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
