import { ledgerUserOf } from '../domain/ledger/ledger.events.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/**
 * Per-user money and quota totals, folded independently of the ledger decider so that the auditor's
 * `ledger replay` has a second opinion to compare with.
 */
export interface BalanceDoc extends Record<string, unknown> {
  user_id: string;
  deposited_micros: number;
  charged_micros: number;
  refunded_micros: number;
  balance_micros: number;
  charges: number;
  refunds: number;
}

const empty = (userId: string): BalanceDoc => ({
  user_id: userId,
  deposited_micros: 0,
  charged_micros: 0,
  refunded_micros: 0,
  balance_micros: 0,
  charges: 0,
  refunds: 0,
});

export const balancesProjection = defineProjection({
  name: 'balances',
  collection: 'balances',
  handles: ['FundsDeposited', 'Charged', 'Refunded'],
  idOf: (event) => ledgerUserOf(event.streamId),
  evolve: (current: BalanceDoc | null, event) => {
    const doc = current ?? empty(ledgerUserOf(event.streamId));
    const amount = event.data.amountMicros;
    switch (event.type) {
      case 'FundsDeposited':
        return { ...doc, deposited_micros: doc.deposited_micros + amount, balance_micros: doc.balance_micros + amount };
      case 'Charged':
        return {
          ...doc,
          charged_micros: doc.charged_micros + amount,
          balance_micros: doc.balance_micros - amount,
          charges: doc.charges + 1,
        };
      case 'Refunded':
        return {
          ...doc,
          refunded_micros: doc.refunded_micros + amount,
          balance_micros: doc.balance_micros + amount,
          refunds: doc.refunds + 1,
        };
    }
  },
});

export function balanceRepository(store: ReadStore) {
  const balances = store.collection<BalanceDoc>(balancesProjection.collection);
  return { get: async (userId: string) => (await balances.get(userId))?.doc ?? null };
}
