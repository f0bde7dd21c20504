import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { sessionEventSchemas, type SessionEvent } from './session.events.js';

export type SessionCommand =
  | { type: 'StartSession'; sessionId: string; userId: string; expiresAt: string; at: string }
  | { type: 'EndSession'; userId: string; at: string };

export interface SessionState {
  sessionId: string | null;
  userId: string | null;
  expiresAt: string | null;
  ended: boolean;
}

export const initialSessionState = (): SessionState => ({ sessionId: null, userId: null, expiresAt: null, ended: false });

export function decideSession(command: SessionCommand, state: SessionState): SessionEvent[] {
  switch (command.type) {
    case 'StartSession': {
      // A session id is a hash of 256 random bits: a second start is a bug, never a retry.
      if (state.sessionId !== null) throw fail('invalid_state', 'session already started');
      const { type: _t, ...data } = command;
      return [{ type: 'SessionStarted', data }];
    }
    case 'EndSession':
      if (state.sessionId === null || state.userId !== command.userId) throw fail('not_found', 'no such session');
      if (state.ended) return [];
      return [{ type: 'SessionEnded', data: { sessionId: state.sessionId, userId: state.userId, reason: 'logout', at: command.at } }];
  }
}

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return { sessionId: event.data.sessionId, userId: event.data.userId, expiresAt: event.data.expiresAt, ended: false };
    case 'SessionEnded':
      return { ...state, ended: true };
  }
}

export const sessionDecider: Decider<SessionCommand, SessionEvent, SessionState> = {
  decide: decideSession,
  evolve: evolveSession,
  initialState: initialSessionState,
  parse: parserFor<SessionEvent>(sessionEventSchemas),
};
