import { ledgerDecider, usageIn, type LedgerState } from '../../domain/ledger/ledger.decider.js';
import { periodStartOf } from '../../domain/billing/period.js';
import type { Services } from '../bootstrap.js';

export interface AccountAudit {
  readonly user_id: string;
  readonly events: number;
  readonly replayed: { balance_micros: number; charges: number; refunds: number; period_units_used: number; period_start: string | null };
  readonly read_model: { balance_micros: number | null; charges: number | null; refunds: number | null; usage_rows: number; period_units_used: number };
  readonly mismatches: string[];
}

/**
 * The auditor's replay: fold every ledger stream from genesis with the decider, then compare balances,
 * charge and refund counts and the current period's quota use with the read models (balances and
 * usage rows), which were folded by independent code.
 */
export async function auditLedgers(services: Services, onlyUser?: string): Promise<{ accounts: AccountAudit[]; mismatches: number }> {
  await services.whenCaughtUp();
  const streams = new Map<string, { state: LedgerState; events: number; refunds: number }>();
  for await (const event of services.store.readAll()) {
    if (!event.streamId.startsWith('ledger-')) continue;
    const userId = event.streamId.slice('ledger-'.length);
    if (onlyUser && userId !== onlyUser) continue;
    const entry = streams.get(userId) ?? { state: ledgerDecider.initialState(), events: 0, refunds: 0 };
    const parsed = ledgerDecider.parse({ type: event.type, data: event.data });
    if (parsed) entry.state = ledgerDecider.evolve(entry.state, parsed);
    if (event.type === 'Refunded') entry.refunds++;
    entry.events++;
    streams.set(userId, entry);
  }
  const now = services.commands.clock.now().toISOString();
  const accounts: AccountAudit[] = [];
  for (const [userId, { state, events, refunds }] of streams) {
    const balance = await services.repositories.balances.get(userId);
    const rows = await services.readStore.collection<{ user_id: string; units: number; refunded_units: number; period_start: string }>('usage_rows').find({ where: { user_id: userId } });
    const period = state.periodStart ?? periodStartOf(now);
    const rowUnits = rows.filter((r) => r.period_start === period).reduce((sum, r) => sum + r.units - r.refunded_units, 0);
    const replayedUnits = state.periodStart === null ? 0 : usageIn(state, state.periodStart).units;
    const mismatches: string[] = [];
    const check = (what: string, replayed: number, read: number | null) => {
      if (replayed !== read) mismatches.push(`${what}: ledger ${replayed}, read model ${read}`);
    };
    // A ledger with only a plan change has no balance document yet: that reads as zero.
    check('balance_micros', state.balanceMicros, balance?.balance_micros ?? 0);
    check('charges', state.charges.size, balance?.charges ?? 0);
    check('refunds', refunds, balance?.refunds ?? 0);
    check('usage_rows', state.charges.size, rows.length);
    check('period_units_used', replayedUnits, rowUnits);
    if (state.balanceMicros < 0) mismatches.push('balance below zero');
    accounts.push({
      user_id: userId,
      events,
      replayed: { balance_micros: state.balanceMicros, charges: state.charges.size, refunds, period_units_used: replayedUnits, period_start: state.periodStart },
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
