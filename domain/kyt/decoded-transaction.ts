import type { Chain } from '../shared/network.js';

/**
 * A transaction as the KYT check sees it: who moved what to whom. A leg is one movement of value —
 * the transaction's native value, or one ERC-20 / TRC-20 `Transfer` log — so one transaction can have
 * many legs and many senders (a contract pulling funds from several holders).
 */
export interface TransferLeg {
  readonly kind: 'native' | 'token';
  /** Token contract (EVM lowercased, TRON base58); null for the chain's native coin. */
  readonly token: string | null;
  readonly symbol: string | null;
  /** Null when the token's decimals are not known: the amount stays in base units and is not valued. */
  readonly decimals: number | null;
  readonly from: string;
  readonly to: string;
  /** Base units as a decimal string (exact; amounts exceed 2^53). */
  readonly amount: string;
  /** Position of the `Transfer` log in the receipt; null for the native leg. */
  readonly logIndex: number | null;
}

export interface DecodedTransaction {
  readonly chain: Chain;
  /** Canonical: `0x` + 64 lowercase hex digits. */
  readonly txHash: string;
  readonly blockNumber: number;
  /** ISO 8601 UTC time of the block. */
  readonly blockTime: string;
  /** False when the transaction reverted: it moved nothing, so it has no legs. */
  readonly success: boolean;
  /** The account that signed the transaction. */
  readonly signer: string;
  /** The called account or contract; null for a contract creation. */
  readonly to: string | null;
  readonly legs: readonly TransferLeg[];
}

/** The native coin of each transfer chain: its symbol and decimals. */
export const NATIVE_COIN: Readonly<Record<Chain, { symbol: string; decimals: number }>> = {
  ETH: { symbol: 'ETH', decimals: 18 },
  BSC: { symbol: 'BNB', decimals: 18 },
  POLYGON: { symbol: 'POL', decimals: 18 },
  BASE: { symbol: 'ETH', decimals: 18 },
  ARBITRUM: { symbol: 'ETH', decimals: 18 },
  TRON: { symbol: 'TRX', decimals: 6 },
};
