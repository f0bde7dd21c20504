import { present } from '../domain/shared/present.js';
import { eventRegistry } from '../domain/events/registry.js';
import type { Clock } from '../domain/ports/clock.port.js';
import type { Correlation, CorrelationScope } from '../domain/ports/correlation.port.js';
import type { EventData, EventStore, Position, Revision } from '../domain/ports/event-store.port.js';
import type { Ids } from '../domain/ports/ids.port.js';
import { fold, type Decider, type DomainEvent } from '../domain/shared/decider.js';
import { fail, hasCode } from '../domain/shared/errors.js';

/**
 * Read → decide → append, one stream at a time.
 *
 * Commands for one stream are queued and run in batches: the batch is decided in order against the
 * cached state, and every event it produced is appended in ONE append with the expected revision. So
 * many concurrent charges on one ledger cost one fsync instead of conflicting with each other, and a
 * conflict with another process (wrong expected version) re-reads the stream and re-decides the batch.
 * Each command's own refusal (a ServiceError from `decide`) rejects only that command.
 *
 * State is visible only after it is durable: a batch is decided on a COPY of the cached state, and the
 * copy replaces the cached one only once the append succeeded. A read (load) during an append in flight
 * sees the state before it; a failed append leaves no trace. Every cache and queue is bounded: beyond a
 * limit `execute` refuses with `overloaded` (503 with Retry-After) instead of growing.
 */

export interface CommandContext {
  /** Identifies the command; event ids derive from it, so a retried command re-appends the same ids. */
  readonly commandId: string;
  readonly correlationId?: string;
  readonly causationId?: string;
}

export interface CommandOutcome<Event extends DomainEvent, View> {
  readonly events: readonly Event[];
  /**
   * `view(state)` taken right after this command's own events: states may be updated in place by
   * later commands of the same batch, so a caller reads what it needs through its view.
   */
  readonly view: View;
  readonly revision: Revision;
  /** Position of the append that carried the events (null when the command produced none). */
  readonly position: Position | null;
}

interface Pending {
  readonly command: unknown;
  readonly context: CommandContext;
  /** The caller's correlation, taken when `execute` was called: a batch mixes commands of many callers. */
  readonly ambient: Correlation | undefined;
  readonly view: (state: unknown, events: readonly DomainEvent[]) => unknown;
  resolve(outcome: CommandOutcome<DomainEvent, unknown>): void;
  reject(error: unknown): void;
}

interface Decided {
  readonly pending: Pending;
  readonly events: DomainEvent[];
  readonly view: unknown;
  readonly error?: unknown;
}

interface CachedStream {
  state: unknown;
  revision: Revision;
}

const MAX_CONFLICT_RETRIES = 10;

export interface ExecutorLimits {
  /** Streams whose state stays cached; the least recently used one is dropped beyond this. */
  readonly cachedStreams: number;
  /** Commands waiting on one stream: beyond this the stream refuses with `overloaded`. */
  readonly pendingPerStream: number;
  /** Streams with commands waiting or running at once: beyond this a new stream refuses with `overloaded`. */
  readonly busyStreams: number;
}

export const DEFAULT_EXECUTOR_LIMITS: ExecutorLimits = { cachedStreams: 50_000, pendingPerStream: 10_000, busyStreams: 20_000 };

/** What a client is told to wait before retrying an `overloaded` refusal. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

export interface CommandExecutor {
  execute<Command, Event extends DomainEvent, State, View = undefined>(
    stream: string,
    decider: Decider<Command, Event, State>,
    command: Command,
    context: CommandContext,
    view?: (state: State, events: readonly Event[]) => View,
  ): Promise<CommandOutcome<Event, View>>;
  /** The stream's current state, read through the cache. */
  load<Event extends DomainEvent, State>(
    stream: string,
    decider: Decider<unknown, Event, State>,
  ): Promise<{ state: State; revision: Revision }>;
  /** The stream's last event (null when it has none), without folding the stream. */
  lastEvent(stream: string): Promise<DomainEvent | null>;
}

/** The command's own causationId, else the ambient one (the event a processor is handling). */
function causationOf(pending: Pending): { causationId?: string } {
  const causationId = pending.context.causationId ?? pending.ambient?.causationId;
  return causationId ? { causationId } : {};
}

export function createCommandExecutor(deps: {
  store: EventStore;
  clock: Clock;
  ids: Ids;
  /** Where a command without its own correlationId finds the request's or the source event's. */
  correlation?: Pick<CorrelationScope, 'current'>;
  limits?: Partial<ExecutorLimits>;
}): CommandExecutor {
  const limits = { ...DEFAULT_EXECUTOR_LIMITS, ...deps.limits };
  const queues = new Map<string, { decider: Decider<unknown, DomainEvent, unknown>; pending: Pending[] }>();
  const cache = new Map<string, CachedStream>();
  /** Cold reads in flight, one per stream (each entry lives only while its read runs). */
  const reads = new Map<string, Promise<CachedStream>>();

  async function readStream(stream: string, decider: Decider<unknown, DomainEvent, unknown>): Promise<CachedStream> {
    let state = decider.initialState();
    let revision: Revision = -1n;
    for await (const recorded of deps.store.read(stream)) {
      const event = decider.parse(eventRegistry.upcast({ type: recorded.type, data: recorded.data, metadata: recorded.metadata }));
      if (event) state = decider.evolve(state, event);
      revision = recorded.revision;
    }
    return { state, revision };
  }

  /**
   * The state of a stream, read from the store when not cached. Concurrent callers share one read: a burst
   * of requests on an account whose ledger period is not cached (after a restart) folds it once, not once
   * per request (16 folds of a 60,000-event period took longer than any client waits).
   */
  async function current(stream: string, decider: Decider<unknown, DomainEvent, unknown>): Promise<CachedStream> {
    const cached = cache.get(stream);
    if (cached) return cached;
    const loaded = await (reads.get(stream) ?? startRead(stream, decider));
    // A batch of this executor may have appended (and cached its state) while the stream was being read.
    return cachedSince(stream, loaded) ?? loaded;
  }

  /** The cached state of a stream when it is at least as recent as `read`. */
  function cachedSince(stream: string, read: CachedStream): CachedStream | undefined {
    const cached = cache.get(stream);
    return cached && cached.revision >= read.revision ? cached : undefined;
  }

  function startRead(stream: string, decider: Decider<unknown, DomainEvent, unknown>): Promise<CachedStream> {
    const reading: Promise<CachedStream> = readStream(stream, decider)
      .then((loaded) => {
        // Cached unless the stream was forgotten while it was read (its read may be behind the store) or a
        // newer state was cached meanwhile.
        if (reads.get(stream) === reading && !cachedSince(stream, loaded)) remember(stream, loaded);
        return loaded;
      })
      .finally(() => {
        if (reads.get(stream) === reading) reads.delete(stream);
      });
    reads.set(stream, reading);
    return reading;
  }

  /** Drops what is known of a stream, and makes the next caller read it anew rather than join a read in flight. */
  function forget(stream: string) {
    cache.delete(stream);
    reads.delete(stream);
  }

  function remember(stream: string, entry: CachedStream) {
    cache.delete(stream);
    cache.set(stream, entry);
    if (cache.size > limits.cachedStreams) cache.delete(present(cache.keys().next().value, 'a cache over its limit has an oldest entry'));
  }

  async function runBatch(stream: string, decider: Decider<unknown, DomainEvent, unknown>, batch: Pending[]) {
    for (let attempt = 0; ; attempt++) {
      const base = await current(stream, decider);
      const occurredAt = deps.clock.now().toISOString();
      const toAppend: EventData[] = [];
      const decided: Decided[] = [];
      // Deciders may evolve in place: decide on a copy, so nothing is visible before the append is durable.
      let state = decider.clone ? decider.clone(base.state) : structuredClone(base.state);
      for (const pending of batch) {
        try {
          const events = [...decider.decide(pending.command, state)];
          state = fold(decider, state, events);
          events.forEach((event, index) =>
            toAppend.push({
              // Named by the command AND the event: a retry of the same decision re-appends the same ids (a
              // no-op in the store), but another decision under the same command id (another process on a
              // stale state, other terms) gets other ids. Otherwise the store takes it for a retry and this
              // cache keeps events the stream does not hold (e.g. a cheaper charge: a later overdraft).
              id: deps.ids.eventId(`${pending.context.commandId}:${JSON.stringify([event.type, event.data])}`, index),
              type: event.type,
              data: event.data,
              metadata: {
                correlationId: pending.context.correlationId ?? pending.ambient?.correlationId ?? pending.context.commandId,
                ...causationOf(pending),
                occurredAt,
                schemaVersion: eventRegistry.versionOf(event.type),
              },
            }),
          );
          decided.push({ pending, events, view: pending.view(state, events) });
        } catch (error) {
          decided.push({ pending, events: [], view: undefined, error });
        }
      }
      if (toAppend.length === 0) {
        for (const d of decided) settle(d, base.revision, null);
        return;
      }
      try {
        const expected = base.revision === -1n ? 'no_stream' : base.revision;
        const result = await deps.store.append(stream, toAppend, { expected });
        remember(stream, { state, revision: result.nextExpectedRevision });
        let revision = base.revision;
        for (const d of decided) {
          revision += BigInt(d.events.length);
          settle(d, revision, d.events.length > 0 ? result.position : null);
        }
        return;
      } catch (error) {
        // the cached state was never touched; it is dropped anyway, as a failed append may still have landed
        forget(stream);
        if (hasCode(error, 'wrong_expected_version') && attempt < MAX_CONFLICT_RETRIES) continue;
        throw error;
      }
    }
  }

  function settle(d: Decided, revision: Revision, position: Position | null) {
    if (d.error !== undefined) d.pending.reject(d.error);
    else d.pending.resolve({ events: d.events, view: d.view, revision, position });
  }

  async function drain(stream: string) {
    const queue = present(queues.get(stream), 'a stream is drained only while its queue is registered');
    while (queue.pending.length > 0) {
      const batch = queue.pending.splice(0, queue.pending.length);
      try {
        await runBatch(stream, queue.decider, batch);
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    queues.delete(stream);
  }

  return {
    execute(stream, decider, command, context, view) {
      return new Promise((resolve, reject) => {
        const erased = decider as unknown as Decider<unknown, DomainEvent, unknown>;
        const pending: Pending = {
          command,
          context,
          ambient: deps.correlation?.current(),
          view: (view ?? (() => undefined)) as Pending['view'],
          resolve: resolve as Pending['resolve'],
          reject,
        };
        const queue = queues.get(stream);
        if (queue) {
          if (queue.pending.length >= limits.pendingPerStream) {
            reject(overloaded(`too many commands waiting on ${stream}`));
            return;
          }
          queue.pending.push(pending);
          return;
        }
        if (queues.size >= limits.busyStreams) {
          reject(overloaded('too many streams busy at once'));
          return;
        }
        queues.set(stream, { decider: erased, pending: [pending] });
        void drain(stream);
      });
    },
    async load(stream, decider) {
      // Another writer may have appended (another process, another executor on the store): a cached state
      // behind the store's revision is read again. Not while this executor's own append is in flight: the
      // store may already count it before the append returns here, and its state is published right after.
      if (cache.has(stream) && !queues.has(stream)) {
        const revision = await deps.store.streamRevision(stream);
        const cached = cache.get(stream);
        if (cached && !queues.has(stream) && cached.revision < revision) forget(stream);
      }
      const loaded = await current(stream, decider as unknown as Decider<unknown, DomainEvent, unknown>);
      return loaded as { state: never; revision: Revision };
    },
    async lastEvent(stream) {
      for await (const recorded of deps.store.read(stream, { direction: 'backwards', maxCount: 1 }))
        return { type: recorded.type, data: recorded.data };
      return null;
    },
  };
}

function overloaded(message: string) {
  return fail('overloaded', `${message}; retry shortly`, { retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS });
}
