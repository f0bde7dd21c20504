import { mkdir } from 'node:fs/promises';
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
import { decideAppend, type StreamView, validateAppend } from './append-decision.js';
import { type DirectoryLock, lockDirectory } from './directory-lock.js';
import { decodeAppend, encodeAppend } from './event-record.codec.js';
import { FramedLog } from './framed-log.js';
import { StreamIndex } from './stream-index.js';

export interface FileEventStoreOptions {
  /** fdatasync before acknowledging an append. Defaults to true. */
  readonly fsync?: boolean;
}

const LOG_FILE = 'events.log';

/** Opens (creating if needed) the store in `dir`, locks the directory and rebuilds the index from the log. */
export async function openFileEventStore(dir: string, options: FileEventStoreOptions = {}): Promise<FileEventStore> {
  await mkdir(dir, { recursive: true });
  const lock = await lockDirectory(dir);
  let log: FramedLog | undefined;
  try {
    const opened = await FramedLog.open(join(dir, LOG_FILE), options);
    log = opened.log;
    const index = new StreamIndex();
    for (const { offset, payload } of opened.records) {
      index.add(decodeAppend(payload, `${opened.log.path} at byte offset ${offset}`), offset);
    }
    return new FileEventStore(opened.log, index, lock);
  } catch (error) {
    await log?.close();
    await lock.release();
    throw error;
  }
}

interface AppendRequest {
  readonly stream: string;
  readonly events: readonly EventData[];
  readonly expected: ExpectedRevision;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The embedded EventStore: one log record per append, every event in memory. Appends are decided and
 * written in rounds: a round takes every append queued while the previous round's write+fsync was in
 * flight, decides them in order against the stored streams plus the round's earlier appends, and writes
 * them with one fsync. Readers only ever see durable events.
 */
export class FileEventStore implements EventStore {
  private readonly queue: AppendRequest[] = [];
  private writing: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  /** Subscribers waiting for new events (or for close or their abort). */
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly log: FramedLog,
    private readonly index: StreamIndex,
    private readonly lock: DirectoryLock,
  ) {}

  /** Write+fsync rounds so far; with concurrent appends it grows slower than the append count. */
  get flushes(): number {
    return this.log.flushes;
  }

  append(stream: string, events: readonly EventData[], options: { expected: ExpectedRevision }): Promise<AppendResult> {
    if (this.closing) return Promise.reject(closedError());
    try {
      validateAppend(stream, events, options.expected);
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
    const events = this.index.streamEvents(stream);
    const last = events.length - 1;
    let yielded = 0;
    if (options.direction === 'backwards') {
      const from = fromRevision === undefined ? last : Math.min(last, Number(fromRevision));
      for (let i = from; i >= 0 && yielded < maxCount; i -= 1, yielded += 1) yield events[i]!;
    } else {
      for (let i = Number(fromRevision ?? 0n); i <= last && yielded < maxCount; i += 1, yielded += 1) yield events[i]!;
    }
  }

  async streamRevision(stream: string): Promise<Revision> {
    this.assertOpen();
    return this.index.revision(stream);
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    this.assertOpen();
    const { after = 'start', maxCount = Number.POSITIVE_INFINITY } = options;
    const end = this.index.length;
    let yielded = 0;
    for (let i = after === 'start' ? 0 : this.index.indexAfter(after); i < end && yielded < maxCount; i += 1, yielded += 1) {
      yield this.index.at(i)!;
    }
  }

  async headPosition(): Promise<Position | null> {
    this.assertOpen();
    return this.index.head();
  }

  subscribeToAll(options: SubscribeToAllOptions): AsyncIterable<SubscriptionDelivery> {
    // Resolved now, not at the first next(): 'end' means the end when the caller subscribed.
    const { from } = options;
    const start = from === 'start' ? 0 : from === 'end' ? this.index.length : this.index.indexAfter(from);
    return this.deliver(start, options.filter, options.signal);
  }

  /** Lets queued appends finish, ends subscriptions, closes the log and releases the directory. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.wakeSubscribers();
      await this.writing;
      await this.log.close();
      await this.lock.release();
    })();
    return this.closing;
  }

  private async *deliver(
    start: number,
    filter: SubscriptionFilter | undefined,
    signal: AbortSignal | undefined,
  ): AsyncIterable<SubscriptionDelivery> {
    let next = start;
    let caughtUp = false;
    while (!signal?.aborted && !this.closing) {
      const event = this.index.at(next);
      if (event) {
        next += 1;
        if (matchesFilter(event, filter)) yield { kind: 'event', event };
      } else if (!caughtUp) {
        caughtUp = true;
        yield { kind: 'caughtUp', position: this.index.head() };
      } else {
        await this.changed(signal);
      }
    }
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
    const staged = new StagedStreams(this.index);
    const created = new Date();
    const writes: { request: AppendRequest; payload: Buffer }[] = [];
    const duplicates: { request: AppendRequest; lastRevision: Revision }[] = [];
    for (const request of requests) {
      const { stream, events, expected } = request;
      try {
        const ids = events.map((event) => event.id);
        const decision = decideAppend(stream, staged.view(stream), ids, expected);
        if (decision.kind === 'duplicate') {
          duplicates.push({ request, lastRevision: decision.lastRevision });
        } else {
          writes.push({ request, payload: encodeAppend({ stream, created, events }) });
          staged.stage(stream, ids);
        }
      } catch (error) {
        request.reject(error);
      }
    }

    let offsets: bigint[];
    try {
      offsets = await this.log.append(writes.map((write) => write.payload));
    } catch (error) {
      for (const { request } of [...writes, ...duplicates]) request.reject(error);
      return;
    }

    writes.forEach(({ request, payload }, i) => {
      // Decoding what was written keeps memory identical to what a restart rebuilds.
      const recorded = this.index.add(decodeAppend(payload, this.log.path), offsets[i]!);
      const last = recorded[recorded.length - 1]!;
      request.resolve({ nextExpectedRevision: last.revision, position: last.position });
    });
    for (const { request, lastRevision } of duplicates) {
      const original = this.index.streamEvents(request.stream)[Number(lastRevision)]!;
      request.resolve({ nextExpectedRevision: lastRevision, position: original.position });
    }
    if (writes.length > 0) this.wakeSubscribers();
  }

  private assertOpen(): void {
    if (this.closing) throw closedError();
  }
}

/** Streams as they will be once the current round is written, so later appends of the round see earlier ones. */
class StagedStreams {
  private readonly staged = new Map<string, { ids: string[]; revisionById: Map<string, Revision> }>();

  constructor(private readonly index: StreamIndex) {}

  view(stream: string): StreamView {
    const stored = this.index.view(stream);
    const staged = this.staged.get(stream);
    if (!staged) return stored;
    return {
      revision: stored.revision + BigInt(staged.ids.length),
      idAt: (revision) => (revision <= stored.revision ? stored.idAt(revision) : staged.ids[Number(revision - stored.revision - 1n)]),
      revisionOfId: (id) => staged.revisionById.get(id) ?? stored.revisionOfId(id),
    };
  }

  stage(stream: string, ids: readonly string[]): void {
    let staged = this.staged.get(stream);
    if (!staged) {
      staged = { ids: [], revisionById: new Map() };
      this.staged.set(stream, staged);
    }
    const base = this.index.revision(stream) + 1n;
    for (const id of ids) {
      staged.revisionById.set(id, base + BigInt(staged.ids.length));
      staged.ids.push(id);
    }
  }
}

function closedError() {
  return fail('store_closed', 'the event store is closed');
}
