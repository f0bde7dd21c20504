import { describe, expect, it } from 'vitest';
import { event, projectionSpec } from '../test/support/projection-spec.js';
import { sessionRepository, sessionsProjection } from './sessions.projection.js';

const started = event('session-s1', 'SessionStarted', {
  sessionId: 's1',
  userId: 'u1',
  expiresAt: '2026-03-10T13:00:00.000Z',
  at: '2026-03-10T12:00:00.000Z',
});
const ended = event('session-s1', 'SessionEnded', { sessionId: 's1', userId: 'u1', reason: 'logout', at: '2026-03-10T12:30:00.000Z' });

const spec = projectionSpec(sessionsProjection, sessionRepository);

describe('sessions read model', () => {
  it('a started session is live until it expires', async () => {
    await spec
      .given([])
      .when([started])
      .then(async (sessions) => {
        expect(await sessions.live('s1', new Date('2026-03-10T12:59:59Z'))).toMatchObject({ userId: 'u1' });
        expect(await sessions.live('s1', new Date('2026-03-10T13:00:00Z'))).toBeNull();
        expect(await sessions.live('s2', new Date('2026-03-10T12:00:00Z'))).toBeNull();
      });
  });

  // The spec delivers every event twice: the start redelivered after the logout must not revive it.
  it('a logout ends it, and a redelivered start does not revive it', async () => {
    await spec
      .given([started])
      .when([ended])
      .then(async (sessions) => expect(await sessions.live('s1', new Date('2026-03-10T12:31:00Z'))).toBeNull());
  });
});
