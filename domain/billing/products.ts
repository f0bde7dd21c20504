import type { Micros } from '../shared/money.js';

/** What each paid call costs: the spec's prices, the same on both channels. */
export const PRODUCTS = {
  screen: { priceMicros: 100_000, units: 1, endpoint: 'POST /v2/screen' },
  check_address: { priceMicros: 1_000_000, units: 1, endpoint: 'GET /v2/check-address/{check_id}/result' },
  check_transfer: { priceMicros: 500_000, units: 1, endpoint: 'POST /v2/check-transfer' },
  /** Per provider run (the own engine included); the spec gives no inspect price, see docs/api.md, "Billing". */
  inspect: { priceMicros: 100_000, units: 1, endpoint: 'POST /v2/inspect-address' },
  /** A V2 explore job (graph exposure report): the spec prices none; the full check's price, see docs/api.md, "Explore jobs". */
  explore: { priceMicros: 1_000_000, units: 1, endpoint: 'GET /v2/explore/{job_id}/result' },
  /** One monitored address for one calendar month (at creation, then at each period start): a light screen's price, see docs/api.md, "Monitors". */
  monitor: { priceMicros: 100_000, units: 1, endpoint: 'POST /v2/monitors' },
} as const satisfies Record<string, { priceMicros: Micros; units: number; endpoint: string }>;

export type Product = keyof typeof PRODUCTS;

/** Quota units a V2 plan gets each month unless agreed otherwise. */
export const DEFAULT_MONTHLY_QUOTA = 15;
