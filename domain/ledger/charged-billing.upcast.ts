import { z } from 'zod';
import { usdToMicros } from '../shared/money.js';
import type { ChargedBilling } from './charged-billing.js';

/**
 * CheckResultDelivered and ExploreResultDelivered, version 1 → 2. Version 1 (written until billing was a
 * domain fact) stored the response's `billing` object itself: snake case, USD with at most 6 decimals.
 * Version 2 stores the charge (charged-billing.ts): micro-USD and units. The mapping is exact (USD with 6
 * decimals is a whole number of micro-USD, which presents back to the same figure), so a delivery recorded
 * then is served the same bytes (test/e2e/stored-full-checks.e2e.test.ts).
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 */
const ledgerEnvelopeV1 = z.object({
  model: z.literal('ledger'),
  currency: z.literal('USD'),
  charged_usd: z.number(),
  balance_usd: z.number(),
  monthly_spent_usd: z.number(),
  monthly_cap_usd: z.number().nullable(),
  replay: z.boolean(),
});
const quotaEnvelopeV1 = z.object({
  model: z.literal('quota'),
  charged_units: z.number().int(),
  units_used: z.number().int(),
  monthly_quota: z.number().int(),
  period_start: z.string(),
  replay: z.boolean(),
});
const envelopeV1 = z.discriminatedUnion('model', [ledgerEnvelopeV1, quotaEnvelopeV1]);

/**
 * A stored envelope as the charge it reported. Only charges' envelopes were ever recorded; anything else
 * (none is known) reads as no billing recorded, and the delivery then asks the ledger again, which finds
 * the charge by its id and takes nothing (commands/address-check.commands.ts, explore.commands.ts).
 */
export function chargedBillingOfEnvelope(envelope: unknown): ChargedBilling | null {
  const parsed = envelopeV1.safeParse(envelope);
  if (!parsed.success) return null;
  const v1 = parsed.data;
  if (v1.model === 'quota') {
    return {
      model: 'quota',
      chargedUnits: v1.charged_units,
      unitsUsed: v1.units_used,
      monthlyQuota: v1.monthly_quota,
      periodStart: v1.period_start,
      replay: v1.replay,
    };
  }
  return {
    model: 'ledger',
    chargedMicros: usdToMicros(v1.charged_usd),
    balanceMicros: usdToMicros(v1.balance_usd),
    monthlySpentMicros: usdToMicros(v1.monthly_spent_usd),
    monthlyCapMicros: v1.monthly_cap_usd === null ? null : usdToMicros(v1.monthly_cap_usd),
    replay: v1.replay,
  };
}

/** The registry's upcaster of both delivery events: `{ billing: envelope | null, at }` → `{ billing: charge | null, at }`. */
export function resultDeliveredV1toV2(data: unknown): unknown {
  const { billing, at } = data as { billing: unknown; at: string };
  return { billing: billing === null ? null : chargedBillingOfEnvelope(billing), at };
}
