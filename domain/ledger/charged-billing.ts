import { z } from 'zod';
import type { Micros } from '../shared/money.js';
import { periodFor, usageIn, type LedgerState } from './ledger.decider.js';

/**
 * What a charged call cost and where it left the account, as a domain fact: computed from the ledger
 * state the call's own command produced (never from an eventually consistent read model), recorded by the
 * checks' and explore's delivery events and handed back on every later poll. Money in micro-USD, units as
 * counts; `replay` says this answer charged nothing (an earlier one did). The response's `billing` object
 * (USD, snake case) is read-api/presenters/billing.presenter.ts's.
 */
const micros = z.number().int();

export const ledgerChargeSchema = z.object({
  model: z.literal('ledger'),
  chargedMicros: micros.nonnegative(),
  balanceMicros: micros,
  monthlySpentMicros: micros.nonnegative(),
  monthlyCapMicros: micros.nullable(),
  replay: z.boolean(),
});

export const quotaChargeSchema = z.object({
  model: z.literal('quota'),
  chargedUnits: z.number().int().nonnegative(),
  unitsUsed: z.number().int().nonnegative(),
  monthlyQuota: z.number().int().nonnegative(),
  /** The first day of the plan period the units count in (YYYY-MM-DD…). */
  periodStart: z.string(),
  replay: z.boolean(),
});

export const chargedBillingSchema = z.discriminatedUnion('model', [ledgerChargeSchema, quotaChargeSchema]);
export type ChargedBilling = z.infer<typeof chargedBillingSchema>;

/** The same charge, answered again: nothing was charged by this answer. */
export const asReplay = (billing: ChargedBilling): ChargedBilling => ({ ...billing, replay: true });

/** The charge `charge` left on `state` at `at` (units and micro-USD; zero for a read of the balance). */
export function chargedBilling(
  state: LedgerState,
  charge: { units: number; amountMicros: Micros },
  at: string,
  replay = false,
): ChargedBilling {
  const usage = usageIn(state, at);
  if (state.plan.kind === 'quota') {
    return {
      model: 'quota',
      chargedUnits: charge.units,
      unitsUsed: usage.units,
      monthlyQuota: state.plan.monthlyUnits,
      periodStart: periodFor(state, at),
      replay,
    };
  }
  return {
    model: 'ledger',
    chargedMicros: charge.amountMicros,
    balanceMicros: state.balanceMicros,
    monthlySpentMicros: usage.spentMicros,
    monthlyCapMicros: state.monthlyCapMicros,
    replay,
  };
}
