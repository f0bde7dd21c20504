import { microsToUsd } from '../shared/money.js';
import { periodFor, usageIn, type LedgerState } from './ledger.decider.js';

/**
 * The billing object of a response, computed from the ledger state the call's own command produced
 * (never from an eventually consistent read model). Ledger plans get the spec's `ledger` envelope;
 * quota plans get the same idea in units.
 */
export type BillingEnvelope =
  | {
      model: 'ledger';
      currency: 'USD';
      charged_usd: number;
      balance_usd: number;
      monthly_spent_usd: number;
      monthly_cap_usd: number | null;
      replay: boolean;
    }
  | {
      model: 'quota';
      charged_units: number;
      units_used: number;
      monthly_quota: number;
      period_start: string;
      replay: boolean;
    };

/** A billing envelope as a command hands it on: built just now, or as a delivery event recorded it earlier. */
export type ChargedBilling = BillingEnvelope | Readonly<Record<string, unknown>>;

/** The same envelope marked as a replay: nothing was charged by this answer. */
export const asReplay = (billing: ChargedBilling): ChargedBilling => ({ ...billing, replay: true });

export function billingEnvelope(
  state: LedgerState,
  charge: { units: number; amountMicros: number },
  at: string,
  replay = false,
): BillingEnvelope {
  const usage = usageIn(state, at);
  if (state.plan.kind === 'quota') {
    return {
      model: 'quota',
      charged_units: charge.units,
      units_used: usage.units,
      monthly_quota: state.plan.monthlyUnits,
      period_start: periodFor(state, at),
      replay,
    };
  }
  return {
    model: 'ledger',
    currency: 'USD',
    charged_usd: microsToUsd(charge.amountMicros),
    balance_usd: microsToUsd(state.balanceMicros),
    monthly_spent_usd: microsToUsd(usage.spentMicros),
    monthly_cap_usd: state.monthlyCapMicros === null ? null : microsToUsd(state.monthlyCapMicros),
    replay,
  };
}
