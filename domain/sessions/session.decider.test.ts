import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../test/support/decider-spec.js';
import { sessionDecider, type SessionCommand } from './session.decider.js';
import type { SessionEvent } from './session.events.js';
import { csrfTokenOf, sessionIdOf, sessionTokenFromBytes, SESSION_TOKEN } from './session-token.js';

const spec = deciderSpec(sessionDecider);
const T = '2026-03-10T12:00:00.000Z';
const EXPIRES = '2026-03-11T00:00:00.000Z';

const start: SessionCommand = { type: 'StartSession', sessionId: 's1', userId: 'u1', expiresAt: EXPIRES, at: T };
const started: SessionEvent = { type: 'SessionStarted', data: { sessionId: 's1', userId: 'u1', expiresAt: EXPIRES, at: T } };
const end = (userId = 'u1'): SessionCommand => ({ type: 'EndSession', userId, at: T });
const ended: SessionEvent = { type: 'SessionEnded', data: { sessionId: 's1', userId: 'u1', reason: 'logout', at: T } };

describe('session decider', () => {
  it('starts a session once; a second start of the same id is invalid_state', () => {
    const state = spec.given([]).when(start).then([started]);
    expect(state).toEqual({ sessionId: 's1', userId: 'u1', expiresAt: EXPIRES, ended: false });
    spec.given([started]).when(start).thenThrows('invalid_state');
  });

  it('ends the owner’s session; ending it again decides nothing', () => {
    expect(spec.given([started]).when(end()).then([ended]).ended).toBe(true);
    spec.given([started, ended]).when(end()).thenNothingHappened();
  });

  it('another user’s session is indistinguishable from a missing one', () => {
    const missing = spec.given([]).when(end()).thenThrows('not_found');
    const foreign = spec.given([started]).when(end('u2')).thenThrows('not_found');
    expect(foreign.message).toBe(missing.message);
  });
});

describe('session token', () => {
  it('is 64 hex digits; its session id and CSRF token are distinct hashes of it', () => {
    const token = sessionTokenFromBytes(new Uint8Array(32).fill(171));
    expect(token).toBe('ab'.repeat(32));
    expect(token).toMatch(SESSION_TOKEN);
    expect(sessionIdOf(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(csrfTokenOf(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([token, sessionIdOf(token), csrfTokenOf(token)]).size).toBe(3);
    expect(sessionIdOf('cd'.repeat(32))).not.toBe(sessionIdOf(token));
  });
});
