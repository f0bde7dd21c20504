import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { microsToUsd } from '../domain/shared/money.js';

/** Settled x402 revenue per UTC day, product and network. */
export interface X402RevenueDoc extends Record<string, unknown> {
  day: string;
  product: string;
  network: string;
  asset: string;
  settled_count: number;
  /** Base units of the asset, as a decimal string (exact). */
  settled_amount: string;
  settled_usd: number;
}

export const x402RevenueProjection = defineProjection({
  name: 'x402-revenue',
  collection: 'x402_revenue',
  indexes: ['day'],
  handles: ['PaymentSettled'],
  idOf: ({ data: d }) => `${d.at.slice(0, 10)}|${d.product}|${d.network}`,
  evolve: (doc: X402RevenueDoc | null, event) => {
    const d = event.data;
    const amount = BigInt(doc?.settled_amount ?? '0') + BigInt(d.amount);
    return {
      day: d.at.slice(0, 10),
      product: d.product,
      network: d.network,
      asset: d.asset,
      settled_count: (doc?.settled_count ?? 0) + 1,
      settled_amount: amount.toString(),
      settled_usd: microsToUsd(Number(amount)),
    };
  },
});

export interface X402RevenueRepository {
  /** Newest day first. */
  days(limit: number): Promise<readonly X402RevenueDoc[]>;
}

export function x402RevenueRepository(store: ReadStore): X402RevenueRepository {
  const rows = store.collection<X402RevenueDoc>(x402RevenueProjection.collection, x402RevenueProjection.indexes);
  return { days: (limit) => rows.find({ orderBy: { field: 'day', direction: 'desc' }, limit }) };
}
