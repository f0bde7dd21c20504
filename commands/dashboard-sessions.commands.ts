import { sessionDecider } from '../domain/sessions/session.decider.js';
import { sessionStream } from '../domain/sessions/session.events.js';
import { sessionIdOf, sessionTokenFromBytes } from '../domain/sessions/session-token.js';
import type { Position } from '../domain/ports/event-store.port.js';
import type { CommandDeps } from './command-deps.js';

export interface StartedSession {
  /** The cookie value: returned once, only its hash is stored. */
  readonly token: string;
  readonly sessionId: string;
  readonly expiresAt: string;
  readonly position: Position | null;
}

/** Starts a dashboard session for a user whose password was just verified. */
export async function startSession(deps: CommandDeps, userId: string, ttlMs: number): Promise<StartedSession> {
  const token = sessionTokenFromBytes(deps.random.bytes(32));
  const sessionId = sessionIdOf(token);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  const outcome = await deps.executor.execute(
    sessionStream(sessionId),
    sessionDecider,
    { type: 'StartSession', sessionId, userId, expiresAt, at: now.toISOString() },
    { commandId: `start-session:${sessionId}` },
  );
  return { token, sessionId, expiresAt, position: outcome.position };
}

/** Ends the session (logout); resolves with the position the read models must reach for it to take effect. */
export async function endSession(deps: CommandDeps, sessionId: string, userId: string): Promise<Position | null> {
  const outcome = await deps.executor.execute(
    sessionStream(sessionId),
    sessionDecider,
    { type: 'EndSession', userId, at: deps.clock.now().toISOString() },
    { commandId: `end-session:${sessionId}` },
  );
  return outcome.position;
}
