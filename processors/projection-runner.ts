import type { EventStore, Position, RecordedEvent } from '../domain/ports/event-store.port.js';
import type { CheckpointStore, ReadStore } from '../domain/ports/read-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import type { LogProgress } from './log-progress.js';
import { createPositionWaiters } from './position-waiters.js';
import { createRebuildPauses } from './rebuild-pauses.js';

/**
 * Folds `$all` into the read models, in log order, from the last checkpoint. Writes go through the
 * read store's position guard, so events replayed after a crash change nothing.
 */
export interface ProjectionRunner {
  start(): Promise<void>;
  /** Resolves when every event appended before the call has been projected. */
  whenCaughtUp(): Promise<void>;
  whenProcessed(position: Position | null): Promise<void>;
  stop(): Promise<void>;
  /** The last event folded (metrics: projection lag). */
  progress(): LogProgress;
}

const CHECKPOINT_EVERY = 500;

/** An in-process index fed by events (e.g. the intelligence index), rebuilt from the log at each start. */
export interface EventSink {
  readonly handles: readonly string[];
  apply(event: RecordedEvent): void;
}

export function createProjectionRunner(deps: {
  store: EventStore;
  readStore: ReadStore;
  checkpoints: CheckpointStore;
  projections: readonly Projection[];
  sinks?: readonly EventSink[];
  name?: string;
  onError?: (error: unknown, event: RecordedEvent, projection: string) => void;
}): ProjectionRunner {
  const name = deps.name ?? 'projections';
  const byType = new Map<string, Projection[]>();
  for (const projection of deps.projections) {
    for (const type of projection.handles) byType.set(type, [...(byType.get(type) ?? []), projection]);
  }
  const collections = new Map(deps.projections.map((p) => [p.name, deps.readStore.collection(p.collection, p.indexes)]));
  const waiters = createPositionWaiters();
  const abort = new AbortController();
  let saved: Position | null = null;
  let sinceSave = 0;
  let recordedAt: Date | null = null;
  let loop: Promise<void> | null = null;

  async function save(position: Position | null) {
    if (!position || position === saved) return;
    if ((await deps.checkpoints.store(name, position, saved)) === 'mismatch') {
      throw new Error(`projection checkpoint "${name}" was moved by another runner`);
    }
    saved = position;
    sinceSave = 0;
  }

  async function applyProjection(projection: Projection, event: RecordedEvent) {
    try {
      const id = projection.idOf(event);
      if (id !== null) await collections.get(projection.name)!.apply(id, event.position, (doc) => projection.evolve(doc, event));
    } catch (error) {
      deps.onError?.(error, event, projection.name);
    }
  }

  const rebuilds = createRebuildPauses({ store: deps.store, projections: deps.projections, apply: applyProjection });

  async function project(event: RecordedEvent) {
    for (const sink of deps.sinks ?? []) {
      if (sink.handles.includes(event.type)) sink.apply(event);
    }
    await rebuilds.observe(event);
    for (const projection of byType.get(event.type) ?? []) {
      if (!rebuilds.isPaused(projection.name)) await applyProjection(projection, event);
    }
  }

  async function run(from: Position | null) {
    for await (const delivery of deps.store.subscribeToAll({ from: from ?? 'start', signal: abort.signal })) {
      if (delivery.kind === 'caughtUp') {
        await save(waiters.processed);
        continue;
      }
      await project(delivery.event);
      waiters.advance(delivery.event.position);
      recordedAt = delivery.event.created;
      if (++sinceSave >= CHECKPOINT_EVERY) await save(delivery.event.position);
    }
  }

  return {
    async start() {
      saved = await deps.checkpoints.load(name);
      if (saved) waiters.advance(saved);
      loop = run(saved);
      loop.catch((error) => deps.onError?.(error, undefined as never, name));
    },
    async whenCaughtUp() {
      await waiters.until(await deps.store.headPosition());
    },
    whenProcessed: (position) => waiters.until(position),
    progress: () => ({ position: waiters.processed, recordedAt }),
    async stop() {
      abort.abort();
      await loop?.catch(() => undefined);
      await save(waiters.processed);
    },
  };
}
