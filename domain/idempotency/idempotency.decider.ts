import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { idempotencyEventSchemas, type IdempotencyEvent } from './idempotency.events.js';

/**
 * Idempotency-Key: the same key and body within 24 h replays the stored response; another body is a
 * conflict. A claim left by a process that has since restarted (another `bootId`) is taken over with
 * the SAME call id, so the re-executed call is recognised by the ledger and never charged twice.
 * A request that ends in an error releases its claim: nothing was charged and a retry may run again.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export type IdempotencyCommand =
  | { type: 'Claim'; callId: string; route: string; requestHash: string; bootId: string; at: string }
  | { type: 'StoreResponse'; callId: string; status: number; body: unknown; at: string }
  | { type: 'Release'; callId: string; at: string };

export interface IdempotencyState {
  claim: { callId: string; route: string; requestHash: string; bootId: string; at: string } | null;
  response: { status: number; body: unknown } | null;
}

export const initialIdempotencyState = (): IdempotencyState => ({ claim: null, response: null });

/** What a request holding this key should do, read from the state after its Claim command. */
export type ClaimOutcome =
  | { kind: 'execute'; callId: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'in_progress' };

const expired = (claimedAt: string, now: string) => Date.parse(now) - Date.parse(claimedAt) >= IDEMPOTENCY_WINDOW_MS;

export function decideIdempotency(command: IdempotencyCommand, state: IdempotencyState): IdempotencyEvent[] {
  const { claim, response } = state;
  switch (command.type) {
    case 'Claim': {
      const { type: _t, ...data } = command;
      if (!claim || expired(claim.at, command.at)) return [{ type: 'IdempotencyKeyClaimed', data }];
      if (claim.requestHash !== command.requestHash || claim.route !== command.route) {
        throw fail('idempotency_conflict', 'this Idempotency-Key was used with a different request within 24 h');
      }
      if (response || claim.bootId === command.bootId) return [];
      return [{ type: 'IdempotencyKeyClaimed', data: { ...data, callId: claim.callId, at: claim.at } }];
    }
    case 'StoreResponse':
      if (!claim || claim.callId !== command.callId || response) return [];
      return [{ type: 'IdempotentResponseStored', data: { callId: command.callId, status: command.status, body: command.body, at: command.at } }];
    case 'Release':
      if (!claim || claim.callId !== command.callId || response) return [];
      return [{ type: 'IdempotencyClaimReleased', data: { callId: command.callId, at: command.at } }];
  }
}

export function evolveIdempotency(state: IdempotencyState, event: IdempotencyEvent): IdempotencyState {
  switch (event.type) {
    case 'IdempotencyKeyClaimed':
      return { claim: event.data, response: null };
    case 'IdempotentResponseStored':
      return { ...state, response: { status: event.data.status, body: event.data.body } };
    case 'IdempotencyClaimReleased':
      return initialIdempotencyState();
  }
}

/** What the request that sent a Claim should do, from the events the Claim produced and the state after. */
export function claimOutcome(produced: readonly IdempotencyEvent[], state: IdempotencyState): ClaimOutcome {
  if (produced.some((e) => e.type === 'IdempotencyKeyClaimed') && state.claim) {
    return { kind: 'execute', callId: state.claim.callId };
  }
  if (state.response) return { kind: 'replay', ...state.response };
  return { kind: 'in_progress' };
}

export const idempotencyDecider: Decider<IdempotencyCommand, IdempotencyEvent, IdempotencyState> = {
  decide: decideIdempotency,
  evolve: evolveIdempotency,
  initialState: initialIdempotencyState,
  parse: parserFor<IdempotencyEvent>(idempotencyEventSchemas),
};
