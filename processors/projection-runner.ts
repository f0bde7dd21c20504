import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import { eventRegistry } from '../domain/events/registry.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { LogProgress } from './log-progress.js';
import { createPositionWaiters } from './position-waiters.js';
import { createReadModelBatch } from './read-model-batch.js';
import { createRebuildPauses } from './rebuild-pauses.js';

/**
 * Folds `$all` into the read models, in log order, from the checkpoint kept with them. Events are folded
 * into a batch (read-model-batch.ts) that is committed with the checkpoint in one `ReadStore.commit`: at
 * most BATCH_EVENTS events at a time while catching up, and whatever arrived meanwhile once live (one
 * commit in flight, the next one collecting: group commit). A read model shows an event only once its
 * commit is durable, and a restart folds only what came after the checkpoint.
 */
export interface ProjectionRunner {
  start(): Promise<void>;
  /** Resolves when every event appended before the call has been projected (and committed). */
  whenCaughtUp(): Promise<void>;
  whenProcessed(position: Position | null): Promise<void>;
  stop(): Promise<void>;
  /** The last event committed (metrics: projection lag). */
  progress(): LogProgress;
  /** Events this runner has read from the log since it started (sinks' catch-up included). */
  eventsRead(): number;
}

const BATCH_EVENTS = 500;
/** The streams the sinks are rebuilt from (one document per stream), kept by the runner itself. */
const SINK_STREAMS = 'sink_streams';
type SinkStreamDoc = { readonly stream: string };

/** k-way merge of streams by `$all` position (k is small: the dataset and curation streams). */
async function* mergeInLogOrder(streams: AsyncIterator<RecordedEvent>[]): AsyncGenerator<RecordedEvent> {
  const heads = await Promise.all(streams.map(async (it) => ({ it, next: await it.next() })));
  for (;;) {
    let first: (typeof heads)[number] | undefined;
    for (const head of heads) {
      if (head.next.done) continue;
      if (!first || comparePositions(head.next.value.position, first.next.value.position) < 0) first = head;
    }
    if (!first || first.next.done) return;
    yield first.next.value;
    first.next = await first.it.next();
  }
}

/**
 * An in-process index fed by events (e.g. the intelligence index). A restart resumes the read models from
 * their checkpoint, so a sink names what it needs from before it: `history` lists the stream prefixes
 * whose events it is rebuilt from at start (read with a server-side filter), or 'none' for a sink that
 * only wakes waiters of this process. A sink whose state spans other streams keeps it in a read model.
 */
export interface EventSink {
  readonly handles: readonly string[];
  readonly history: { readonly streamPrefixes: readonly string[] } | 'none';
  apply(event: RecordedEvent): void;
}

export function createProjectionRunner(deps: {
  store: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  sinks?: readonly EventSink[];
  /** The checkpoint's name: one per process that folds (each resumes from its own). */
  name?: string;
  onError?: (error: unknown, event: RecordedEvent, projection: string) => void;
}): ProjectionRunner {
  const name = deps.name ?? 'projections';
  const sinks = deps.sinks ?? [];
  const withHistory = sinks.filter((sink) => sink.history !== 'none');
  const historyPrefixes = [...new Set(withHistory.flatMap((sink) => (sink.history === 'none' ? [] : sink.history.streamPrefixes)))];
  const byType = new Map<string, Projection[]>();
  for (const projection of deps.projections) {
    for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
  }
  for (const projection of deps.projections) deps.readStore.collection(projection.collection, projection.indexes);
  const batch = createReadModelBatch(deps.readStore);
  const waiters = createPositionWaiters();
  const abort = new AbortController();
  let committed: Position | null = null;
  /** The last event folded into the batch (committed or not). */
  let folded: Position | null = null;
  let foldedAt: Date | null = null;
  let committedAt: Date | null = null;
  let sinceCommit = 0;
  let read = 0;
  let inFlight: Promise<void> | null = null;
  let failure: unknown = null;
  let loop: Promise<void> | null = null;

  /** Commits what is folded so far with the checkpoint; one commit at a time. */
  async function commit(): Promise<void> {
    while (inFlight) await inFlight;
    if (failure) throw failure;
    if (folded === null || folded === committed) return;
    const [next, at, previous] = [folded, foldedAt, committed];
    const writes = batch.seal();
    sinceCommit = 0;
    inFlight = (async () => {
      try {
        if ((await deps.readStore.commit(writes, { name, next, previous })) === 'mismatch') {
          throw new Error(`projection checkpoint "${name}" was moved by another runner`);
        }
        committed = next;
        committedAt = at;
        batch.committed();
        waiters.advance(next);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        inFlight = null;
      }
    })();
    await inFlight;
  }

  /** Live: a commit now, or right after the one in flight (which then carries all that arrived meanwhile). */
  let scheduled = false;
  function commitSoon(): void {
    if (scheduled) return;
    scheduled = true;
    const go = () => {
      scheduled = false;
      commit().catch((error) => deps.onError?.(error, undefined as never, name));
    };
    if (inFlight) void inFlight.then(go, go);
    else go();
  }

  async function applyProjection(projection: Projection, event: RecordedEvent) {
    try {
      const id = projection.idOf(event);
      if (id === null) return;
      const current = await batch.current(projection.collection, id);
      if (current && comparePositions(event.position, current.position) <= 0) return;
      batch.stage({ collection: projection.collection, id, doc: projection.evolve(current?.doc ?? null, event), position: event.position });
    } catch (error) {
      deps.onError?.(error, event, projection.name);
    }
  }

  const rebuilds = createRebuildPauses({ store: deps.store, projections: deps.projections, apply: applyProjection });

  async function project(event: RecordedEvent) {
    for (const sink of sinks) {
      if (sink.handles.includes(event.type)) sink.apply(event);
    }
    await noteSinkStream(event);
    // A rebuild swaps collections underneath: what is folded so far goes in first.
    if (rebuilds.concerns(event)) await commit();
    await rebuilds.observe(event);
    // A retired type's events go to the projections of the type they are read as.
    for (const projection of byType.get(eventRegistry.readAs(event.type) ?? event.type) ?? []) {
      if (!rebuilds.isPaused(projection.name)) await applyProjection(projection, event);
    }
  }

  /**
   * Sinks with a history get the events of their streams up to the checkpoint (the main loop brings the
   * rest): the streams are listed by a read model the runner keeps (SINK_STREAMS) and read one by one, merged
   * in log order, so a start reads the dataset streams only, however long `$all` has grown.
   */
  async function catchUpSinks(upTo: Position) {
    if (historyPrefixes.length === 0) return;
    const streams = await deps.readStore.collection<SinkStreamDoc>(SINK_STREAMS).find({});
    const merged = mergeInLogOrder(streams.map((doc) => deps.store.read(doc.stream)[Symbol.asyncIterator]()));
    for await (const event of merged) {
      if (comparePositions(event.position, upTo) > 0) break;
      read += 1;
      for (const sink of withHistory) if (sink.handles.includes(event.type)) sink.apply(event);
    }
  }

  /** Records a stream a sink is rebuilt from, the first time one of its events is folded. */
  async function noteSinkStream(event: RecordedEvent) {
    if (!historyPrefixes.some((prefix) => event.streamId.startsWith(prefix))) return;
    if (await batch.current(SINK_STREAMS, event.streamId)) return;
    batch.stage({ collection: SINK_STREAMS, id: event.streamId, doc: { stream: event.streamId }, position: event.position });
  }

  async function run(from: Position | null) {
    let live = false;
    for await (const delivery of deps.store.subscribeToAll({ from: from ?? 'start', signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') {
        live = true;
        await commit();
        continue;
      }
      read += 1;
      await project(delivery.event);
      folded = delivery.event.position;
      foldedAt = delivery.event.created;
      if (++sinceCommit >= BATCH_EVENTS) await commit();
      else if (live) commitSoon();
    }
  }

  return {
    async start() {
      committed = await deps.readStore.checkpoint(name);
      folded = committed;
      if (committed) {
        await rebuilds.restore(committed);
        await catchUpSinks(committed);
        waiters.advance(committed);
      }
      loop = run(committed);
      loop.catch((error) => deps.onError?.(error, undefined as never, name));
    },
    async whenCaughtUp() {
      await waiters.until(await deps.store.headPosition());
    },
    whenProcessed: (position) => waiters.until(position),
    progress: () => ({ position: committed, recordedAt: committedAt }),
    eventsRead: () => read,
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
      await commit().catch(() => undefined);
    },
  };
}
