import { type Database, open, type RootDatabase } from 'lmdb';
import type { Revision } from '../../domain/ports/event-store.port.js';
import type { StreamView } from './append-decision.js';
import { UncommittedEntries } from './uncommitted-entries.js';

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

/** Batches handed to LMDB and not committed yet beyond which `add` waits: bounds the uncommitted entries. */
const MAX_UNCOMMITTED_BATCHES = 16;
const keyOf = (stream: string, part: string | number) => `${stream}\u0000${part}`;

/**
 * The event log's index, on disk in LMDB (memory-mapped: the OS pages in what is used, the process keeps
 * nothing per event or per stream):
 *   heads    stream → revision of its last event
 *   events   [stream, revision] → [record offset, index in the append, event id]
 *   ids      [stream, event id] → latest revision holding that id (the idempotence rule)
 *   appends  record offset → revision of the append's first event (to number events read in `$all` order)
 *   meta     'mark' → IndexMark, written in the same transaction as the entries it covers
 * It is derived from the log alone, so it needs no fsync of its own: after a crash the log's tail past the
 * mark is indexed again. Writes are committed in the background; until then single-key lookups answer from
 * the uncommitted entries, and range reads (`locations`) wait for `settled()`.
 */
export class StreamIndex {
  private readonly uncommitted = {
    heads: new UncommittedEntries<number>(),
    events: new UncommittedEntries<EventEntry>(),
    ids: new UncommittedEntries<number>(),
    appends: new UncommittedEntries<number>(),
  };
  private readonly commits: Promise<void>[] = [];
  private batches = 0;
  private failure: unknown = null;

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

  /** Why the last commit failed, if one did: the index then lacks what the log holds until a reopen. */
  get broken(): unknown {
    return this.failure;
  }

  revision(stream: string): Revision {
    return BigInt(this.head(stream));
  }

  view(stream: string): StreamView {
    return {
      revision: this.revision(stream),
      idAt: (revision) => (revision < 0n ? undefined : this.entry(stream, Number(revision))?.[2]),
      revisionOfId: (id) => {
        const revision = this.uncommitted.ids.get(keyOf(stream, id)) ?? this.ids.get([stream, id]);
        return revision === undefined ? undefined : BigInt(revision);
      },
    };
  }

  location(stream: string, revision: number): EventLocation | undefined {
    const entry = this.entry(stream, revision);
    return entry && { revision, commit: entry[0], prepare: entry[1] };
  }

  /** Resolves once every batch added so far is committed (range reads see committed entries only). */
  async settled(): Promise<void> {
    await Promise.all(this.commits);
  }

  /** Up to `limit` of the stream's events from `from` (inclusive), in the given direction; call after `settled()`. */
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
    return this.uncommitted.appends.get(String(commit)) ?? this.appends.get(commit);
  }

  /**
   * Indexes appends read or written in log order and moves the mark to `end`, in one transaction. Returns
   * each append's first revision at once (lookups see the entries from now on) and `committed`, which
   * resolves once LMDB has committed them. Waits first while too many batches are uncommitted.
   */
  async add(appends: readonly IndexedAppend[], end: number): Promise<{ firstRevisions: number[]; committed: Promise<void> }> {
    while (this.commits.length >= MAX_UNCOMMITTED_BATCHES) await this.commits[0];
    if (this.failure) throw this.failure;
    const batch = (this.batches += 1);
    const { heads, events, ids, appends: firsts } = this.uncommitted;
    const written = { heads: new Set<string>(), events: [] as string[], ids: [] as string[], appends: [] as string[] };
    const puts: (() => void)[] = [];
    const firstRevisions = appends.map(({ offset, stream, ids: eventIds }) => {
      const first = this.head(stream) + 1;
      eventIds.forEach((id, i) => {
        const entry: EventEntry = [offset, i, id];
        events.set(keyOf(stream, first + i), entry, batch);
        ids.set(keyOf(stream, id), first + i, batch);
        written.events.push(keyOf(stream, first + i));
        written.ids.push(keyOf(stream, id));
        // Inside the transaction below a put's own promise settles with the transaction, which is awaited.
        puts.push(() => {
          void this.events.put([stream, first + i], entry);
          void this.ids.put([stream, id], first + i);
        });
      });
      heads.set(stream, first + eventIds.length - 1, batch);
      written.heads.add(stream);
      firsts.set(String(offset), first, batch);
      written.appends.push(String(offset));
      puts.push(() => {
        void this.heads.put(stream, first + eventIds.length - 1);
        void this.appends.put(offset, first);
      });
      return first;
    });
    const latest = appends.at(-1);
    const last = latest === undefined ? (this.current?.last ?? null) : { commit: latest.offset, count: latest.ids.length };
    const mark: IndexMark = { end, last };
    const committed = this.env
      .transaction(() => {
        for (const put of puts) put();
        void this.meta.put('mark', mark);
      })
      .then(
        () => {
          this.current = mark;
          heads.forget(written.heads, batch);
          events.forget(written.events, batch);
          ids.forget(written.ids, batch);
          firsts.forget(written.appends, batch);
        },
        (error: unknown) => {
          this.failure = error;
          throw error;
        },
      )
      .finally(() => this.commits.splice(this.commits.indexOf(committed), 1));
    this.commits.push(committed);
    return { firstRevisions, committed };
  }

  /** Forgets everything: the index will be built again from the start of the log. */
  async clear(): Promise<void> {
    await Promise.all([this.heads, this.events, this.ids, this.appends, this.meta].map((db) => db.clearAsync()));
    this.current = undefined;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.commits);
    await this.env.close();
  }

  private head(stream: string): number {
    return this.uncommitted.heads.get(stream) ?? this.heads.get(stream) ?? -1;
  }

  private entry(stream: string, revision: number): EventEntry | undefined {
    return this.uncommitted.events.get(keyOf(stream, revision)) ?? this.events.get([stream, revision]);
  }
}
