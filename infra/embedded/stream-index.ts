import {
  comparePositions,
  type Position,
  type RecordedEvent,
  type Revision,
} from '../../domain/ports/event-store.port.js';
import type { StreamView } from './append-decision.js';
import type { StoredAppend } from './event-record.codec.js';

interface StreamEntry {
  readonly events: RecordedEvent[];
  readonly revisionById: Map<string, Revision>;
}

const EMPTY: readonly RecordedEvent[] = [];

/**
 * Every recorded event in memory, in `$all` order and per stream by revision, so reads and the append
 * rule cost O(log n) at most.
 */
export class StreamIndex {
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, StreamEntry>();

  get length(): number {
    return this.all.length;
  }

  at(index: number): RecordedEvent | undefined {
    return this.all[index];
  }

  head(): Position | null {
    return this.all[this.all.length - 1]?.position ?? null;
  }

  /** Index in `$all` order of the first event strictly after `position`. */
  indexAfter(position: Position): number {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (comparePositions(this.all[mid]!.position, position) <= 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  streamEvents(stream: string): readonly RecordedEvent[] {
    return this.streams.get(stream)?.events ?? EMPTY;
  }

  revision(stream: string): Revision {
    return BigInt(this.streamEvents(stream).length) - 1n;
  }

  view(stream: string): StreamView {
    const entry = this.streams.get(stream);
    return {
      revision: this.revision(stream),
      idAt: (revision) => (revision < 0n ? undefined : entry?.events[Number(revision)]?.id),
      revisionOfId: (id) => entry?.revisionById.get(id),
    };
  }

  /** Records one append written at log offset `commit`; positions are `{ commit, prepare: index in append }`. */
  add(append: StoredAppend, commit: bigint): RecordedEvent[] {
    let entry = this.streams.get(append.stream);
    if (!entry) {
      entry = { events: [], revisionById: new Map() };
      this.streams.set(append.stream, entry);
    }
    const first = entry.events.length;
    const recorded = append.events.map((event, i): RecordedEvent =>
      Object.freeze({
        id: event.id,
        type: event.type,
        data: event.data,
        metadata: event.metadata,
        streamId: append.stream,
        revision: BigInt(first + i),
        position: Object.freeze({ commit, prepare: BigInt(i) }),
        created: new Date(append.created.getTime()),
      }),
    );
    for (const event of recorded) {
      entry.events.push(event);
      entry.revisionById.set(event.id, event.revision);
      this.all.push(event);
    }
    return recorded;
  }
}
