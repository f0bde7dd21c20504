import type { Position } from '../../../domain/ports/event-store.port.js';

/**
 * Where a consumer group may put its one checkpoint in `$all`: after every event it has read and handled,
 * and before the first it has read but not handled yet. Events are read in log order and handled out of
 * order (each topic-partition on its own, a delayed one later), so this keeps only the open ones, each with
 * the position read just before it: the checkpoint is the oldest open one's predecessor, or the last
 * position read when none is open. Memory is the number of open events (bounded by the group's buffer).
 */
export class LowWatermark {
  /** Open events by commit position, in read order (a Map keeps insertion order): their predecessors. */
  private readonly open = new Map<string, Position | null>();
  private last: Position | null;

  constructor(start: Position | null) {
    this.last = start;
  }

  /** An event read and handed to a lane: open until `close`. Returns its key. */
  read(position: Position, handled: boolean): string {
    const key = `${position.commit}:${position.prepare}`;
    if (!handled) this.open.set(key, this.last);
    this.last = position;
    return key;
  }

  /** Events up to `position` read, none of them handed to a lane (a subscription's checkpoint). */
  passOver(position: Position): void {
    this.last = position;
  }

  close(key: string): void {
    this.open.delete(key);
  }

  /** The last position read (not necessarily handled). */
  get readUpTo(): Position | null {
    return this.last;
  }

  /** Everything up to this position is handled; null when nothing is. */
  get position(): Position | null {
    for (const predecessor of this.open.values()) return predecessor;
    return this.last;
  }
}
