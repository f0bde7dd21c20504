import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { projectionRebuildEventSchemas, type ProjectionRebuildEvent } from './projection-rebuild.events.js';

export type ProjectionRebuildCommand =
  | { type: 'StartRebuild'; projection: string; rebuildId: string; at: string }
  | {
      type: 'FinishRebuild';
      projection: string;
      rebuildId: string;
      resumeAfter: { commit: string; prepare: string } | null;
      at: string;
    };

export interface ProjectionRebuildState {
  /** The rebuild under way, if any. */
  running: string | null;
}

export function decideProjectionRebuild(command: ProjectionRebuildCommand, state: ProjectionRebuildState): ProjectionRebuildEvent[] {
  switch (command.type) {
    case 'StartRebuild':
      // A rebuild killed midway never finishes: a new one takes over rather than waiting forever.
      return [{ type: 'ProjectionRebuildStarted', data: { projection: command.projection, rebuildId: command.rebuildId, at: command.at } }];
    case 'FinishRebuild': {
      if (state.running !== command.rebuildId)
        throw fail('invalid_state', `rebuild ${command.rebuildId} of ${command.projection} is not the one under way`);
      const { projection, rebuildId, resumeAfter, at } = command;
      return [
        {
          type: 'ProjectionRebuildFinished',
          data: { projection, rebuildId, outcome: resumeAfter ? 'completed' : 'abandoned', resumeAfter, at },
        },
      ];
    }
  }
}

export function evolveProjectionRebuild(state: ProjectionRebuildState, event: ProjectionRebuildEvent): ProjectionRebuildState {
  switch (event.type) {
    case 'ProjectionRebuildStarted':
      return { running: event.data.rebuildId };
    case 'ProjectionRebuildFinished':
      return { running: null };
  }
}

export const projectionRebuildDecider: Decider<ProjectionRebuildCommand, ProjectionRebuildEvent, ProjectionRebuildState> = {
  decide: decideProjectionRebuild,
  evolve: evolveProjectionRebuild,
  initialState: () => ({ running: null }),
  parse: parserFor<ProjectionRebuildEvent>(projectionRebuildEventSchemas),
};
