import { present } from '../../domain/shared/present.js';
import type { RecordedEvent } from '../../domain/ports/event-store.port.js';
import type { StoredAppend } from './event-record.codec.js';

/** One decoded log record with what numbers its events: its offset and its first event's revision. */
export interface DecodedRecord {
  readonly commit: number;
  /** Log offset just past this record: where the next record starts. */
  readonly end: number;
  readonly firstRevision: number;
  readonly append: StoredAppend;
}

/** The event at `prepare` in the record, as readers get it (event data is deep-frozen by the codec). */
export function recordedEvent(record: DecodedRecord, prepare: number): RecordedEvent {
  const { append, commit, firstRevision } = record;
  const event = present(append.events[prepare], 'append.events[prepare]');
  return Object.freeze({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    streamId: append.stream,
    revision: BigInt(firstRevision + prepare),
    position: Object.freeze({ commit: BigInt(commit), prepare: BigInt(prepare) }),
    created: new Date(append.created.getTime()),
  });
}

/**
 * The most recently written or read records, decoded, so that live subscribers share one decode of each new
 * record and a stream read twice in a row does not touch the disk. Least recently used goes first.
 */
export class RecordCache {
  private readonly records = new Map<number, DecodedRecord>();

  constructor(readonly capacity: number) {}

  get(commit: number): DecodedRecord | undefined {
    const record = this.records.get(commit);
    if (record !== undefined) {
      this.records.delete(commit);
      this.records.set(commit, record);
    }
    return record;
  }

  set(record: DecodedRecord): void {
    this.records.delete(record.commit);
    this.records.set(record.commit, record);
    if (this.records.size > this.capacity)
      this.records.delete(present(this.records.keys().next().value, 'this.records.keys().next().value'));
  }

  get size(): number {
    return this.records.size;
  }
}
