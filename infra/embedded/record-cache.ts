import { present } from '../../domain/shared/present.js';
import type { EventData, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { decodeAppend, type StoredAppend } from './event-record.codec.js';

/**
 * One log record with what numbers its events: its offset, its stream, its first event's revision. Its
 * events are decoded from the payload the first time something reads one of them, once: a reader that
 * looks only at streams (the relay skipping a family, the sinks skipping streams they do not follow)
 * never pays for the JSON of a record it passes over.
 */
export class LogRecord {
  private decoded: StoredAppend | null;
  private readonly payload: Buffer | null;
  /** Where the payload is, for the error a corrupt one raises. */
  private readonly where: string;

  private constructor(
    readonly commit: number,
    /** Log offset just past this record: where the next record starts. */
    readonly end: number,
    readonly firstRevision: number,
    readonly stream: string,
    readonly created: Date,
    readonly count: number,
    source: { readonly decoded: StoredAppend } | { readonly payload: Buffer; readonly where: string },
  ) {
    this.decoded = 'decoded' in source ? source.decoded : null;
    this.payload = 'payload' in source ? source.payload : null;
    this.where = 'where' in source ? source.where : '';
  }

  /** A record decoded as it was read from the log. */
  static read(commit: number, end: number, firstRevision: number, append: StoredAppend): LogRecord {
    return new LogRecord(commit, end, firstRevision, append.stream, append.created, append.events.length, { decoded: append });
  }

  /** A record just written, from what its writer knows; its payload is decoded only when read. */
  static written(
    at: { commit: number; end: number; firstRevision: number; stream: string; created: Date; count: number },
    payload: Buffer,
    where: string,
  ): LogRecord {
    return new LogRecord(at.commit, at.end, at.firstRevision, at.stream, at.created, at.count, { payload, where });
  }

  /** Whether the events are decoded already (read from the log, or read once since written). */
  get isDecoded(): boolean {
    return this.decoded !== null;
  }

  /** The record's events, decoded (and deep-frozen by the codec) once. */
  get events(): readonly EventData[] {
    this.decoded ??= decodeAppend(present(this.payload, 'a record holds its payload until decoded'), this.where);
    return this.decoded.events;
  }
}

/**
 * The event at `prepare` in the record, as readers get it: its place in the log at once, its id, type,
 * data and metadata when first asked for (event data is deep-frozen by the codec). A record already decoded
 * (every record a scan reads from the log) gives them as plain fields: accessors cost a scan a third of its time.
 */
export function recordedEvent(record: LogRecord, prepare: number): RecordedEvent {
  const revision = BigInt(record.firstRevision + prepare);
  const position = Object.freeze({ commit: BigInt(record.commit), prepare: BigInt(prepare) });
  const created = new Date(record.created.getTime());
  if (record.isDecoded) {
    const { id, type, data, metadata } = present(record.events[prepare], 'a position names an event of its record');
    return Object.freeze({ id, type, data, metadata, streamId: record.stream, revision, position, created });
  }
  const event = (): EventData => present(record.events[prepare], 'a position names an event of its record');
  return Object.freeze({
    get id() {
      return event().id;
    },
    get type() {
      return event().type;
    },
    get data() {
      return event().data;
    },
    get metadata() {
      return event().metadata;
    },
    streamId: record.stream,
    revision,
    position,
    created,
  });
}

/**
 * The most recently written or read records, so that live subscribers share one decode of each new
 * record and a stream read twice in a row does not touch the disk. Least recently used goes first.
 */
export class RecordCache {
  private readonly records = new Map<number, LogRecord>();

  constructor(readonly capacity: number) {}

  get(commit: number): LogRecord | undefined {
    const record = this.records.get(commit);
    if (record !== undefined) {
      this.records.delete(commit);
      this.records.set(commit, record);
    }
    return record;
  }

  set(record: LogRecord): void {
    this.records.delete(record.commit);
    this.records.set(record.commit, record);
    if (this.records.size > this.capacity)
      this.records.delete(present(this.records.keys().next().value, 'the cache is over capacity, so not empty'));
  }

  get size(): number {
    return this.records.size;
  }
}
