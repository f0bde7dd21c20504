import type { Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { IdempotencyEvent, StoredResult } from './idempotency.events.js';
import { parseIdempotencyEvent } from './idempotency.upcast.js';

/**
 * Idempotency-Key: the same key and body within 24 h replays the stored outcome; another body is a
 * conflict. A claim left by a process that has since restarted (another `bootId`) is taken over with
 * the SAME call id, so the re-executed call is recognised by the ledger and never charged twice.
 * A request that ends in an error releases its claim: nothing was charged and a retry may run again.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type IdempotencyCommand =
  | { type: 'Claim'; callId: string; route: string; requestHash: string; bootId: string; at: string }
  | { type: 'StoreOutcome'; callId: string; outcome: unknown; at: string }
  | { type: 'Release'; callId: string; at: string };

export interface IdempotencyState {
  claim: { callId: string; route: string; requestHash: string; bootId: string; at: string } | null;
  stored: StoredResult | null;
}

export const initialIdempotencyState = (): IdempotencyState => ({ claim: null, stored: null });

/** What a request holding this key should do, read from the state after its Claim command. */
export type ClaimOutcome = { kind: 'execute'; callId: string } | { kind: 'replay'; stored: StoredResult } | { kind: 'in_progress' };

const expired = (claimedAt: string, now: string) => Date.parse(now) - Date.parse(claimedAt) >= IDEMPOTENCY_WINDOW_MS;

export function decideIdempotency(command: IdempotencyCommand, state: IdempotencyState): IdempotencyEvent[] {
  const { claim, stored } = state;
  switch (command.type) {
    case 'Claim': {
      const { type: _t, ...data } = command;
      if (!claim || expired(claim.at, command.at)) return [{ type: 'IdempotencyKeyClaimed', data }];
      if (claim.requestHash !== command.requestHash || claim.route !== command.route) {
        throw fail('idempotency_conflict', 'this Idempotency-Key was used with a different request within 24 h');
      }
      if (stored || claim.bootId === command.bootId) return [];
      return [{ type: 'IdempotencyKeyClaimed', data: { ...data, callId: claim.callId, at: claim.at } }];
    }
    case 'StoreOutcome':
      if (!claim || claim.callId !== command.callId || stored) return [];
      return [
        {
          type: 'IdempotentOutcomeStored',
          data: { callId: command.callId, result: { kind: 'outcome', outcome: command.outcome }, at: command.at },
        },
      ];
    case 'Release':
      if (!claim || claim.callId !== command.callId || stored) return [];
      return [{ type: 'IdempotencyClaimReleased', data: { callId: command.callId, at: command.at } }];
  }
}

export function evolveIdempotency(state: IdempotencyState, event: IdempotencyEvent): IdempotencyState {
  switch (event.type) {
    case 'IdempotencyKeyClaimed':
      return { claim: event.data, stored: null };
    case 'IdempotentOutcomeStored':
      return { ...state, stored: event.data.result };
    case 'IdempotencyClaimReleased':
      return initialIdempotencyState();
  }
}

/** What the request that sent a Claim should do, from the events the Claim produced and the state after. */
export function claimOutcome(produced: readonly IdempotencyEvent[], state: IdempotencyState): ClaimOutcome {
  if (produced.some((e) => e.type === 'IdempotencyKeyClaimed') && state.claim) {
    return { kind: 'execute', callId: state.claim.callId };
  }
  if (state.stored) return { kind: 'replay', stored: state.stored };
  return { kind: 'in_progress' };
}

export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyEvent, IdempotencyState> = {
  decide: decideIdempotency,
  evolve: evolveIdempotency,
  initialState: initialIdempotencyState,
  parse: parseIdempotencyEvent,
};
