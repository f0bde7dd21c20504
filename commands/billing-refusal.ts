import { microsToUsd } from '../domain/shared/money.js';

/**
 * The billing object of a refused charge (402: nothing charged), from the ledger decider's refusal
 * details: the quota, the ledger's balance and cap (with the shortfall), or no plan at all. It travels as
 * the error's details, which commands shape for the wire like every error's (the error envelope is the
 * one answer commands/ words).
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
