import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/** Live dashboard sessions by id (the hash of the cookie's token); a logout deletes the document. */
export interface SessionDoc extends Record<string, unknown> {
  sessionId: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export const sessionsProjection = defineProjection({
  name: 'sessions',
  collection: 'dashboard_sessions',
  handles: ['SessionStarted', 'SessionEnded'],
  idOf: (event) => event.data.sessionId,
  evolve: (_doc: SessionDoc | null, event) => {
    if (event.type === 'SessionStarted') {
      const { sessionId, userId, at, expiresAt } = event.data;
      return { sessionId, userId, createdAt: at, expiresAt };
    }
    return null;
  },
});

export interface SessionRepository {
  /** The session if it exists, has not ended and has not expired at `now`. */
  live(sessionId: string, now: Date): Promise<SessionDoc | null>;
}

export function sessionRepository(store: ReadStore): SessionRepository {
  const sessions = store.collection<SessionDoc>(sessionsProjection.collection);
  return {
    async live(sessionId, now) {
      const doc = (await sessions.get(sessionId))?.doc ?? null;
      return doc && doc.expiresAt > now.toISOString() ? doc : null;
    },
  };
}
