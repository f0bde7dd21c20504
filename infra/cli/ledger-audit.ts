import { usageIn, type LedgerState } from '../../domain/ledger/ledger.decider.js';
import { parseLedgerStream } from '../../domain/ledger/ledger.events.js';
import { periodStartOf } from '../../domain/billing/period.js';
import { walkLedgerChain } from '../../commands/ledger-chain-walk.js';
import type { Services } from '../bootstrap.js';

/** What the audit reads: the ledger streams, the usage read model, the accounts. */
type LedgerAuditDeps = Pick<Services, 'commands' | 'projections' | 'repositories' | 'store'>;

export interface PeriodAudit {
  readonly stream: string;
  readonly events: number;
  readonly opening_balance_micros: number | null;
  readonly closing_balance_micros: number | null;
  /** Closed, and its successor not opened yet (it opens on the account's next command): not a break. */
  readonly successor_pending: string | null;
}

export interface AccountAudit {
  readonly user_id: string;
  readonly events: number;
  readonly periods: PeriodAudit[];
  readonly replayed: { balance_micros: number; charges: number; refunds: number; period_units_used: number; period_start: string | null };
  readonly read_model: {
    balance_micros: number | null;
    charges: number | null;
    refunds: number | null;
    usage_rows: number;
    period_units_used: number;
  };
  readonly mismatches: string[];
}

/** The ledger streams of each user (root and periods) in the log, optionally of one user only. */
async function ledgerStreamsByUser(services: LedgerAuditDeps, onlyUser?: string): Promise<Map<string, Set<string>>> {
  const users = new Map<string, Set<string>>();
  for await (const event of services.store.readAll()) {
    const userId = parseLedgerStream(event.streamId)?.userId;
    if (userId === undefined) continue;
    if (onlyUser && userId !== onlyUser) continue;
    const streams = users.get(userId) ?? new Set<string>();
    streams.add(event.streamId);
    users.set(userId, streams);
  }
  return users;
}

/**
 * The auditor's replay: walk every user's chain of ledger periods from its root, check that each period
 * opens with the previous one's closing, then compare balances, charge and refund counts and the current
 * period's quota use with the read models (balances and usage rows), which were folded by independent code.
 *
 * It waits only for the read models it compares with (never for processors or webhook retries, whose
 * lag may stay above zero for as long as a delayed redelivery waits): it always answers.
 */
export async function auditLedgers(
  services: LedgerAuditDeps,
  onlyUser?: string,
): Promise<{ accounts: AccountAudit[]; mismatches: number }> {
  await services.projections.whenCaughtUp();
  const now = services.commands.clock.now().toISOString();
  const accounts: AccountAudit[] = [];
  for (const [userId, streams] of await ledgerStreamsByUser(services, onlyUser)) {
    const mismatches: string[] = [];
    const periods: PeriodAudit[] = [];
    let state: LedgerState | null = null;
    let events = 0;
    let charges = 0;
    let refunds = 0;
    for await (const period of walkLedgerChain(services.store, userId)) {
      streams.delete(period.stream);
      mismatches.push(...period.breaks.map((b) => `chain break: ${b}`));
      events += period.events.length;
      charges += period.events.filter((e) => e.type === 'Charged').length;
      refunds += period.events.filter((e) => e.type === 'Refunded').length;
      state = period.state;
      periods.push({
        stream: period.stream,
        events: period.events.length,
        opening_balance_micros: period.state.opened?.opening.balanceMicros ?? null,
        closing_balance_micros: period.state.closed?.closing.balanceMicros ?? null,
        successor_pending: period.successorPending,
      });
    }
    for (const orphan of streams) mismatches.push(`chain break: ${orphan} is not reachable from ledger-${userId}`);
    if (!state) continue;
    const balance = await services.repositories.balances.get(userId);
    const rows = await services.repositories.usage.all(userId);
    const quotaPeriod = state.periodStart ?? periodStartOf(now);
    const rowUnits = rows.filter((r) => r.period_start === quotaPeriod).reduce((sum, r) => sum + r.units - r.refunded_units, 0);
    const replayedUnits = state.periodStart === null ? 0 : usageIn(state, state.periodStart).units;
    const check = (what: string, replayed: number, read: number | null) => {
      if (replayed !== read) mismatches.push(`${what}: ledger ${replayed}, read model ${read}`);
    };
    // A ledger with only a plan change has no balance document yet: that reads as zero.
    check('balance_micros', state.balanceMicros, balance?.balance_micros ?? 0);
    check('charges', charges, balance?.charges ?? 0);
    check('refunds', refunds, balance?.refunds ?? 0);
    check('usage_rows', charges, rows.length);
    check('period_units_used', replayedUnits, rowUnits);
    if (state.balanceMicros < 0) mismatches.push('balance below zero');
    accounts.push({
      user_id: userId,
      events,
      periods,
      replayed: {
        balance_micros: state.balanceMicros,
        charges,
        refunds,
        period_units_used: replayedUnits,
        period_start: state.periodStart,
      },
      read_model: {
        balance_micros: balance?.balance_micros ?? null,
        charges: balance?.charges ?? null,
        refunds: balance?.refunds ?? null,
        usage_rows: rows.length,
        period_units_used: rowUnits,
      },
      mismatches,
    });
  }
  return { accounts, mismatches: accounts.reduce((n, a) => n + a.mismatches.length, 0) };
}
