import type { EventDataOf } from '../domain/events/registry.js';
import { microsToUsd } from '../domain/shared/money.js';

/**
 * What a charge's History row keeps for the usage figures (GET /v2/me/usage, the dashboard's usage page and
 * export, `ledger audit`): the row is the one read-model document per charge, and the usage row is derived
 * from it (projections/usage-rows.ts) instead of being a second document that repeats its user, network,
 * subject and time under a second index key (docs/benchmarks.md, "Bytes per paid screen").
 * The refund fields are written by the first refund: a row without them was never refunded.
 */
export interface ChargeUsage {
  key_id?: string | null;
  endpoint?: string;
  units?: number;
  charged_usd?: number;
  period_start?: string;
  refunded_units?: number;
  refunded_usd?: number;
  refund_reason?: string | null;
}

/** The usage fields a charge states. */
export function chargeUsageOf(charged: EventDataOf<'Charged'>): ChargeUsage {
  return {
    key_id: charged.details.keyId,
    endpoint: charged.details.endpoint,
    units: charged.units,
    charged_usd: microsToUsd(charged.amountMicros),
    period_start: charged.periodStart,
  };
}

/** Refunds add up on the row, exactly in micros; the last reason is kept. */
export function withRefund<D extends ChargeUsage>(row: D, refunded: EventDataOf<'Refunded'>): D {
  return {
    ...row,
    refunded_units: (row.refunded_units ?? 0) + refunded.units,
    refunded_usd: microsToUsd(Math.round((row.refunded_usd ?? 0) * 1e6) + refunded.amountMicros),
    refund_reason: refunded.reason,
  };
}
