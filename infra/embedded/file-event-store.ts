import { present } from '../../domain/shared/present.js';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AppendResult,
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
import { fail } from '../../domain/shared/errors.js';
import { decideAppend, validateAppend } from './append-decision.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { decodeAppend, encodeAppend } from './event-record.codec.js';
import { indexRecords, unindexedTail } from './event-log-recovery.js';
import { FRAME_HEADER_BYTES } from './frame.codec.js';
import { FramedLog } from './framed-log.js';
import { LogRecord, RecordCache, recordedEvent } from './record-cache.js';
import { StagedStreams } from './staged-streams.js';
import { StreamIndex } from './stream-index.js';

export interface FileEventStoreOptions {
  /** fdatasync before acknowledging an append. Defaults to true. */
  readonly fsync?: boolean;
}

const LOG_FILE = 'events.log';
/** LMDB's data file; LMDB keeps its lock file beside it (`events.streams.mdb-lock`). */
const INDEX_FILE = 'events.streams.mdb';
/** The index of earlier versions (an entry per event): a directory that has only it is indexed anew, once. */
const RETIRED_INDEX_FILES = ['events.index.mdb', 'events.index.mdb-lock'];
/** Decoded records kept for readers (the most recent ones): 1,024 appends, a few MB at most for ~1 KB appends. */
export const RECORD_CACHE_SIZE = 1024;
/** Stream reads fetch index entries this many at a time. */
const READ_PAGE = 256;
/** Records a stream's read has requested from the disk ahead of the one it waits for. */
const READ_AHEAD = 16;
/** LMDB keys are at most 1,978 bytes and an id key is the stream name plus a 36-character event id. */
const MAX_STREAM_BYTES = 1024;

/**
 * Opens (creating if needed) the store in `dir` and locks the directory. The index covers the log up to its
 * mark; only the log's tail past the mark is read (and indexed), so opening does not grow with the log. A
 * directory without an index (written before it existed) is indexed from the start, once.
 */
export async function openFileEventStore(dir: string, options: FileEventStoreOptions = {}): Promise<FileEventStore> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  const fsync = options.fsync ?? true;
  let index: StreamIndex | undefined;
  try {
    const opened = StreamIndex.open(join(dir, INDEX_FILE), { fsync });
    index = opened;
    const path = join(dir, LOG_FILE);
    const log = await FramedLog.openFrom(path, {
      fsync,
      from: (unverified) => unindexedTail(opened, unverified),
      onRecords: (records) => indexRecords(opened, records, path),
    });
    try {
      await opened.settled();
    } catch (error) {
      await log.close();
      throw error;
    }
    await Promise.all(RETIRED_INDEX_FILES.map((file) => rm(join(dir, file), { force: true })));
    return new FileEventStore(log, opened, lock);
  } catch (error) {
    await index?.close();
    await lock.release();
    throw error;
  }
}

/**
 * Opens the store in `dir` for reading only, alongside the FileEventStore of another thread of this process
 * that writes it (the projection thread reads the log its process appends): no lock, no recovery, and
 * only the log's first `at.end` bytes, up to `at.head`, until `follow` moves them on.
 */
export async function openFileEventStoreReader(dir: string, at: LogEnd, options: FileEventStoreOptions = {}): Promise<FileEventStore> {
  // The environment's flags as its writer opened it (the threads of a process share one LMDB environment).
  const index = StreamIndex.open(join(dir, INDEX_FILE), { fsync: options.fsync ?? true });
  try {
    return new FileEventStore(await FramedLog.openReader(join(dir, LOG_FILE), at.end), index, null, at.head);
  } catch (error) {
    await index.close();
    throw error;
  }
}

/** How far a log is durable: its size in bytes and the position of its last event. */
export interface LogEnd {
  readonly end: number;
  readonly head: Position | null;
}

interface AppendRequest {
  readonly stream: string;
  readonly events: readonly EventData[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded EventStore: one log record per append; what is kept per event or per stream is on disk in
 * the index (stream-index.ts), and event bodies are read from the log on demand, through a bounded cache of
 * recent records. Appends are decided and written in rounds: a round takes every append queued while the
 * previous round's write+fsync was in flight, decides them in order against the index plus the round's
 * earlier appends, writes them with one fsync, then indexes them. Readers only ever see durable, indexed
 * events.
 */
export class FileEventStore implements EventStore {
  private readonly queue: AppendRequest[] = [];
  private writing: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  /** Set when a round was written but could not be indexed: only a reopen (which indexes the tail) may go on. */
  private failure: unknown = null;
  /** Subscribers waiting for new events (or for close or their abort). */
  private readonly waiters = new Set<() => void>();
  private readonly cache = new RecordCache(RECORD_CACHE_SIZE);
  /** Log bytes readers may see: written, durable and indexed. */
  private end: number;
  private head: Position | null;
  private readonly appendListeners = new Set<(at: LogEnd) => void>();

  constructor(
    private readonly log: FramedLog,
    private readonly index: StreamIndex,
    /** Held by the writer; null for a reader (openFileEventStoreReader). */
    private readonly lock: DirectoryLock | null,
    head?: Position | null,
  ) {
    this.end = Number(log.size);
    const last = index.mark?.last;
    this.head = head !== undefined ? head : last ? Object.freeze({ commit: BigInt(last.commit), prepare: BigInt(last.count - 1) }) : null;
  }

  /** How far the log is durable now (what a reader in another thread may be told to follow). */
  get durableEnd(): LogEnd {
    return { end: this.end, head: this.head };
  }

  /** Calls `listener` after each round of appends is durable; returns the way to stop. */
  onAppended(listener: (at: LogEnd) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  /** A reader: the writer has made the log durable up to `at`; subscribers go on to it. */
  follow(at: LogEnd): void {
    if (this.lock !== null) throw new Error('only a reader follows its writer');
    if (at.end <= this.end) return;
    this.log.follow(at.end);
    this.index.refresh();
    this.end = at.end;
    this.head = at.head;
    this.wakeSubscribers();
  }

  /** Write+fsync rounds so far; with concurrent appends it grows slower than the append count. */
  get flushes(): number {
    return this.log.flushes;
  }

  /** Decoded records held for readers; never more than RECORD_CACHE_SIZE. */
  get cachedRecords(): number {
    return this.cache.size;
  }

  append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (this.closing) return Promise.reject(closedError());
    if (this.lock === null) return Promise.reject(fail('store_closed', 'this event store is open for reading only'));
    if (this.failure) return Promise.reject(this.failure);
    try {
      validateAppend(stream, events, options.expected);
      if (Buffer.byteLength(stream) > MAX_STREAM_BYTES) throw fail('bad_request', `stream names are limited to ${MAX_STREAM_BYTES} bytes`);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ stream, events, expected: options.expected, resolve, reject });
      // Deferred by a microtask so appends issued in the same tick share the first round too.
      this.writing ??= Promise.resolve().then(() => this.writeRounds());
    });
  }

  async *read(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const { fromRevision, maxCount = Number.POSITIVE_INFINITY } = options;
    if (fromRevision !== undefined && fromRevision < 0n) throw fail('bad_request', `invalid fromRevision ${fromRevision}`);
    const direction = options.direction ?? 'forwards';
    // What the stream holds now: events appended while the caller iterates are not part of this read.
    const last = Number(this.index.revision(stream));
    let next = direction === 'backwards' ? Math.min(last, Number(fromRevision ?? last)) : Number(fromRevision ?? 0n);
    for (let left = maxCount; left > 0 && next >= 0 && next <= last;) {
      const page = this.index.locations(stream, next, direction, Math.min(left, READ_PAGE)).filter((at) => at.revision <= last);
      if (page.length === 0) return;
      yield* this.eventsAt(page);
      left -= page.length;
      next = present(page[page.length - 1], 'an empty page returned above').revision + (direction === 'backwards' ? -1 : 1);
    }
  }

  async streamRevision(stream: string): Promise<Revision> {
    this.assertOpen();
    return this.index.revision(stream);
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const { after = 'start', maxCount = Number.POSITIVE_INFINITY } = options;
    if (maxCount <= 0) return;
    let yielded = 0;
    for await (const event of this.eventsBetween(this.cursorAfter(after), this.end)) {
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

  /** Lets queued appends finish, ends subscriptions, closes the log and the index and releases the directory. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.wakeSubscribers();
      await this.writing;
      await this.log.close();
      await this.index.close();
      await this.lock?.release();
    })();
    return this.closing;
  }

  /** `$all` from just after `after`: a position is a record's offset and an index in that record. */
  private cursorAfter(after: 'start' | Position): Cursor {
    if (after === 'start') return { from: 0, skipThrough: null };
    // No event lies past the end: a position beyond it (from another store) waits for what comes next.
    if (Number(after.commit) >= this.end) return { from: this.end, skipThrough: null };
    return { from: Number(after.commit), skipThrough: Number(after.prepare) };
  }

  /**
   * The events from the cursor up to log byte `to`: from the cache of recent records while it holds the next
   * one (live subscribers, which follow the tail, never touch the disk), else read sequentially from the log.
   */
  private async *eventsBetween(cursor: Cursor, to: number): AsyncGenerator<RecordedEvent> {
    const { from, skipThrough } = cursor;
    if (from >= to) return;
    const firstOf = (commit: number) => (commit === from && skipThrough !== null ? skipThrough + 1 : 0);
    let at = from;
    for (let record = this.cache.get(at); record !== undefined && at < to; record = this.cache.get(at)) {
      for (let prepare = firstOf(at); prepare < record.count; prepare += 1) yield recordedEvent(record, prepare);
      at = record.end;
    }
    if (at >= to) return;
    // A position must name a record: reading it first turns a made-up one into bad_request, not corruption.
    if (at === from && skipThrough !== null) await this.log.read(BigInt(from));
    for await (const { offset, payload } of this.log.scan(BigInt(at), BigInt(to))) {
      const commit = Number(offset);
      const record = this.cache.get(commit) ?? this.decode(commit, payload);
      for (let prepare = firstOf(commit); prepare < record.count; prepare += 1) yield recordedEvent(record, prepare);
    }
  }

  private async *deliver(
    start: Cursor,
    filter: SubscriptionFilter | undefined,
    signal: AbortSignal | undefined,
  ): AsyncIterable<SubscriptionDelivery> {
    let cursor = start;
    let caughtUp = false;
    while (!signal?.aborted && !this.closing) {
      const to = this.end;
      if (cursor.from < to) {
        try {
          for await (const event of this.eventsBetween(cursor, to)) {
            if (signal?.aborted || this.closing) return;
            if (matchesFilter(event, filter)) yield { kind: 'event', event };
          }
        } catch (error) {
          // Closing closes the log under a reader; that ends the subscription, as close promises.
          if (this.closing) return;
          throw error;
        }
        cursor = { from: to, skipThrough: null };
      } else if (!caughtUp) {
        caughtUp = true;
        yield { kind: 'caughtUp', position: this.head };
      } else {
        await this.changed(signal);
      }
    }
  }

  /**
   * The events at a page of a stream's locations, their records read ahead: a cold load of a long stream (a
   * busy account's ledger period) waits for the disk once per READ_AHEAD records, not once per record. The
   * window is bounded so that appends, which share libuv's thread pool with these reads, never queue behind
   * a whole page of them. A read the caller stops before reaching settles on its own.
   */
  private async *eventsAt(page: readonly { commit: number; prepare: number }[]): AsyncGenerator<RecordedEvent> {
    const commits = [...new Set(page.map((at) => at.commit))];
    const records = new Map<number, Promise<LogRecord>>();
    let current = 0;
    for (const at of page) {
      if (at.commit !== commits[current]) current += 1;
      for (let ahead = current; ahead < Math.min(commits.length, current + READ_AHEAD); ahead++) {
        const commit = present(commits[ahead], 'ahead stays below commits.length');
        if (records.has(commit)) continue;
        const record = this.recordAt(commit);
        record.catch(() => undefined); // its error reaches the caller that awaits it, if any
        records.set(commit, record);
      }
      yield recordedEvent(await present(records.get(at.commit), 'every commit of the page was read ahead'), at.prepare);
    }
  }

  private async recordAt(commit: number): Promise<LogRecord> {
    const cached = this.cache.get(commit);
    if (cached) return cached;
    const payload = await this.log.read(BigInt(commit)).catch((error: unknown) => {
      // The index points here, so the record was whole when it was indexed.
      if ((error as { code?: unknown }).code !== 'bad_request') throw error;
      throw fail('store_corrupt', `${this.log.path}: corrupt record at byte offset ${commit}`, { path: this.log.path, offset: commit });
    });
    return this.decode(commit, payload);
  }

  private decode(commit: number, payload: Buffer): LogRecord {
    const append = decodeAppend(payload, `${this.log.path} at byte offset ${commit}`);
    const firstRevision = append.first ?? this.index.firstRevisionAt(commit);
    if (firstRevision === undefined) throw fail('store_corrupt', `${this.log.path}: the record at byte offset ${commit} is not indexed`);
    const end = commit + FRAME_HEADER_BYTES + payload.length;
    const record = LogRecord.read(commit, end, firstRevision, append);
    this.cache.set(record);
    return record;
  }

  /** Resolves on the next appended round, on close, or on abort. One waiter per waiting subscriber, no leaks. */
  private changed(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  private wakeSubscribers(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private async writeRounds(): Promise<void> {
    while (this.queue.length > 0) {
      const requests = this.queue.splice(0);
      // A bug must fail the round's callers, not leave them and every later append waiting forever.
      await this.writeRound(requests).catch((error: unknown) => requests.forEach((request) => request.reject(error)));
    }
    this.writing = null;
  }

  private async writeRound(requests: readonly AppendRequest[]): Promise<void> {
    if (this.index.broken && !this.failure)
      this.failure = fail('store_closed', `the event store refuses appends after a failed index write: ${String(this.index.broken)}`);
    if (this.failure) {
      for (const request of requests) request.reject(this.failure);
      return;
    }
    const staged = new StagedStreams(this.index);
    const created = new Date();
    const writes: { request: AppendRequest; ids: string[]; first: number; payload: Buffer }[] = [];
    const duplicates: { request: AppendRequest; lastRevision: Revision }[] = [];
    for (const request of requests) {
      const { stream, events, expected } = request;
      try {
        const ids = events.map((event) => event.id);
        const view = staged.view(stream);
        const decision = decideAppend(stream, view, ids, expected);
        if (decision.kind === 'duplicate') {
          duplicates.push({ request, lastRevision: decision.lastRevision });
        } else {
          const first = Number(view.revision) + 1;
          writes.push({ request, ids, first, payload: encodeAppend({ stream, created, events, first }) });
          staged.stage(stream, ids);
        }
      } catch (error) {
        request.reject(error);
      }
    }

    let offsets: bigint[];
    let firstRevisions: number[];
    try {
      ({ offsets, firstRevisions } = await this.writeAndIndex(writes));
    } catch (error) {
      // Written but not indexed (or not written): the next round cannot be decided against this index.
      this.failure = fail('store_closed', `the event store refuses appends after a failed write: ${String(error)}`);
      for (const { request } of [...writes, ...duplicates]) request.reject(error);
      return;
    }

    this.end = Number(this.log.size);
    writes.forEach(({ request, payload }, i) => {
      const commit = Number(offsets[i]);
      // Readers decode what was written (when they first read an event of it), as a restart would read it.
      const record = LogRecord.written(
        {
          commit,
          end: commit + FRAME_HEADER_BYTES + payload.length,
          firstRevision: present(firstRevisions[i], 'one first revision per write'),
          stream: request.stream,
          created,
          count: request.events.length,
        },
        payload,
        `${this.log.path} at byte offset ${commit}`,
      );
      this.cache.set(record);
      const count = record.count;
      this.head = Object.freeze({ commit: BigInt(commit), prepare: BigInt(count - 1) });
      request.resolve({ nextExpectedRevision: BigInt(record.firstRevision + count - 1), position: this.head });
    });
    for (const { request, lastRevision } of duplicates) {
      const original = present(
        this.index.location(request.stream, Number(lastRevision)),
        'this.index.location(request.stream, Number(lastRevision))',
      );
      request.resolve({
        nextExpectedRevision: lastRevision,
        position: { commit: BigInt(original.commit), prepare: BigInt(original.prepare) },
      });
    }
    if (writes.length > 0) {
      this.wakeSubscribers();
      const at = this.durableEnd;
      for (const listener of this.appendListeners) listener(at);
    }
  }

  /** Writes the round's appends (one fsync) and indexes them; the index commits in the background. */
  private async writeAndIndex(writes: readonly { request: AppendRequest; ids: string[]; payload: Buffer }[]) {
    if (writes.length === 0) return { offsets: [], firstRevisions: [] };
    const offsets = await this.log.append(writes.map((write) => write.payload));
    const appends = writes.map(({ request, ids }, i) => ({ offset: Number(offsets[i]), stream: request.stream, ids, numbered: true }));
    const { firstRevisions, committed } = await this.index.add(appends, Number(this.log.size));
    // Not awaited: lookups see the entries already, and a failed commit shows through `index.broken`.
    committed.catch(() => undefined);
    return { offsets, firstRevisions };
  }

  private assertOpen(): void {
    if (this.closing) throw closedError();
  }
}

/** Where a `$all` read starts: a record's offset, and the last index in it already delivered (if any). */
interface Cursor {
  readonly from: number;
  readonly skipThrough: number | null;
}

function closedError() {
  return fail('store_closed', 'the event store is closed');
}
