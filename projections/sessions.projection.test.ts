import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../domain/ports/event-store.port.js';
import { createMemoryReadStore } from '../infra/embedded/memory-read-store.js';
import { sessionRepository, sessionsProjection } from './sessions.projection.js';

const recorded = (type: string, data: Record<string, unknown>, commit: bigint): RecordedEvent =>
  ({
    type,
    data,
    streamId: 'session-s1',
    revision: 0n,
    position: { commit, prepare: commit },
    id: `e${commit}`,
    metadata: {},
  }) as unknown as RecordedEvent;

async function project(events: RecordedEvent[]) {
  const store = createMemoryReadStore();
  const collection = store.collection(sessionsProjection.collection);
  for (const event of events) {
    await collection.apply(sessionsProjection.idOf(event)!, event.position, (doc) => sessionsProjection.evolve(doc as never, event));
  }
  return sessionRepository(store);
}

const started = recorded(
  'SessionStarted',
  { sessionId: 's1', userId: 'u1', expiresAt: '2026-03-10T13:00:00.000Z', at: '2026-03-10T12:00:00.000Z' },
  1n,
);
const ended = recorded('SessionEnded', { sessionId: 's1', userId: 'u1', reason: 'logout', at: '2026-03-10T12:30:00.000Z' }, 2n);

describe('sessions read model', () => {
  it('a started session is live until it expires', async () => {
    const sessions = await project([started]);
    expect(await sessions.live('s1', new Date('2026-03-10T12:59:59Z'))).toMatchObject({ userId: 'u1' });
    expect(await sessions.live('s1', new Date('2026-03-10T13:00:00Z'))).toBeNull();
    expect(await sessions.live('s2', new Date('2026-03-10T12:00:00Z'))).toBeNull();
  });

  it('a logout ends it, and replaying the start afterwards does not revive it', async () => {
    const sessions = await project([started, ended, started]);
    expect(await sessions.live('s1', new Date('2026-03-10T12:31:00Z'))).toBeNull();
  });
});
