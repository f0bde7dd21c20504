import { periodStartOf } from '../billing/period.js';
import { microsToUsd } from '../shared/money.js';
import { periodFor, usageIn, type LedgerState } from './ledger.decider.js';

/**
 * Every billing object of a response is built in this file: a charge's envelope (ledger or quota), a
 * refusal's, an x402 payment's, and the balance summary.
 *
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

/**
 * The billing object of a refused charge (402: nothing charged), from the ledger decider's refusal
 * details: the quota, the ledger's balance and cap (with the shortfall), or no plan at all.
 */
export function refusalEnvelope(details: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const usd = (micros: unknown) => (typeof micros === 'number' ? microsToUsd(micros) : null);
  if (details.monthlyQuota !== undefined) {
    return {
      model: 'quota',
      charged_units: 0,
      units_used: details.unitsUsed,
      monthly_quota: details.monthlyQuota,
      period_start: details.periodStart,
      replay: false,
    };
  }
  if (details.reason === 'no_plan') return { model: 'none', monthly_quota: null, replay: false };
  return {
    model: 'ledger',
    currency: 'USD',
    charged_usd: 0,
    balance_usd: usd(details.balanceMicros),
    monthly_spent_usd: usd(details.monthlySpentMicros),
    monthly_cap_usd: usd(details.monthlyCapMicros),
    ...(details.shortfallMicros !== undefined ? { shortfall_usd: usd(details.shortfallMicros) } : {}),
    replay: false,
  };
}

/**
 * The billing object of an x402 answer: what this request paid on-chain. `paid` is null when an earlier
 * payment covered it (an already paid transfer, or a free result fetch): nothing charged, `replay: true`.
 */
export function x402Envelope(
  terms: { network: string; asset: string },
  paid: { priceMicros: number; payer: string | null; transaction: string | null } | null,
) {
  return {
    model: 'x402',
    currency: 'USD',
    charged_usd: paid ? microsToUsd(paid.priceMicros) : 0,
    network: terms.network,
    asset: terms.asset,
    payer: paid?.payer ?? null,
    transaction: paid?.transaction ?? null,
    replay: paid === null,
  };
}

/** GET /v2/balance's figures: the plan, this month's usage and what may still be spent, as the ledger says `now`. */
export function balanceSummary(state: LedgerState, now: string) {
  const plan = state.plan;
  const usage = usageIn(state, now);
  const quota = plan.kind === 'quota' ? plan.monthlyUnits : null;
  return {
    plan: plan.kind,
    monthly_quota: quota,
    units_used: usage.units,
    remaining_units: quota === null ? null : Math.max(0, quota - usage.units),
    period_start: periodStartOf(now),
    currency: 'USD',
    balance_usd: microsToUsd(state.balanceMicros),
    monthly_spent_usd: microsToUsd(usage.spentMicros),
    monthly_cap_usd: state.monthlyCapMicros === null ? null : microsToUsd(state.monthlyCapMicros),
    remaining_usd:
      plan.kind !== 'ledger'
        ? null
        : microsToUsd(
            state.monthlyCapMicros === null
              ? state.balanceMicros
              : Math.max(0, Math.min(state.balanceMicros, state.monthlyCapMicros - usage.spentMicros)),
          ),
  };
}
