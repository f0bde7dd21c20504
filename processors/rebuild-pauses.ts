import { comparePositions, type EventStore, type Position, type RecordedEvent } from '../domain/ports/event-store.port.js';
import type { Projection } from '../domain/ports/projection.port.js';
import { PROJECTION_REBUILD_FINISHED, PROJECTION_REBUILD_STARTED, type ProjectionRebuildEvent } from '../domain/projections/projection-rebuild.events.js';

/**
 * A projection runner's side of a rebuild (domain/projections/projection-rebuild.events.ts): from a
 * `Started` on, the runner leaves that read model alone, so nothing it writes can be lost when the rebuilt
 * collection replaces the live one, nor land on a half-copied document; on `Finished` it applies the
 * events it skipped, from the rebuilt collection's last event (or from the start, when abandoned).
 */
export interface RebuildPauses {
  isPaused(projection: string): boolean;
  /** Acts on the rebuild events of the runner's projections; resolves once the skipped events are applied. */
  observe(event: RecordedEvent): Promise<void>;
}

export function createRebuildPauses(deps: {
  store: Pick<EventStore, 'readAll'>;
  projections: readonly Projection[];
  apply(projection: Projection, event: RecordedEvent): Promise<void>;
}): RebuildPauses {
  const byName = new Map(deps.projections.map((p) => [p.name, p]));
  /** Projection name → position of the `Started` that paused it (the earliest, if a rebuild took over). */
  const paused = new Map<string, Position>();

  async function resume(projection: Projection, after: Position, finished: Position) {
    for await (const event of deps.store.readAll({ after })) {
      if (comparePositions(event.position, finished) >= 0) break;
      if (projection.handles.includes(event.type)) await deps.apply(projection, event);
    }
  }

  return {
    isPaused: (name) => paused.has(name),
    async observe(event) {
      if (event.type !== PROJECTION_REBUILD_STARTED && event.type !== PROJECTION_REBUILD_FINISHED) return;
      const rebuild = { type: event.type, data: event.data } as ProjectionRebuildEvent;
      const projection = byName.get(rebuild.data.projection);
      if (!projection) return;
      if (rebuild.type === 'ProjectionRebuildStarted') {
        if (!paused.has(projection.name)) paused.set(projection.name, event.position);
        return;
      }
      const { resumeAfter } = rebuild.data;
      const after = resumeAfter ? { commit: BigInt(resumeAfter.commit), prepare: BigInt(resumeAfter.prepare) } : paused.get(projection.name);
      if (after) await resume(projection, after, event.position);
      paused.delete(projection.name);
    },
  };
}
