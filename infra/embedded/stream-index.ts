import { type Database, open, type RootDatabase } from 'lmdb';
import type { Revision } from '../../domain/ports/event-store.port.js';
import type { StreamView } from './append-decision.js';
import { UncommittedEntries } from './uncommitted-entries.js';

/** One log record (one append) as the index needs it: where it starts, its stream and its event ids. */
export interface IndexedAppend {
  readonly offset: number;
  readonly stream: string;
  readonly ids: readonly string[];
  /**
   * Whether the record itself says which revision its first event has (records written since the index
   * keeps one entry per append do): only older records need the index to number their events in `$all`.
   */
  readonly numbered?: boolean;
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

/** An append as stored under [stream, revision of its first event]: its record's offset, then its event ids. */
type AppendEntry = readonly [offset: number, ...ids: string[]];

interface Covering {
  readonly first: number;
  readonly entry: AppendEntry;
}

/** How long the first entry of a commit waits for company. */
const COMMIT_DELAY_MS = 50;
/** Appends collected beyond which a commit starts at once. */
const MAX_PENDING_APPENDS = 4096;
/** Appends not committed yet beyond which `add` waits: bounds the uncommitted entries. */
const MAX_UNCOMMITTED_APPENDS = 4 * MAX_PENDING_APPENDS;

/** Entries collected for one commit. */
interface PendingBatch {
  readonly id: number;
  readonly puts: (() => void)[];
  readonly streams: Set<string>;
  readonly records: string[];
  mark: IndexMark | null;
  timer: ReturnType<typeof setTimeout> | null;
  readonly committed: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}
const idsOf = (entry: AppendEntry): readonly string[] => entry.slice(1) as string[];
const covers = ({ first, entry }: Covering, revision: number) => revision >= first && revision < first + entry.length - 1;

/**
 * The event log's index, on disk in LMDB (memory-mapped: the OS pages in what is used, the process keeps
 * nothing per event or per stream). One entry per append, not per event (an append of a batch of charges is
 * one write here, whatever its size):
 *   heads    stream → revision of its last event
 *   appends  [stream, revision of the append's first event] → [record offset, event id…]
 *   records  record offset → revision of its first event, for records older than this layout (newer ones
 *            carry it themselves)
 *   meta     'mark' → IndexMark, written in the same transaction as the entries it covers
 * It is derived from the log alone, so it needs no fsync of its own: after a crash the log's tail past the
 * mark is indexed again. Writes are committed in the background; until then lookups and range reads
 * (`locations`) answer from the uncommitted entries too.
 */
export class StreamIndex {
  private readonly uncommitted = {
    heads: new UncommittedEntries<number>(),
    appends: new Map<string, { first: number; entry: AppendEntry; batch: number }[]>(),
    records: new UncommittedEntries<number>(),
  };
  /** The entries being collected for the next commit, and the commit in flight. */
  private collecting: PendingBatch | null = null;
  private inFlight: Promise<void> | null = null;
  private uncommittedAppends = 0;
  private batches = 0;
  private failure: unknown = null;

  private constructor(
    private readonly env: RootDatabase,
    private readonly heads: Database<number, string>,
    private readonly appends: Database<AppendEntry, [string, number]>,
    private readonly records: Database<number, number>,
    private readonly meta: Database<IndexMark, string>,
    private current: IndexMark | undefined,
  ) {}

  static open(path: string, options: { fsync: boolean }): StreamIndex {
    // Durability comes from the log: an unsynced index is rebuilt from the mark on.
    const env = open({ path, maxDbs: 4, noSync: !options.fsync, compression: false });
    const meta = env.openDB<IndexMark, string>({ name: 'meta' });
    return new StreamIndex(
      env,
      env.openDB({ name: 'heads' }),
      env.openDB({ name: 'appends' }),
      env.openDB({ name: 'records' }),
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
      idAt: (revision) => {
        const found = revision < 0n ? undefined : this.covering(stream, Number(revision));
        return found && idsOf(found.entry)[Number(revision) - found.first];
      },
      revisionOfId: (id) => {
        const revision = this.revisionOfId(stream, id);
        return revision === undefined ? undefined : BigInt(revision);
      },
    };
  }

  location(stream: string, revision: number): EventLocation | undefined {
    const found = this.covering(stream, revision);
    return found && { revision, commit: found.entry[0], prepare: revision - found.first };
  }

  /** Reads see what another thread's index committed since (a reader's index follows its writer's). */
  refresh(): void {
    this.env.resetReadTxn();
  }

  /** Commits what is collected now; resolves once every entry added so far is committed (range reads see committed entries only). */
  async settled(): Promise<void> {
    await this.flush();
  }

  /**
   * Up to `limit` of the stream's events from `from` (inclusive), in the given direction: the committed
   * entries and those not committed yet (their appends are durable in the log already).
   */
  locations(stream: string, from: number, direction: 'forwards' | 'backwards', limit: number): EventLocation[] {
    const backwards = direction === 'backwards';
    const appends = new Map<number, AppendEntry>();
    const start = this.committedCovering(stream, from)?.first ?? (backwards ? -1 : from);
    if (start >= 0) {
      const range = this.appends.getRange({
        start: [stream, start],
        end: [stream, backwards ? -1 : Number.MAX_SAFE_INTEGER],
        reverse: backwards,
      });
      let events = 0;
      for (const { key, value } of range) {
        appends.set(key[1], value);
        if ((events += value.length - 1) >= limit) break;
      }
    }
    for (const pending of this.uncommitted.appends.get(stream) ?? []) appends.set(pending.first, pending.entry);
    const out: EventLocation[] = [];
    for (const first of [...appends.keys()].sort((a, b) => (backwards ? b - a : a - b))) {
      const entry = appends.get(first) as AppendEntry;
      const count = entry.length - 1;
      for (let i = 0; i < count && out.length < limit; i += 1) {
        const prepare = backwards ? count - 1 - i : i;
        const revision = first + prepare;
        if (backwards ? revision > from : revision < from) continue;
        // The committed range stops at `limit` events, and uncommitted appends may lie past it: a page ends
        // at the first gap, and the caller's next page starts there.
        const previous = out.at(-1);
        if (previous && revision !== previous.revision + (backwards ? -1 : 1)) return out;
        out.push({ revision, commit: entry[0], prepare });
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  /** The revision of the first event of the record at `commit`, for records that do not carry it. */
  firstRevisionAt(commit: number): number | undefined {
    return this.uncommitted.records.get(String(commit)) ?? this.records.get(commit);
  }

  /**
   * Indexes appends read or written in log order and moves the mark to `end`. Returns each append's first
   * revision at once (lookups see the entries from now on) and `committed`, which resolves once LMDB has
   * committed them. Entries are committed together, one transaction at a time, COMMIT_DELAY_MS after the
   * first of them or at once past MAX_PENDING_APPENDS (a transaction per round of appends cost more than
   * the appends): the index is derived from the log, so a crash loses nothing but the work of indexing the
   * tail again. Waits first while too many appends are uncommitted.
   */
  async add(appends: readonly IndexedAppend[], end: number): Promise<{ firstRevisions: number[]; committed: Promise<void> }> {
    while (this.uncommittedAppends >= MAX_UNCOMMITTED_APPENDS) await this.flush();
    if (this.failure) throw this.failure;
    const batch = (this.collecting ??= this.newBatch());
    const { heads, appends: pending, records } = this.uncommitted;
    const firstRevisions = appends.map(({ offset, stream, ids, numbered }) => {
      const first = this.head(stream) + 1;
      const entry: AppendEntry = [offset, ...ids];
      const list = pending.get(stream) ?? [];
      list.push({ first, entry, batch: batch.id });
      pending.set(stream, list);
      heads.set(stream, first + ids.length - 1, batch.id);
      batch.streams.add(stream);
      if (numbered !== true) {
        records.set(String(offset), first, batch.id);
        batch.records.push(String(offset));
      }
      // Inside the transaction a put's own promise settles with the transaction, which is awaited.
      batch.puts.push(() => {
        void this.appends.put([stream, first], entry);
        void this.heads.put(stream, first + ids.length - 1);
        if (numbered !== true) void this.records.put(offset, first);
      });
      return first;
    });
    this.uncommittedAppends += appends.length;
    const latest = appends.at(-1);
    batch.mark = {
      end,
      last: latest === undefined ? (batch.mark?.last ?? this.current?.last ?? null) : { commit: latest.offset, count: latest.ids.length },
    };
    if (batch.puts.length >= MAX_PENDING_APPENDS) void this.flush().catch(() => undefined);
    else batch.timer ??= setTimeout(() => void this.flush().catch(() => undefined), COMMIT_DELAY_MS).unref();
    return { firstRevisions, committed: batch.committed };
  }

  /** Commits what is collected (after the commit in flight); resolves once everything added so far is committed. */
  private flush(): Promise<void> {
    const batch = this.collecting;
    if (batch === null) return this.inFlight ?? Promise.resolve();
    this.collecting = null;
    if (batch.timer) clearTimeout(batch.timer);
    const previous = this.inFlight ?? Promise.resolve();
    const commit = previous
      .catch(() => undefined)
      .then(async () => {
        if (this.failure) throw this.failure;
        const mark = batch.mark;
        await this.env.transaction(() => {
          for (const put of batch.puts) put();
          if (mark) void this.meta.put('mark', mark);
        });
        if (mark) this.current = mark;
        const { heads, appends: pending, records } = this.uncommitted;
        heads.forget(batch.streams, batch.id);
        records.forget(batch.records, batch.id);
        for (const stream of batch.streams) {
          const left = (pending.get(stream) ?? []).filter((e) => e.batch !== batch.id);
          if (left.length === 0) pending.delete(stream);
          else pending.set(stream, left);
        }
        this.uncommittedAppends -= batch.puts.length;
      })
      .catch((error: unknown) => {
        this.failure ??= error;
        throw error;
      });
    const settled: Promise<void> = commit.then(batch.resolve, batch.reject).finally(() => {
      if (this.inFlight === settled) this.inFlight = null;
    });
    this.inFlight = settled;
    return commit;
  }

  private newBatch(): PendingBatch {
    let resolve = (): void => undefined;
    let reject = (_error: unknown): void => undefined;
    const committed = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    committed.catch(() => undefined);
    return { id: (this.batches += 1), puts: [], streams: new Set(), records: [], mark: null, timer: null, committed, resolve, reject };
  }

  /** Forgets everything: the index will be built again from the start of the log. */
  async clear(): Promise<void> {
    await Promise.all([this.heads, this.appends, this.records, this.meta].map((db) => db.clearAsync()));
    this.current = undefined;
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.env.close();
  }

  private head(stream: string): number {
    return this.uncommitted.heads.get(stream) ?? this.heads.get(stream) ?? -1;
  }

  /** The append holding the stream's event at `revision`, uncommitted ones first. */
  private covering(stream: string, revision: number): Covering | undefined {
    const pending = this.uncommitted.appends.get(stream);
    if (pending !== undefined) for (const found of pending) if (covers(found, revision)) return found;
    return this.committedCovering(stream, revision);
  }

  private committedCovering(stream: string, revision: number): Covering | undefined {
    for (const { key, value } of this.appends.getRange({ start: [stream, revision], end: [stream, -1], reverse: true, limit: 1 })) {
      const found = { first: key[1], entry: value };
      return covers(found, revision) ? found : undefined;
    }
    return undefined;
  }

  /**
   * The latest revision of the stream holding `id` (the idempotence rule of `any` appends, which the service
   * never makes: each of its appends names the revision it expects). Walks the stream's appends from the
   * newest, so a retry of a recent append is found at once.
   */
  private revisionOfId(stream: string, id: string): number | undefined {
    const pending = this.uncommitted.appends.get(stream) ?? [];
    const find = ({ first, entry }: Covering) => {
      const at = idsOf(entry).lastIndexOf(id);
      return at === -1 ? undefined : first + at;
    };
    for (let i = pending.length - 1; i >= 0; i -= 1) {
      const found = find(pending[i] as Covering);
      if (found !== undefined) return found;
    }
    const range = this.appends.getRange({ start: [stream, Number.MAX_SAFE_INTEGER], end: [stream, -1], reverse: true });
    for (const { key, value } of range) {
      const found = find({ first: key[1], entry: value });
      if (found !== undefined) return found;
    }
    return undefined;
  }
}
