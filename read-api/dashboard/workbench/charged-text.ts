import type { BillingEnvelope } from '../../../domain/ledger/billing-envelope.js';

/** What a verdict shown in the dashboard cost, from the billing envelope its delivery produced. */
export function chargedText(billing: BillingEnvelope): string {
  if (billing.replay) return 'Already charged: shown again at no cost.';
  return billing.model === 'quota'
    ? `Charged ${billing.charged_units} unit(s); ${billing.units_used} of ${billing.monthly_quota} used this month.`
    : `Charged $${billing.charged_usd.toFixed(2)}; balance $${billing.balance_usd.toFixed(2)}.`;
}
