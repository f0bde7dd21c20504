import type { Database } from 'lmdb';
import type { EventData, RecordedEvent } from '../../domain/ports/event-store.port.js';
import { present } from '../../domain/shared/present.js';
import { decodeEvents, type StoredAppend } from './event-record.codec.js';

/** Appends read from LMDB at a time by a `$all` read: no read transaction stays open while a consumer awaits. */
const SCAN_PAGE = 256;
/** Decoded appends kept, so that live subscribers share one decode of each new append. */
const DECODED_KEPT = 1024;

/**
 * Reads appends out of the `events` database as RecordedEvents. Events are decoded when first read and the
 * most recent decodes are kept (least recently used goes first).
 */
export class RecordReader {
  private readonly decoded = new Map<number, readonly EventData[]>();

  constructor(private readonly events: Database<StoredAppend, number>) {}

  /** The last append: its commit and its number of events. */
  last(): { commit: number; count: number } | undefined {
    for (const { key, value } of this.events.getRange({ reverse: true, limit: 1 }))
      return { commit: key, count: this.eventsOf(key, value).length };
    return undefined;
  }

  has(commit: number): boolean {
    return this.events.doesExist(commit);
  }

  event(commit: number, prepare: number): RecordedEvent {
    // The stream index entry that led here was written in the transaction of this append.
    const append = present(this.events.get(commit), 'the stream index points at a stored append');
    return recordedEvent(commit, append, this.eventsOf(commit, append), prepare);
  }

  /**
   * The events from the cursor up to commit `to` (exclusive), a page of appends at a time. With
   * `streamPrefixes`, appends to other streams are passed over without decoding their events.
   */
  *between(cursor: { from: number; skipThrough: number | null }, to: number, streamPrefixes?: readonly string[]): Generator<RecordedEvent> {
    let from = cursor.from;
    let skipThrough = cursor.skipThrough;
    while (from < to) {
      const page = [...this.events.getRange({ start: from, end: to, limit: SCAN_PAGE })];
      for (const { key, value } of page) {
        const first = key === cursor.from && skipThrough !== null ? skipThrough + 1 : 0;
        if (streamPrefixes && !streamPrefixes.some((prefix) => value[0].startsWith(prefix))) continue;
        const events = this.eventsOf(key, value);
        for (let prepare = first; prepare < events.length; prepare += 1) yield recordedEvent(key, value, events, prepare);
      }
      if (page.length < SCAN_PAGE) return;
      from = present(page.at(-1), 'a full page').key + 1;
      skipThrough = null;
    }
  }

  private eventsOf(commit: number, append: StoredAppend): readonly EventData[] {
    const kept = this.decoded.get(commit);
    if (kept !== undefined) {
      this.decoded.delete(commit);
      this.decoded.set(commit, kept);
      return kept;
    }
    const events = decodeEvents(append[3]);
    this.decoded.set(commit, events);
    if (this.decoded.size > DECODED_KEPT) this.decoded.delete(present(this.decoded.keys().next().value, 'over capacity, so not empty'));
    return events;
  }
}

function recordedEvent(
  commit: number,
  [stream, createdMs, first]: StoredAppend,
  events: readonly EventData[],
  prepare: number,
): RecordedEvent {
  const { id, type, data, metadata } = present(events[prepare], 'a position names an event of its append');
  const position = Object.freeze({ commit: BigInt(commit), prepare: BigInt(prepare) });
  return Object.freeze({
    id,
    type,
    data,
    metadata,
    streamId: stream,
    revision: BigInt(first + prepare),
    position,
    created: new Date(createdMs),
  });
}
