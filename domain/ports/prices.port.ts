import type { Chain, Network } from '../shared/network.js';

/**
 * USD prices of assets at a time. The embedded default answers from a dated snapshot table shipped with
 * the service (infra/prices); a production adapter may ask a price API. Money is integer micro-USD.
 */

/** A coin or token on a chain: `token` is the contract (EVM lowercased, TRON base58), null for the native coin. */
export interface AssetRef {
  readonly network: Network | Chain;
  readonly token: string | null;
  /**
   * The symbol the imported token lists give this contract (a curated listing, never what a contract
   * says of itself): a price table may price a listed token by it. Absent or null: by contract only.
   */
  readonly listedSymbol?: string | null;
}

export interface PriceQuote {
  readonly symbol: string;
  /** Micro-USD for one whole unit of the asset (1 ETH, 1 USDT). */
  readonly usdMicrosPerUnit: number;
  /** Date (YYYY-MM-DD) of the price row used: a snapshot has a date, and a verdict names it. */
  readonly asOf: string;
  /** Where the price comes from, e.g. `snapshot-2026-11` or `operator-pin`. */
  readonly source: string;
}

export interface Prices {
  /** The price of one unit at `at`, or null when the asset is not priced (never a guess). */
  quote(asset: AssetRef, at: Date): Promise<PriceQuote | null>;
}

/** micro-USD of `amount` base units of an asset with `decimals` decimals, rounded down. */
export function valueInMicros(amount: bigint, decimals: number, quote: Pick<PriceQuote, 'usdMicrosPerUnit'>): number {
  if (amount <= 0n) return 0;
  const micros = (amount * BigInt(Math.round(quote.usdMicrosPerUnit))) / 10n ** BigInt(decimals);
  return Number(micros > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : micros);
}
