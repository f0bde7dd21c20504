import type { EventData, EventMetadata } from '../../domain/ports/event-store.port.js';
import { fail } from '../../domain/shared/errors.js';

/** One append is one log record, so a torn tail can never leave half an append behind. */
export interface StoredAppend {
  readonly stream: string;
  readonly created: Date;
  readonly events: readonly EventData[];
  /** The stream revision of the first event (records written before it was kept lack it: the index knows). */
  readonly first?: number;
}

interface StoredAppendJson {
  readonly stream: string;
  /** Epoch milliseconds. */
  readonly created: number;
  readonly first?: number;
  readonly events: readonly { id: string; type: string; data: unknown; metadata: EventMetadata }[];
}

export function encodeAppend(append: StoredAppend): Buffer {
  const json: StoredAppendJson = {
    stream: append.stream,
    created: append.created.getTime(),
    ...(append.first === undefined ? {} : { first: append.first }),
    events: append.events.map(({ id, type, data, metadata }) => ({ id, type, data, metadata })),
  };
  try {
    return Buffer.from(JSON.stringify(json));
  } catch (error) {
    throw fail('bad_request', `event data and metadata must be plain JSON: ${String(error)}`, { stream: append.stream });
  }
}

/**
 * Events come back deep-frozen: readers share them, and a reader mutating one must not change what the
 * next reader (or a replay after restart) sees.
 */
export function decodeAppend(payload: Buffer, where: string): StoredAppend {
  let json: StoredAppendJson;
  try {
    json = JSON.parse(payload.toString('utf8')) as StoredAppendJson;
  } catch (error) {
    throw fail('store_corrupt', `${where}: record is not JSON (${String(error)})`);
  }
  if (
    typeof json?.stream !== 'string' ||
    typeof json.created !== 'number' ||
    !Array.isArray(json.events) ||
    !(json.first === undefined || Number.isSafeInteger(json.first))
  ) {
    throw fail('store_corrupt', `${where}: record is not an append`);
  }
  return {
    stream: json.stream,
    created: new Date(json.created),
    events: json.events.map((event) => deepFreeze(event)),
    ...(json.first === undefined ? {} : { first: json.first }),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
