import { mkdir } from 'node:fs/promises';
import {
  type AppendResult,
  comparePositions,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  matchesFilter,
  type Position,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Revision,
  type SubscribeToAllOptions,
  type SubscriptionDelivery,
  type SubscriptionFilter,
} from '../../domain/ports/event-store.port.js';
import type { CheckpointStore } from '../../domain/ports/read-store.port.js';
import { fail } from '../../domain/shared/errors.js';
import { present } from '../../domain/shared/present.js';
import { decideAppend, validateAppend } from './append-decision.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { encodeEvents } from './event-record.codec.js';
import { checkpointStoreOn } from './lmdb-checkpoint-store.js';
import { migrateLegacyDataDir } from './legacy-data-dir.js';
import { LmdbStreamIndex } from './lmdb-stream-index.js';
import { RecordReader } from './record-reader.js';
import { openStoreEnvironment, type StoreEnvironment } from './store-environment.js';

export interface LmdbEventStoreOptions {
  /** A commit is on disk before an append resolves. Defaults to true. */
  readonly fsync?: boolean;
  /** A data directory the framed-log store may have written: migrated at open, once (legacy-data-dir.ts). */
  readonly legacyDataDir?: string;
}

/** Stream reads fetch index entries this many at a time. */
const READ_PAGE = 256;
/** LMDB keys are at most 1,978 bytes; a stream index key is the stream name and a number. */
const MAX_STREAM_BYTES = 1024;
/**
 * A live filtered subscriber whose filter passes over an append is woken this long after it, at most, for
 * its checkpoint, instead of at once: a dozen consumer groups would otherwise each wake, read and pass over
 * every append of a screen on the thread that answers it. The appends of one such delay share one wake.
 */
export const CHECKPOINT_DELAY_MS = 10;

/** How far the store is durable: the commit past its last append, and the position of its last event. */
export interface LogEnd {
  readonly end: number;
  readonly head: Position | null;
}

/**
 * Opens (creating if needed) the store in `dir` and locks the directory. Nothing is read or reconciled:
 * what LMDB committed is the store. A legacy data directory is migrated first (`legacyDataDir`).
 */
export async function openLmdbEventStore(dir: string, options: LmdbEventStoreOptions = {}): Promise<LmdbEventStore> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let stored: StoreEnvironment | undefined;
  try {
    stored = openStoreEnvironment(dir, { fsync: options.fsync ?? true });
    if (options.legacyDataDir !== undefined) await migrateLegacyDataDir(options.legacyDataDir, stored);
    return new LmdbEventStore(stored, lock);
  } catch (error) {
    await stored?.env.close();
    await lock.release();
    throw error;
  }
}

/**
 * Opens the store in `dir` for reading only, alongside the LmdbEventStore of another thread of this process
 * that writes it (the projection thread): no lock, and only the appends up to `at` until `follow` moves it on.
 */
export function openLmdbEventStoreReader(dir: string, at: LogEnd, options: LmdbEventStoreOptions = {}): LmdbEventStore {
  // The environment's flags as its writer opened it (the threads of a process share one LMDB environment).
  return new LmdbEventStore(openStoreEnvironment(dir, { fsync: options.fsync ?? true, writer: false }), null, at);
}

type Decided = { readonly position: Position; readonly nextExpectedRevision: Revision; readonly written: boolean };

/**
 * The embedded EventStore: one LMDB environment holds the events (one entry per append, by commit number),
 * the stream index and the checkpoints. An append is decided and written inside a write transaction
 * (`env.transaction`), so the append rule sees every earlier append, committed or not; lmdb-js runs the
 * transactions queued in one event-loop turn (and those queued while a commit is in flight) as one LMDB
 * transaction, one fsync for all. Readers of `$all` see appends once their commit has resolved (durable).
 */
export class LmdbEventStore implements EventStore {
  private closing: Promise<void> | null = null;
  private readonly pending = new Set<Promise<unknown>>();
  /** Subscribers waiting for appends, with their filter (none: every append wakes them). */
  private readonly waiters = new Map<() => void, SubscriptionFilter | undefined>();
  /** Waiters an append did not concern: woken together when `checkpointTimer` fires. */
  private readonly deferred = new Set<() => void>();
  private checkpointTimer: NodeJS.Timeout | undefined;
  private readonly appendListeners = new Set<(at: LogEnd) => void>();
  private readonly index: LmdbStreamIndex;
  private readonly records: RecordReader;
  /** The commit number the next append gets (decided in the write transaction, in order). */
  private nextCommit: number;
  /** What `$all` readers see: appends with a commit below `end`. */
  private end: number;
  private head: Position | null;
  /** The checkpoints of the same environment (the relay's and the projections'). */
  readonly checkpoints: CheckpointStore;

  constructor(
    private readonly stored: StoreEnvironment,
    /** Held by the writer; null for a reader (openLmdbEventStoreReader). */
    private readonly lock: DirectoryLock | null,
    at?: LogEnd,
  ) {
    this.index = new LmdbStreamIndex(stored.streams);
    this.records = new RecordReader(stored.events);
    const last = this.records.last();
    this.nextCommit = last === undefined ? 0 : last.commit + 1;
    this.end = at?.end ?? this.nextCommit;
    this.head = at ? at.head : last === undefined ? null : Object.freeze({ commit: BigInt(last.commit), prepare: BigInt(last.count - 1) });
    this.checkpoints = checkpointStoreOn(stored, async () => undefined);
  }

  /** How far the store is durable now (what a reader in another thread may be told to follow). */
  get durableEnd(): LogEnd {
    return { end: this.end, head: this.head };
  }

  /** Calls `listener` after each append is durable; returns the way to stop. */
  onAppended(listener: (at: LogEnd) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** A reader: the writer has made the store durable up to `at`; subscribers go on to it. */
  follow(at: LogEnd): void {
    if (this.lock !== null) throw new Error('only a reader follows its writer');
    if (at.end <= this.end) return;
    this.stored.env.resetReadTxn();
    this.end = at.end;
    this.head = at.head;
    this.wakeSubscribers();
  }

  /**
   * LMDB's count of the write transactions the environment has committed (each one fsync): with concurrent
   * appends it grows slower than the append count, as lmdb-js commits the callbacks queued together as one.
   */
  get flushes(): number {
    // LMDB's mdb_env_info field, which lmdb-js's typings of getStats omit.
    return (this.stored.env.getStats() as { lastTxnId: number }).lastTxnId;
  }

  append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (this.closing) return Promise.reject(closedError());
    if (this.lock === null) return Promise.reject(fail('store_closed', 'this event store is open for reading only'));
    let json: string;
    try {
      validateAppend(stream, events, options.expected);
      if (Buffer.byteLength(stream) > MAX_STREAM_BYTES) throw fail('bad_request', `stream names are limited to ${MAX_STREAM_BYTES} bytes`);
      json = encodeEvents(stream, events);
    } catch (error) {
      return Promise.reject(error);
    }
    const ids = events.map((event) => event.id);
    const decided = this.stored.env.transaction(() => this.decideAndWrite(stream, ids, options.expected, json));
    const done = decided.then((result) => this.acknowledge(result, { stream, types: events.map((event) => event.type) }));
    this.pending.add(done);
    void done.catch(() => undefined).finally(() => this.pending.delete(done));
    return done;
  }

  /** Runs inside the write transaction: its reads see every append queued before this one. */
  private decideAndWrite(stream: string, ids: readonly string[], expected: ExpectedRevision, json: string): Decided {
    const view = this.index.view(stream);
    const decision = decideAppend(stream, view, ids, expected);
    if (decision.kind === 'duplicate') {
      const original = present(this.index.location(stream, Number(decision.lastRevision)), 'the decision found it in the index');
      const position = { commit: BigInt(original.commit), prepare: BigInt(original.prepare) };
      return { position, nextExpectedRevision: decision.lastRevision, written: false };
    }
    const first = Number(view.revision) + 1;
    const commit = this.nextCommit++;
    // Commits only grow: `append` fills each page instead of splitting it in half.
    this.stored.events.putSync(commit, [stream, Date.now(), first, json], { append: true });
    this.index.add(stream, first, commit, ids);
    const position = Object.freeze({ commit: BigInt(commit), prepare: BigInt(ids.length - 1) });
    return { position, nextExpectedRevision: BigInt(first + ids.length - 1), written: true };
  }

  /** After the commit: readers may see the append, and the projection thread is told. */
  private acknowledge({ position, nextExpectedRevision, written }: Decided, appended: AppendedStream): AppendResult {
    if (written && Number(position.commit) >= this.end) {
      this.end = Number(position.commit) + 1;
      this.head = position;
      this.wakeSubscribers(appended);
      const at = this.durableEnd;
      for (const listener of this.appendListeners) listener(at);
    }
    return { nextExpectedRevision, position };
  }

  async *read(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const { fromRevision, maxCount = Number.POSITIVE_INFINITY } = options;
    if (fromRevision !== undefined && fromRevision < 0n) throw fail('bad_request', `invalid fromRevision ${fromRevision}`);
    const direction = options.direction ?? 'forwards';
    // What the stream holds now: events appended while the caller iterates are not part of this read.
    const last = this.index.revision(stream);
    let next = direction === 'backwards' ? Math.min(last, Number(fromRevision ?? last)) : Number(fromRevision ?? 0n);
    for (let left = maxCount; left > 0 && next >= 0 && next <= last;) {
      const page = this.index.locations(stream, next, direction, Math.min(left, READ_PAGE)).filter((at) => at.revision <= last);
      const lastOfPage = page.at(-1);
      if (lastOfPage === undefined) return;
      for (const at of page) yield this.records.event(at.commit, at.prepare);
      left -= page.length;
      next = lastOfPage.revision + (direction === 'backwards' ? -1 : 1);
    }
  }

  async streamRevision(stream: string): Promise<Revision> {
    this.assertOpen();
    return BigInt(this.index.revision(stream));
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const { after = 'start', maxCount = Number.POSITIVE_INFINITY } = options;
    if (maxCount <= 0) return;
    let yielded = 0;
    for (const event of this.records.between(this.cursorAfter(after), this.end)) {
      yield event;
      if (++yielded >= maxCount) return;
    }
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    return this.head;
  }

  subscribeToAll(options: SubscribeToAllOptions): AsyncIterable<SubscriptionDelivery> {
    // Resolved now, not at the first next(): 'end' means the end when the caller subscribed.
    const { from } = options;
    const cursor = from === 'end' ? { from: this.end, skipThrough: null } : this.cursorAfter(from);
    return this.deliver(cursor, options.filter, options.signal);
  }

  /** Lets appends in flight finish, ends subscriptions, closes the environment and releases the directory. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.checkpointTimer);
      this.wakeSubscribers();
      await Promise.allSettled([...this.pending]);
      await this.checkpoints.close();
      await this.stored.env.close();
      await this.lock?.release();
    })();
    return this.closing;
  }

  /** `$all` from just after `after`: a position is an append's commit and an index in that append. */
  private cursorAfter(after: 'start' | Position): Cursor {
    if (after === 'start') return { from: 0, skipThrough: null };
    // No event lies past the end: a position beyond it (from another store) waits for what comes next.
    if (after.commit >= BigInt(this.end)) return { from: this.end, skipThrough: null };
    const commit = Number(after.commit);
    if (!this.records.has(commit)) throw fail('bad_request', `no append at commit ${commit}: not a position of this store`);
    return { from: commit, skipThrough: Number(after.prepare) };
  }

  private async *deliver(
    start: Cursor,
    filter: SubscriptionFilter | undefined,
    signal: AbortSignal | undefined,
  ): AsyncIterable<SubscriptionDelivery> {
    let cursor = start;
    let caughtUp = false;
    while (!signal?.aborted && !this.closing) {
      // `end` and `head` move together: `head` is the last event before `to`.
      const [to, head] = [this.end, this.head];
      if (cursor.from < to) {
        if (yield* this.eventsBetween(cursor, { to, head }, filter, signal)) return;
        cursor = { from: to, skipThrough: null };
      } else if (!caughtUp) {
        caughtUp = true;
        yield { kind: 'caughtUp', position: this.head };
      } else {
        await this.changed(filter, signal);
      }
    }
  }

  /**
   * Delivers the matching events up to `to`, then, when the filter passed over the last ones, a checkpoint
   * at `head`. Returns true when the subscription has ended (abort or close).
   */
  private async *eventsBetween(
    cursor: Cursor,
    { to, head }: { to: number; head: Position | null },
    filter: SubscriptionFilter | undefined,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<SubscriptionDelivery, boolean> {
    // The last event read and delivered, or the one the cursor starts after.
    let delivered: Position | null =
      cursor.skipThrough === null ? null : { commit: BigInt(cursor.from), prepare: BigInt(cursor.skipThrough) };
    try {
      for (const event of this.records.between(cursor, to, filter?.streamPrefixes)) {
        if (signal?.aborted || this.closing) return true;
        if (!matchesFilter(event, filter)) continue;
        delivered = event.position;
        yield { kind: 'event', event };
      }
    } catch (error) {
      // Closing closes the environment under a reader; that ends the subscription, as close promises.
      if (this.closing) return true;
      throw error;
    }
    if (filter && head !== null && (delivered === null || comparePositions(delivered, head) < 0))
      yield { kind: 'checkpoint', position: head };
    return false;
  }

  /**
   * Resolves on the next append that `filter` lets through, CHECKPOINT_DELAY_MS after one it passes over,
   * on close, or on abort. One waiter per waiting subscriber, no leaks.
   */
  private changed(filter: SubscriptionFilter | undefined, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.waiters.delete(wake);
        this.deferred.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.set(wake, filter);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  /** Wakes the subscribers `appended` concerns now, the others after CHECKPOINT_DELAY_MS; all without `appended`. */
  private wakeSubscribers(appended?: AppendedStream): void {
    for (const [wake, filter] of [...this.waiters]) {
      if (appended === undefined || concerns(filter, appended)) wake();
      else this.deferred.add(wake);
    }
    if (this.deferred.size === 0 || this.checkpointTimer !== undefined) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      for (const wake of [...this.deferred]) wake();
    }, CHECKPOINT_DELAY_MS);
    this.checkpointTimer.unref();
  }

  private assertOpen(): void {
    if (this.closing) throw closedError();
  }
}

/** Where a `$all` read starts: an append's commit, and the last index in it already delivered (if any). */
export interface Cursor {
  readonly from: number;
  readonly skipThrough: number | null;
}

/** The stream of an append and the types of its events. */
interface AppendedStream {
  readonly stream: string;
  readonly types: readonly string[];
}

function concerns(filter: SubscriptionFilter | undefined, { stream, types }: AppendedStream): boolean {
  return types.some((type) => matchesFilter({ streamId: stream, type }, filter));
}

function closedError() {
  return fail('store_closed', 'the event store is closed');
}
