import { z } from 'zod';

/** Stream `ledger-{userId}`: everything that moves a user's money or quota. */
export const ledgerStream = (userId: string): string => `ledger-${userId}`;

const micros = z.number().int().nonnegative();
const isoTime = z.string();

export const planSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('quota'), monthlyUnits: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('ledger') }),
]);
export type Plan = z.infer<typeof planSchema>;

export const chargeDetailsSchema = z.object({
  endpoint: z.string(),
  keyId: z.string().nullable(),
  network: z.string().nullable(),
  subject: z.string().nullable(),
  /** Multi-provider calls: every provider the call asked for, and whether its run is in this charge. */
  providers: z.array(z.object({ provider: z.string(), outcome: z.string(), charged: z.boolean() })).optional(),
});
export type ChargeDetails = z.infer<typeof chargeDetailsSchema>;

export const ledgerEventSchemas = {
  PlanChanged: z.object({ plan: planSchema, at: isoTime }),
  FundsDeposited: z.object({ depositId: z.string(), amountMicros: micros, at: isoTime }),
  MonthlyCapSet: z.object({ capMicros: micros.nullable(), at: isoTime }),
  QuotaPeriodStarted: z.object({ periodStart: isoTime, monthlyUnits: z.number().int().nonnegative() }),
  Charged: z.object({
    chargeId: z.string(),
    product: z.string(),
    /** Quota units debited (quota plans), else 0. */
    units: z.number().int().nonnegative(),
    /** Micro-USD debited (ledger plans), else 0. */
    amountMicros: micros,
    periodStart: isoTime,
    at: isoTime,
    details: chargeDetailsSchema,
  }),
  Refunded: z.object({
    chargeId: z.string(),
    units: z.number().int().nonnegative(),
    amountMicros: micros,
    reason: z.string(),
    at: isoTime,
  }),
} as const;

type Schemas = typeof ledgerEventSchemas;
export type LedgerEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas];
export type LedgerEventType = LedgerEvent['type'];
