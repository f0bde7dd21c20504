import { periodStartOf } from '../billing/period.js';
import { parserFor, type Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import type { Micros } from '../shared/money.js';
import { ledgerEventSchemas, type ChargeDetails, type LedgerEvent, type Plan } from './ledger.events.js';

/**
 * The billing ledger. Its invariants hold by construction, whatever order commands arrive in:
 * - a charge id is charged at most once (a repeated Charge decides nothing);
 * - the balance never goes below zero and monthly spend never above the cap;
 * - quota usage never goes above the month's quota;
 * - a refund names a charge and never returns more than is left of it.
 */

export type LedgerCommand =
  | { type: 'ChangePlan'; plan: Plan; at: string }
  | { type: 'Deposit'; depositId: string; amountMicros: Micros; at: string }
  | { type: 'SetMonthlyCap'; capMicros: Micros | null; at: string }
  | {
      type: 'Charge';
      chargeId: string;
      product: string;
      units: number;
      priceMicros: Micros;
      at: string;
      details: ChargeDetails;
    }
  | { type: 'Refund'; chargeId: string; reason: string; at: string };

export interface ChargeRecord {
  readonly units: number;
  readonly amountMicros: Micros;
  readonly periodStart: string;
  refundedUnits: number;
  refundedMicros: Micros;
}

export interface LedgerState {
  plan: Plan;
  balanceMicros: Micros;
  monthlyCapMicros: Micros | null;
  periodStart: string | null;
  periodUnitsUsed: number;
  periodSpentMicros: Micros;
  deposits: Set<string>;
  charges: Map<string, ChargeRecord>;
}

export const initialLedgerState = (): LedgerState => ({
  plan: { kind: 'none' },
  balanceMicros: 0,
  monthlyCapMicros: null,
  periodStart: null,
  periodUnitsUsed: 0,
  periodSpentMicros: 0,
  deposits: new Set(),
  charges: new Map(),
});

/**
 * The period a command at `at` counts in: the calendar month of `at`, but never a month before the
 * ledger's current period. A command decided late (a retry after a conflict, another instance's clock, a
 * clock stepped back across midnight) must not reopen the previous month: that would reset the usage
 * and let the current month go above its quota or cap.
 */
export function periodFor(state: LedgerState, at: string): string {
  const period = periodStartOf(at);
  return state.periodStart !== null && Date.parse(period) < Date.parse(state.periodStart) ? state.periodStart : period;
}

/** Usage in the period of `at` (see periodFor): zero when the recorded period is an older month. */
export function usageIn(state: LedgerState, at: string): { units: number; spentMicros: Micros } {
  return state.periodStart === periodFor(state, at)
    ? { units: state.periodUnitsUsed, spentMicros: state.periodSpentMicros }
    : { units: 0, spentMicros: 0 };
}

function decideCharge(command: Extract<LedgerCommand, { type: 'Charge' }>, state: LedgerState): LedgerEvent[] {
  if (state.charges.has(command.chargeId)) return [];
  const periodStart = periodFor(state, command.at);
  const usage = usageIn(state, command.at);
  const events: LedgerEvent[] = [];
  if (state.periodStart !== periodStart) {
    const monthlyUnits = state.plan.kind === 'quota' ? state.plan.monthlyUnits : 0;
    events.push({ type: 'QuotaPeriodStarted', data: { periodStart, monthlyUnits } });
  }
  const plan = state.plan;
  let units = 0;
  let amountMicros = 0;
  if (plan.kind === 'none') {
    throw fail('quota_exceeded', 'no paid plan: choose a plan or fund the account', { reason: 'no_plan' });
  } else if (plan.kind === 'quota') {
    if (usage.units + command.units > plan.monthlyUnits) {
      throw fail('quota_exceeded', 'monthly quota exhausted', {
        monthly_quota: plan.monthlyUnits,
        units_used: usage.units,
        period_start: periodStart,
      });
    }
    units = command.units;
  } else {
    const cap = state.monthlyCapMicros;
    if (cap !== null && usage.spentMicros + command.priceMicros > cap) {
      throw fail('monthly_cap_exceeded', 'monthly spending cap reached', {
        balance_micros: state.balanceMicros,
        monthly_cap_micros: cap,
        monthly_spent_micros: usage.spentMicros,
      });
    }
    if (state.balanceMicros < command.priceMicros) {
      throw fail('insufficient_funds', 'balance too low for this call', {
        balance_micros: state.balanceMicros,
        price_micros: command.priceMicros,
        shortfall_micros: command.priceMicros - state.balanceMicros,
        monthly_spent_micros: usage.spentMicros,
        monthly_cap_micros: cap,
      });
    }
    amountMicros = command.priceMicros;
  }
  events.push({
    type: 'Charged',
    data: {
      chargeId: command.chargeId,
      product: command.product,
      units,
      amountMicros,
      periodStart,
      at: command.at,
      details: command.details,
    },
  });
  return events;
}

function decideRefund(command: Extract<LedgerCommand, { type: 'Refund' }>, state: LedgerState): LedgerEvent[] {
  const charge = state.charges.get(command.chargeId);
  if (!charge) throw fail('not_found', `no charge ${command.chargeId} to refund`);
  const units = charge.units - charge.refundedUnits;
  const amountMicros = charge.amountMicros - charge.refundedMicros;
  if (units === 0 && amountMicros === 0) return [];
  return [{ type: 'Refunded', data: { chargeId: command.chargeId, units, amountMicros, reason: command.reason, at: command.at } }];
}

export function decideLedger(command: LedgerCommand, state: LedgerState): LedgerEvent[] {
  switch (command.type) {
    case 'ChangePlan':
      return [{ type: 'PlanChanged', data: { plan: command.plan, at: command.at } }];
    case 'Deposit':
      if (!Number.isSafeInteger(command.amountMicros) || command.amountMicros <= 0) {
        throw fail('bad_request', 'a deposit must be a positive whole number of micro-USD');
      }
      if (state.deposits.has(command.depositId)) return [];
      return [{ type: 'FundsDeposited', data: { depositId: command.depositId, amountMicros: command.amountMicros, at: command.at } }];
    case 'SetMonthlyCap':
      return [{ type: 'MonthlyCapSet', data: { capMicros: command.capMicros, at: command.at } }];
    case 'Charge':
      return decideCharge(command, state);
    case 'Refund':
      return decideRefund(command, state);
  }
}

/**
 * Folds one event. It updates the state in place: a ledger remembers every charge id, and copying that
 * map per event would make replay quadratic. Callers never reuse a state they passed to evolve.
 */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'PlanChanged':
      // a plan change inside a month keeps the units already used in it
      state.plan = event.data.plan;
      break;
    case 'FundsDeposited':
      state.deposits.add(event.data.depositId);
      state.balanceMicros += event.data.amountMicros;
      break;
    case 'MonthlyCapSet':
      state.monthlyCapMicros = event.data.capMicros;
      break;
    case 'QuotaPeriodStarted':
      state.periodStart = event.data.periodStart;
      state.periodUnitsUsed = 0;
      state.periodSpentMicros = 0;
      break;
    case 'Charged': {
      const { chargeId, units, amountMicros, periodStart } = event.data;
      state.charges.set(chargeId, { units, amountMicros, periodStart, refundedUnits: 0, refundedMicros: 0 });
      state.balanceMicros -= amountMicros;
      if (state.periodStart === periodStart) {
        state.periodUnitsUsed += units;
        state.periodSpentMicros += amountMicros;
      }
      break;
    }
    case 'Refunded': {
      const charge = state.charges.get(event.data.chargeId);
      if (!charge) break;
      charge.refundedUnits += event.data.units;
      charge.refundedMicros += event.data.amountMicros;
      state.balanceMicros += event.data.amountMicros;
      if (state.periodStart === charge.periodStart) {
        state.periodUnitsUsed -= event.data.units;
        state.periodSpentMicros -= event.data.amountMicros;
      }
      break;
    }
  }
  return state;
}


export const ledgerDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  decide: decideLedger,
  evolve: evolveLedger,
  initialState: initialLedgerState,
  parse: parserFor<LedgerEvent>(ledgerEventSchemas),
};
