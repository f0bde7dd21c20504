import { z } from 'zod';
import { isoTimestamp, paginationSchema } from './common.js';
import { BALANCE_EXAMPLE } from './examples.js';

/** The `billing` object of a charged answer (read-api/presenters/billing.presenter.ts), per plan. */
export const ledgerBillingSchema = z.strictObject({
  model: z.literal('ledger'),
  currency: z.literal('USD'),
  charged_usd: z.number().min(0),
  balance_usd: z.number(),
  monthly_spent_usd: z.number().min(0),
  monthly_cap_usd: z.number().nullable(),
  replay: z.boolean(),
});
export const quotaBillingSchema = z.strictObject({
  model: z.literal('quota'),
  charged_units: z.number().int().min(0),
  units_used: z.number().int().min(0),
  monthly_quota: z.number().int().min(0),
  period_start: z.string(),
  replay: z.boolean(),
});
export const billingSchema = z.discriminatedUnion('model', [ledgerBillingSchema, quotaBillingSchema]);
export type BillingBody = z.infer<typeof billingSchema>;

/** The `billing` of a refused call (402, nothing charged): the shortfall, or no plan at all. */
export const refusalBillingSchema = z.discriminatedUnion('model', [
  ledgerBillingSchema.extend({
    balance_usd: z.number().nullable(),
    monthly_spent_usd: z.number().nullable(),
    shortfall_usd: z.number().nullable().optional(),
  }),
  quotaBillingSchema.extend({
    units_used: z.number().int().nullable(),
    monthly_quota: z.number().int().nullable(),
    period_start: z.string().nullable(),
  }),
  z.strictObject({ model: z.literal('none'), monthly_quota: z.null(), replay: z.literal(false) }),
]);

/** GET /v2/balance */
export const balanceSchema = z
  .strictObject({
    plan: z.enum(['ledger', 'quota', 'none']),
    monthly_quota: z.number().int().nullable(),
    units_used: z.number().int().min(0),
    remaining_units: z.number().int().min(0).nullable(),
    period_start: z.string(),
    currency: z.literal('USD'),
    balance_usd: z.number(),
    monthly_spent_usd: z.number(),
    monthly_cap_usd: z.number().nullable(),
    remaining_usd: z.number().nullable(),
  })
  .meta({ example: BALANCE_EXAMPLE });
export type BalanceBody = z.infer<typeof balanceSchema>;

/** One charged call (projections/usage.projection.ts), with its refund if any. */
export const usageRowSchema = z.strictObject({
  call_id: z.string(),
  user_id: z.string(),
  key_id: z.string().nullable(),
  product: z.string(),
  endpoint: z.string(),
  network: z.string().nullable(),
  subject: z.string().nullable(),
  units: z.number().int().min(0),
  charged_usd: z.number().min(0),
  refunded_units: z.number().int().min(0),
  refunded_usd: z.number().min(0),
  refund_reason: z.string().nullable(),
  period_start: z.string(),
  created_at: isoTimestamp,
});

/** GET /v2/me/usage */
export const usageSchema = z.strictObject({
  billing: balanceSchema,
  rows: z.array(usageRowSchema),
  pagination: paginationSchema,
});
export type UsageBody = z.infer<typeof usageSchema>;
