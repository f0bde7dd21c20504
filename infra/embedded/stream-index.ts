import { type Database, open, type RootDatabase } from 'lmdb';
import type { Revision } from '../../domain/ports/event-store.port.js';
import type { StreamView } from './append-decision.js';

/** One log record (one append) as the index needs it: where it starts, its stream and its event ids. */
export interface IndexedAppend {
  readonly offset: number;
  readonly stream: string;
  readonly ids: readonly string[];
}

/** Where an event lives in the log: its append's record offset and its index within the append. */
export interface EventLocation {
  readonly revision: number;
  readonly commit: number;
  readonly prepare: number;
}

/** How far the log is indexed: bytes [0, end) and the last record indexed (the `$all` head). */
export interface IndexMark {
  readonly end: number;
  readonly last: { readonly commit: number; readonly count: number } | null;
}

type EventEntry = [commit: number, prepare: number, id: string];

/**
 * The event log's index, on disk in LMDB (memory-mapped: the OS pages in what is used, the process keeps
 * nothing per event or per stream):
 *   heads    stream → revision of its last event
 *   events   [stream, revision] → [record offset, index in the append, event id]
 *   ids      [stream, event id] → latest revision holding that id (the idempotence rule)
 *   appends  record offset → revision of the append's first event (to number events read in `$all` order)
 *   meta     'mark' → IndexMark, written in the same transaction as the entries it covers
 * It is derived from the log alone, so it needs no fsync of its own: after a crash the log's tail past the
 * mark is indexed again.
 */
export class StreamIndex {
  private constructor(
    private readonly env: RootDatabase,
    private readonly heads: Database<number, string>,
    private readonly events: Database<EventEntry, [string, number]>,
    private readonly ids: Database<number, [string, string]>,
    private readonly appends: Database<number, number>,
    private readonly meta: Database<IndexMark, string>,
    private current: IndexMark | undefined,
  ) {}

  static open(path: string, options: { fsync: boolean }): StreamIndex {
    // Durability comes from the log: an unsynced index is rebuilt from the mark on.
    const env = open({ path, maxDbs: 5, noSync: !options.fsync, compression: false });
    const meta = env.openDB<IndexMark, string>({ name: 'meta' });
    return new StreamIndex(
      env,
      env.openDB({ name: 'heads' }),
      env.openDB({ name: 'events' }),
      env.openDB({ name: 'ids' }),
      env.openDB({ name: 'appends' }),
      meta,
      meta.get('mark'),
    );
  }

  /** Undefined for an index that covers nothing yet (new, or built by nothing: an old data directory). */
  get mark(): IndexMark | undefined {
    return this.current;
  }

  revision(stream: string): Revision {
    return BigInt(this.heads.get(stream) ?? -1);
  }

  view(stream: string): StreamView {
    return {
      revision: this.revision(stream),
      idAt: (revision) => (revision < 0n ? undefined : this.events.get([stream, Number(revision)])?.[2]),
      revisionOfId: (id) => {
        const revision = this.ids.get([stream, id]);
        return revision === undefined ? undefined : BigInt(revision);
      },
    };
  }

  location(stream: string, revision: number): EventLocation | undefined {
    const entry = this.events.get([stream, revision]);
    return entry && { revision, commit: entry[0], prepare: entry[1] };
  }

  /** Up to `limit` of the stream's events from `from` (inclusive), in the given direction. */
  locations(stream: string, from: number, direction: 'forwards' | 'backwards', limit: number): EventLocation[] {
    const backwards = direction === 'backwards';
    const range = this.events.getRange({
      start: [stream, from],
      end: [stream, backwards ? -1 : Number.MAX_SAFE_INTEGER],
      reverse: backwards,
      limit,
    });
    return [...range].map(({ key, value }) => ({ revision: key[1], commit: value[0], prepare: value[1] }));
  }

  firstRevisionAt(commit: number): number | undefined {
    return this.appends.get(commit);
  }

  /**
   * Indexes appends read or written in log order, and moves the mark to `end`, in one transaction.
   * Resolves, once committed (visible to reads), with each append's first revision.
   */
  async add(appends: readonly IndexedAppend[], end: number): Promise<number[]> {
    const last = appends.length === 0 ? (this.current?.last ?? null) : { commit: appends.at(-1)!.offset, count: appends.at(-1)!.ids.length };
    const mark: IndexMark = { end, last };
    const firsts = await this.env.transaction(() => {
      const added = appends.map(({ offset, stream, ids }) => {
        // Reads inside the transaction see its own writes, so appends to one stream in one batch chain up.
        const first = (this.heads.get(stream) ?? -1) + 1;
        ids.forEach((id, i) => {
          this.events.put([stream, first + i], [offset, i, id]);
          this.ids.put([stream, id], first + i);
        });
        this.heads.put(stream, first + ids.length - 1);
        this.appends.put(offset, first);
        return first;
      });
      this.meta.put('mark', mark);
      return added;
    });
    this.current = mark;
    return firsts;
  }

  /** Forgets everything: the index will be built again from the start of the log. */
  async clear(): Promise<void> {
    await Promise.all([this.heads, this.events, this.ids, this.appends, this.meta].map((db) => db.clearAsync()));
    this.current = undefined;
  }

  close(): Promise<void> {
    return this.env.close();
  }
}
