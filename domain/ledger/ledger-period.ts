import { present } from '../shared/present.js';
import { periodStartOf } from '../billing/period.js';
import type { Decider } from '../shared/decider.js';
import { fail } from '../shared/errors.js';
import { decideLedger, ledgerDecider, type LedgerCommand, type LedgerState } from './ledger.decider.js';
import type { LedgerEvent, LedgerSnapshot, Plan } from './ledger.events.js';

/**
 * Closing the books: a user's ledger is a chain of period streams, one per month with activity. A period
 * opens with the previous one's closing (balance, plan, cap, quota usage) and holds only its own month's
 * events, so a decider's state and a cold load are bounded by one period.
 *
 * Where "already charged" lives across a boundary: in the period that took the charge, never copied
 * forward. A charge id is looked up in the closed periods that could hold it (commands/ledger-chain.ts)
 * and the finding travels in the command (`earlier`). Carrying open charge ids forward instead would need
 * to know when a charge can no longer be retried, and it cannot: a result may be polled (and so charged
 * "again") months later. Closed periods never change, so a lookup there cannot go stale, and a period
 * only accepts commands of its own month or earlier (below): a charge decided at time t sits in a period
 * whose month is at least t's. Ids are uuid v7 (creation time in the id), so only the periods since the
 * id's creation, less a clock-skew margin, can hold it: a new charge looks nowhere else.
 */

/** How far the clocks of the instance that created an id and the one that charges it may disagree. */
export const CLOCK_SKEW_MARGIN_MS = 24 * 3_600_000;

/** A command that moves money or quota: it counts in the month of its `at`. */
type MonthlyCommand = Exclude<LedgerCommand, { type: 'ClosePeriod' | 'OpenPeriod' }>;

export const countsInMonth = (command: LedgerCommand): command is MonthlyCommand =>
  command.type !== 'ClosePeriod' && command.type !== 'OpenPeriod';

/** True when `command` belongs to a later month than the period `state`: the period must roll over first. */
export function needsRollover(state: LedgerState, command: LedgerCommand): boolean {
  return countsInMonth(command) && state.month !== null && Date.parse(periodStartOf(command.at)) > Date.parse(state.month);
}

/**
 * The ledger decider for a period of the chain: the same rules, and a command of a later month is refused
 * (`period_ended`) so that the caller rolls the period over. A racer that decided against a stale state
 * meets this, or `period_closed`, on its retry.
 */
export const ledgerPeriodDecider: Decider<LedgerCommand, LedgerEvent, LedgerState> = {
  ...ledgerDecider,
  decide(command, state) {
    if (!state.closed && needsRollover(state, command)) {
      throw fail('invalid_state', `this ledger period counts in ${state.month}; a new period must open`, { reason: 'period_ended' });
    }
    return decideLedger(command, state);
  },
};

/**
 * The creation time written in a uuid v7, or null for any other id (then every period may hold it).
 * Ids from the future (a bad clock) are treated as unknown too.
 */
export function originOf(id: string, now: number): number | null {
  const match = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.exec(id);
  if (!match) return null;
  const ms = Number.parseInt(
    present(match[1], 'the pattern matched, and the group is not optional') +
      present(match[2], 'the pattern matched, and the group is not optional'),
    16,
  );
  return ms > now + CLOCK_SKEW_MARGIN_MS ? null : ms;
}

/**
 * The oldest month a period may count in and still hold a charge (or deposit) with this id: periods of
 * earlier months need not be read. Null: no bound (look back to the root).
 */
export function oldestMonthHolding(id: string, now: number): number | null {
  const origin = originOf(id, now);
  return origin === null ? null : Date.parse(periodStartOf(new Date(origin - CLOCK_SKEW_MARGIN_MS)));
}

const planKey = (plan: Plan) => (plan.kind === 'quota' ? `quota:${plan.monthlyUnits}` : plan.kind);

/** Whether two period snapshots (a closing and the next opening) carry the same money, plan, cap and quota use. */
export function sameSnapshot(a: LedgerSnapshot, b: LedgerSnapshot): boolean {
  return (
    planKey(a.plan) === planKey(b.plan) &&
    a.balanceMicros === b.balanceMicros &&
    a.monthlyCapMicros === b.monthlyCapMicros &&
    a.periodStart === b.periodStart &&
    a.periodUnitsUsed === b.periodUnitsUsed &&
    a.periodSpentMicros === b.periodSpentMicros
  );
}
