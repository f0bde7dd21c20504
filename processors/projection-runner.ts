import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import { eventRegistry } from '../domain/events/registry.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { LogProgress } from './log-progress.js';
import { createPositionWaiters } from './position-waiters.js';
import { createReadModelBatch } from './read-model-batch.js';
import { createRebuildPauses } from './rebuild-pauses.js';
import { historyPrefixesOf, replaySinkHistory, SINK_STREAMS, type EventSink } from './sink-history.js';

export type { EventSink } from './sink-history.js';

/**
 * Folds `$all` into the read models, in log order, from the checkpoint kept with them. Events are folded
 * into a batch (read-model-batch.ts) that is committed with the checkpoint in one `ReadStore.commit`: at
 * most BATCH_EVENTS events at a time while catching up, and whatever arrived meanwhile once live (one
 * commit in flight, the next one collecting: group commit). A read model shows an event only once its
 * commit is durable, and a restart folds only what came after the checkpoint. Events that change no
 * document (most, for a runner of in-memory sinks only) are processed once folded, and the checkpoint they
 * move alone is written at most every CHECKPOINT_ONLY_MS: a restart reads at most that much again.
 */
export interface ProjectionRunner {
  start(): Promise<void>;
  /** Resolves when every event appended before the call has been projected (and its documents committed). */
  whenCaughtUp(): Promise<void>;
  whenProcessed(position: Position | null): Promise<void>;
  stop(): Promise<void>;
  /** The last event the read models show (metrics: projection lag). */
  progress(): LogProgress;
  /** Events this runner has read from the log since it started (sinks' catch-up included). */
  eventsRead(): number;
}

const BATCH_EVENTS = 500;
const CHECKPOINT_ONLY_MS = 1000;

export function createProjectionRunner(deps: {
  store: EventStore;
  readStore: ReadStore;
  projections: readonly Projection[];
  sinks?: readonly EventSink[];
  /**
   * Prefixes of streams that sinks held elsewhere (on another thread) are rebuilt from: this runner lists
   * them in SINK_STREAMS as it would for its own sinks' histories.
   */
  sinkStreams?: readonly string[];
  /** The checkpoint's name: one per process that folds (each resumes from its own). */
  name?: string;
  /**
   * Live commits start at least this far apart (default 0: as soon as the one in flight is done); what
   * arrives meanwhile joins the next one. A commit's cost hardly depends on its size, so spacing them
   * trades a little freshness of the read models for much less work under load.
   */
  commitIntervalMs?: number;
  /** Told each position from which on everything folded is in the read models (and in the sinks). */
  onProcessed?: (position: Position, recordedAt: Date | null) => void;
  onError?: (error: unknown, event: RecordedEvent, projection: string) => void;
}): ProjectionRunner {
  const name = deps.name ?? 'projections';
  const sinks = deps.sinks ?? [];
  const historyPrefixes = [...new Set([...historyPrefixesOf(sinks), ...(deps.sinkStreams ?? [])])];
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
  let processedAt: Date | null = null;
  let checkpointTimer: ReturnType<typeof setTimeout> | null = null;
  let lastCommitAt = Number.NEGATIVE_INFINITY;
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
    lastCommitAt = performance.now();
    if (checkpointTimer) clearTimeout(checkpointTimer);
    checkpointTimer = null;
    inFlight = (async () => {
      try {
        if ((await deps.readStore.commit(writes, { name, next, previous })) === 'mismatch') {
          throw new Error(`projection checkpoint "${name}" was moved by another runner`);
        }
        committed = next;
        batch.committed();
        processed(next, at);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        inFlight = null;
      }
    })();
    await inFlight;
  }

  function processed(position: Position, at: Date | null): void {
    waiters.advance(position);
    processedAt = at;
    deps.onProcessed?.(position, at);
  }

  /**
   * Live: a commit now, or right after the one in flight (which then carries all that arrived meanwhile);
   * a commit that would move only the checkpoint waits up to CHECKPOINT_ONLY_MS for company.
   */
  let scheduled = false;
  function commitSoon(): void {
    if (scheduled) return;
    if (batch.isEmpty()) {
      checkpointTimer ??= setTimeout(() => {
        checkpointTimer = null;
        commit().catch((error) => deps.onError?.(error, undefined as never, name));
      }, CHECKPOINT_ONLY_MS);
      checkpointTimer.unref();
      return;
    }
    scheduled = true;
    const go = () => {
      const wait = lastCommitAt + (deps.commitIntervalMs ?? 0) - performance.now();
      if (wait > 0) {
        setTimeout(go, wait);
        return;
      }
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
      // Unfiltered: the store yields no checkpoint deliveries.
      if (delivery.kind === 'checkpoint') continue;
      read += 1;
      await project(delivery.event);
      folded = delivery.event.position;
      foldedAt = delivery.event.created;
      // Nothing to write (none staged, none in flight): the read models already show this event.
      if (batch.isEmpty()) processed(folded, foldedAt);
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
        read += await replaySinkHistory(deps, sinks, committed);
        waiters.advance(committed);
      }
      loop = run(committed);
      loop.catch((error) => deps.onError?.(error, undefined as never, name));
    },
    async whenCaughtUp() {
      await waiters.until(await deps.store.headPosition());
    },
    whenProcessed: (position) => waiters.until(position),
    progress: () => ({ position: waiters.processed, recordedAt: processedAt }),
    eventsRead: () => read,
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
      if (checkpointTimer) clearTimeout(checkpointTimer);
      checkpointTimer = null;
      await commit().catch(() => undefined);
    },
  };
}
