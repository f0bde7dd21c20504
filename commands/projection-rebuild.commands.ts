import { present } from '../domain/shared/present.js';
import type { Position } from '../domain/ports/event-store.port.js';
import { projectionRebuildDecider } from '../domain/projections/projection-rebuild.decider.js';
import { projectionRebuildStream } from '../domain/projections/projection-rebuild.events.js';
import type { CommandDeps } from './command-deps.js';

/** Announces a rebuild: from its position on, every projection runner leaves the read model alone. */
export async function startProjectionRebuild(deps: CommandDeps, projection: string): Promise<{ rebuildId: string; position: Position }> {
  const rebuildId = deps.ids.newId();
  const outcome = await deps.executor.execute(
    projectionRebuildStream(projection),
    projectionRebuildDecider,
    { type: 'StartRebuild', projection, rebuildId, at: deps.clock.now().toISOString() },
    { commandId: `start-rebuild:${rebuildId}` },
  );
  return { rebuildId, position: present(outcome.position, 'starting or finishing this rebuild always appends, so there is a position') };
}

/**
 * Ends a rebuild: runners apply what they skipped after `resumeAfter` (the rebuilt collection's last
 * event), or after the start when `resumeAfter` is null (abandoned: the old collection stays).
 */
export async function finishProjectionRebuild(
  deps: CommandDeps,
  projection: string,
  rebuildId: string,
  resumeAfter: Position | null,
): Promise<Position> {
  const outcome = await deps.executor.execute(
    projectionRebuildStream(projection),
    projectionRebuildDecider,
    {
      type: 'FinishRebuild',
      projection,
      rebuildId,
      resumeAfter: resumeAfter ? { commit: resumeAfter.commit.toString(), prepare: resumeAfter.prepare.toString() } : null,
      at: deps.clock.now().toISOString(),
    },
    { commandId: `finish-rebuild:${rebuildId}` },
  );
  return present(outcome.position, 'starting or finishing this rebuild always appends, so there is a position');
}
