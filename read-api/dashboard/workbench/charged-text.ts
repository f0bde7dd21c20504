import type { ChargedBilling } from '../../../domain/ledger/charged-billing.js';
import { microsToUsd } from '../../../domain/shared/money.js';

/** What a verdict shown in the dashboard cost, from the charge its delivery produced. */
export function chargedText(billing: ChargedBilling): string {
  if (billing.replay) return 'Already charged: shown again at no cost.';
  return billing.model === 'quota'
    ? `Charged ${billing.chargedUnits} unit(s); ${billing.unitsUsed} of ${billing.monthlyQuota} used this month.`
    : `Charged $${microsToUsd(billing.chargedMicros).toFixed(2)}; balance $${microsToUsd(billing.balanceMicros).toFixed(2)}.`;
}
