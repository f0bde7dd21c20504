import { present } from '../shared/present.js';
import type { ChargedBilling } from '../ledger/charged-billing.js';
import type { ExposureBudget } from '../exposure/exposure.schema.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { Network } from '../shared/network.js';
import { addressCheckEventSchemas, type AddressCheckEvent, type CheckOwner } from './address-check.events.js';
import type { FullCheckVerdict } from './full-check-verdict.js';
import { buildFullCheckVerdict, highRiskPayload, type CompletedTiers } from './full-verdict.js';
import { WEBHOOK_EVENT_RAISED } from './raised-webhook.js';
import { TIERS, type Tier, type TierOutcome } from './tier-outcome.schema.js';

/**
 * One address full check. Running until every tier has an outcome (then completed), a tier has failed
 * MAX_TIER_ATTEMPTS times (failed), or the reaper finds it running past the wall-clock cap
 * (failed_timeout). Every command on a finished check decides nothing, so a late tier, a duplicate
 * delivery or a second reaper changes nothing: processors may run at least once.
 */

export const MAX_TIER_ATTEMPTS = 3;
/** The spec's stuck-check reaper: 15 minutes of wall clock. */
export const CHECK_TIMEOUT_MS = 15 * 60 * 1000;

export type CheckStatus = 'none' | 'running' | 'completed' | 'failed' | 'failed_timeout';

export interface AddressCheckState {
  status: CheckStatus;
  request: { checkId: string; owner: CheckOwner; address: string; network: Network; budget: ExposureBudget; requestedAt: string } | null;
  tiers: Partial<Record<Tier, TierOutcome>>;
  attempts: Partial<Record<Tier, number>>;
  verdict: FullCheckVerdict | null;
  failure: { tier: number | null; error: string; at: string } | null;
  delivered: { billing: ChargedBilling | null; at: string } | null;
}

export type AddressCheckCommand =
  | { type: 'Request'; checkId: string; owner: CheckOwner; address: string; network: Network; budget: ExposureBudget; at: string }
  | { type: 'RecordTier'; outcome: TierOutcome; at: string }
  | { type: 'RecordTierFailure'; tier: Tier; error: string; at: string }
  | { type: 'Complete'; at: string }
  | { type: 'TimeOut'; at: string }
  | { type: 'RecordDelivery'; billing: ChargedBilling | null; at: string };

export const initialAddressCheckState = (): AddressCheckState => ({
  status: 'none',
  request: null,
  tiers: {},
  attempts: {},
  verdict: null,
  failure: null,
  delivered: null,
});

export const missingTiers = (state: AddressCheckState): Tier[] => TIERS.filter((t) => state.tiers[t] === undefined);

function decide(command: AddressCheckCommand, state: AddressCheckState): AddressCheckEvent[] {
  if (command.type === 'Request') {
    if (state.request) {
      const same =
        state.request.address === command.address &&
        state.request.network === command.network &&
        state.request.owner.ownerId === command.owner.ownerId;
      if (same) return [];
      throw fail('invalid_state', `check ${command.checkId} already exists for another request`);
    }
    const { checkId, owner, address, network, budget, at } = command;
    return [{ type: 'AddressCheckRequested', data: { checkId, owner, address, network, budget, requestedAt: at } }];
  }
  if (state.status === 'none') throw fail('not_found', 'no such check');
  switch (command.type) {
    case 'RecordTier':
      if (state.status !== 'running' || state.tiers[command.outcome.tier] !== undefined) return [];
      return [{ type: 'TierCompleted', data: { outcome: command.outcome, at: command.at } }];
    case 'RecordTierFailure': {
      if (state.status !== 'running' || state.tiers[command.tier] !== undefined) return [];
      const attempt = (state.attempts[command.tier] ?? 0) + 1;
      const failed: AddressCheckEvent = {
        type: 'TierAttemptFailed',
        data: { tier: command.tier, attempt, error: command.error, at: command.at },
      };
      if (attempt < MAX_TIER_ATTEMPTS) return [failed];
      return [failed, { type: 'CheckFailed', data: { tier: command.tier, error: command.error, at: command.at } }];
    }
    case 'Complete': {
      if (state.status !== 'running') return [];
      if (missingTiers(state).length > 0) throw fail('invalid_state', `tiers ${missingTiers(state).join(', ')} have no outcome yet`);
      const request = present(state.request, 'past its Requested event a job has its request');
      const verdict = buildFullCheckVerdict(
        { checkId: request.checkId, address: request.address, network: request.network, requestedAt: request.requestedAt },
        state.tiers as unknown as CompletedTiers,
        command.at,
      );
      const completed: AddressCheckEvent = { type: 'CheckCompleted', data: { verdict, at: command.at } };
      const payload = highRiskPayload(verdict);
      if (!payload || request.owner.channel !== 'v2') return [completed];
      const audience = { user_id: request.owner.ownerId };
      return [
        completed,
        { type: WEBHOOK_EVENT_RAISED, data: { event_type: 'service.check.high_risk', audience, payload, occurred_at: command.at } },
      ];
    }
    case 'TimeOut': {
      if (state.status !== 'running') return [];
      const runningMs =
        Date.parse(command.at) - Date.parse(present(state.request, 'past its Requested event a job has its request').requestedAt);
      if (!(runningMs >= CHECK_TIMEOUT_MS)) return [];
      return [{ type: 'CheckTimedOut', data: { runningMs, at: command.at } }];
    }
    case 'RecordDelivery':
      if (state.status !== 'completed' || state.delivered) return [];
      return [{ type: 'CheckResultDelivered', data: { billing: command.billing, at: command.at } }];
  }
}

function evolve(state: AddressCheckState, event: AddressCheckEvent): AddressCheckState {
  switch (event.type) {
    case 'AddressCheckRequested': {
      const { checkId, owner, address, network, budget, requestedAt } = event.data;
      return { ...state, status: 'running', request: { checkId, owner, address, network, budget, requestedAt } };
    }
    case 'TierCompleted':
      return { ...state, tiers: { ...state.tiers, [event.data.outcome.tier]: event.data.outcome } };
    case 'TierAttemptFailed':
      return { ...state, attempts: { ...state.attempts, [event.data.tier]: event.data.attempt } };
    case 'CheckCompleted':
      return { ...state, status: 'completed', verdict: event.data.verdict };
    case 'CheckFailed':
      return { ...state, status: 'failed', failure: { tier: event.data.tier, error: event.data.error, at: event.data.at } };
    case 'CheckTimedOut':
      return {
        ...state,
        status: 'failed_timeout',
        failure: { tier: null, error: 'still running after the 15-minute cap', at: event.data.at },
      };
    case 'CheckResultDelivered':
      return { ...state, delivered: { billing: event.data.billing, at: event.data.at } };
    case WEBHOOK_EVENT_RAISED:
      return state;
  }
}

export const addressCheckDecider: Decider<AddressCheckCommand, AddressCheckEvent, AddressCheckState> = {
  decide,
  evolve,
  initialState: initialAddressCheckState,
  parse: parserFor<AddressCheckEvent>(addressCheckEventSchemas),
};
