import { describe, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { projectionRebuildDecider } from './projection-rebuild.decider.js';

const at = '2026-11-22T00:00:00.000Z';
const started = (rebuildId: string) => ({ type: 'ProjectionRebuildStarted' as const, data: { projection: 'accounts', rebuildId, at } });
const position = { commit: '120', prepare: '120' };

describe('projection rebuild decider', () => {
  const spec = deciderSpec(projectionRebuildDecider);

  it('Given nothing, When a rebuild starts, Then it is started', () => {
    spec
      .given([])
      .when({ type: 'StartRebuild', projection: 'accounts', rebuildId: 'r1', at })
      .then([started('r1')]);
  });

  it('Given a rebuild under way (say its process was killed), When another starts, Then the new one takes over', () => {
    spec
      .given([started('r1')])
      .when({ type: 'StartRebuild', projection: 'accounts', rebuildId: 'r2', at })
      .then([started('r2')]);
  });

  it('Given a rebuild under way, When it finishes with its last position, Then it is completed from there', () => {
    spec
      .given([started('r1')])
      .when({ type: 'FinishRebuild', projection: 'accounts', rebuildId: 'r1', resumeAfter: position, at })
      .then([
        {
          type: 'ProjectionRebuildFinished',
          data: { projection: 'accounts', rebuildId: 'r1', outcome: 'completed', resumeAfter: position, at },
        },
      ]);
  });

  it('Given a rebuild under way, When it gives up, Then it is abandoned (runners resume from its start)', () => {
    spec
      .given([started('r1')])
      .when({ type: 'FinishRebuild', projection: 'accounts', rebuildId: 'r1', resumeAfter: null, at })
      .then([
        {
          type: 'ProjectionRebuildFinished',
          data: { projection: 'accounts', rebuildId: 'r1', outcome: 'abandoned', resumeAfter: null, at },
        },
      ]);
  });

  it('Given a rebuild taken over by another, When the first one finishes, Then it is refused', () => {
    spec
      .given([started('r1'), started('r2')])
      .when({ type: 'FinishRebuild', projection: 'accounts', rebuildId: 'r1', resumeAfter: position, at })
      .thenThrows('invalid_state');
  });

  it('Given no rebuild, When one finishes, Then it is refused', () => {
    spec
      .given([])
      .when({ type: 'FinishRebuild', projection: 'accounts', rebuildId: 'r1', resumeAfter: null, at })
      .thenThrows('invalid_state');
  });
});
