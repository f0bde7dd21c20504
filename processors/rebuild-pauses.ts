import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import { eventRegistry, type EventOf } from '../domain/events/registry.js';
import {
  PROJECTION_REBUILD_FINISHED,
  PROJECTION_REBUILD_STARTED,
  projectionRebuildStream,
} from '../domain/projections/projection-rebuild.events.js';

/**
 * A projection runner's side of a rebuild (domain/projections/projection-rebuild.events.ts): from a
 * `Started` on, the runner leaves that read model alone, so nothing it writes can be lost when the rebuilt
 * collection replaces the live one, nor land on a half-copied document; on `Finished` it applies the
 * events it skipped, from the rebuilt collection's last event (or from the start, when abandoned).
 */
export interface RebuildPauses {
  isPaused(projection: string): boolean;
  /** Whether the event starts or finishes a rebuild of one of the runner's projections. */
  concerns(event: RecordedEvent): boolean;
  /** After a restart from `checkpoint`: the rebuilds started at or before it and not finished by then still pause. */
  restore(checkpoint: Position): Promise<void>;
  /** Acts on the rebuild events of the runner's projections; resolves once the skipped events are applied. */
  observe(event: RecordedEvent): Promise<void>;
}

export function createRebuildPauses(deps: {
  store: Pick<EventStore, 'readAll' | 'read'>;
  projections: readonly Projection[];
  apply(projection: Projection, event: RecordedEvent): Promise<void>;
}): RebuildPauses {
  const byName = new Map(deps.projections.map((p) => [p.name, p]));
  /** Projection name → position of the `Started` that paused it (the earliest, if a rebuild took over). */
  const paused = new Map<string, Position>();

  async function resume(projection: Projection, after: Position, finished: Position) {
    for await (const event of deps.store.readAll({ after })) {
      if (comparePositions(event.position, finished) >= 0) break;
      if (projection.handles.includes(eventRegistry.readAs(event.type) ?? event.type)) await deps.apply(projection, event);
    }
  }

  /** The event as a rebuild of one of the runner's projections, or null. */
  function rebuildOf(event: RecordedEvent): EventOf<typeof PROJECTION_REBUILD_STARTED | typeof PROJECTION_REBUILD_FINISHED> | null {
    if (event.type !== PROJECTION_REBUILD_STARTED && event.type !== PROJECTION_REBUILD_FINISHED) return null;
    const rebuild = eventRegistry.parse(event);
    if (rebuild?.type !== PROJECTION_REBUILD_STARTED && rebuild?.type !== PROJECTION_REBUILD_FINISHED) return null;
    return byName.has(rebuild.data.projection) ? rebuild : null;
  }
  const concerns = (event: RecordedEvent): boolean => rebuildOf(event) !== null;

  return {
    isPaused: (name) => paused.has(name),
    concerns,
    async restore(checkpoint) {
      for (const projection of deps.projections) {
        for await (const event of deps.store.read(projectionRebuildStream(projection.name))) {
          if (comparePositions(event.position, checkpoint) > 0) break;
          if (event.type === PROJECTION_REBUILD_STARTED && !paused.has(projection.name)) paused.set(projection.name, event.position);
          if (event.type === PROJECTION_REBUILD_FINISHED) paused.delete(projection.name);
        }
      }
    },
    async observe(event) {
      const rebuild = rebuildOf(event);
      const projection = rebuild && byName.get(rebuild.data.projection);
      if (!rebuild || !projection) return;
      if (rebuild.type === PROJECTION_REBUILD_STARTED) {
        if (!paused.has(projection.name)) paused.set(projection.name, event.position);
        return;
      }
      const { resumeAfter } = rebuild.data;
      const after = resumeAfter
        ? { commit: BigInt(resumeAfter.commit), prepare: BigInt(resumeAfter.prepare) }
        : paused.get(projection.name);
      if (after) await resume(projection, after, event.position);
      paused.delete(projection.name);
    },
  };
}
