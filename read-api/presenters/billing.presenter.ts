import { periodStartOf } from '../../domain/billing/period.js';
import type { ChargedBilling } from '../../domain/ledger/charged-billing.js';
import { usageIn, type LedgerState } from '../../domain/ledger/ledger.decider.js';
import { microsToUsd } from '../../domain/shared/money.js';
import type { BillingBody } from '../schemas/billing.js';

/**
 * Every `billing` object of a response, from the domain's facts: a charge (ledger plans get the spec's
 * `ledger` envelope in USD, quota plans the same idea in units), an x402 payment, the balance summary.
 * The refused call's (402) is built with its error, in commands/billing-refusal.ts.
 */

/** A charge's envelope: key order as the spec's tables give it (stored deliveries are served byte for byte). */
export function presentBilling(billing: ChargedBilling): BillingBody {
  if (billing.model === 'quota') {
    return {
      model: 'quota',
      charged_units: billing.chargedUnits,
      units_used: billing.unitsUsed,
      monthly_quota: billing.monthlyQuota,
      period_start: billing.periodStart,
      replay: billing.replay,
    };
  }
  return {
    model: 'ledger',
    currency: 'USD',
    charged_usd: microsToUsd(billing.chargedMicros),
    balance_usd: microsToUsd(billing.balanceMicros),
    monthly_spent_usd: microsToUsd(billing.monthlySpentMicros),
    monthly_cap_usd: billing.monthlyCapMicros === null ? null : microsToUsd(billing.monthlyCapMicros),
    replay: billing.replay,
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
