import { present } from '../shared/present.js';
import type { Network } from '../shared/network.js';

/**
 * The transfer index: who sent value to whom, aggregated per counterparty, for the one-hop tier and the
 * breadth-first exposure search. Adapters: the embedded index (the shipped transfer samples plus what
 * the block ingester read from a JSON-RPC), an Etherscan-compatible account-history API, the TRON HTTP API.
 *
 * Addresses are normalized (EVM lowercased, TRON base58 as is). USD values are integer micro-USD at the
 * time of each transfer; a transfer without a price counts in `transfers` but adds nothing to `usdMicros`.
 */

export type FlowDirection = 'in' | 'out';

export interface DirectionTotals {
  readonly transfers: number;
  readonly usdMicros: number;
  readonly counterparties: number;
  /** Transfers whose asset has no price: their USD value is unknown, not zero. */
  readonly unpricedTransfers: number;
  /** Some of the USD value rests on an assumed asset (a sample whose token is not stated). */
  readonly estimated: boolean;
}

export interface AddressActivity {
  readonly incoming: DirectionTotals;
  readonly outgoing: DirectionTotals;
  /** ISO 8601 time of the first and last transfer the index holds. */
  readonly firstAt: string;
  readonly lastAt: string;
}

/**
 * The counterparties of an address in one direction, one row per counterparty, most USD first (then most
 * transfers). Columnar accessors so that a large index hands its rows over without copying them.
 */
export interface FlowPage {
  /** Rows in this page: at most the limit asked for. */
  readonly size: number;
  /** Totals over every counterparty in this direction, not only the rows of the page. */
  readonly totals: DirectionTotals;
  /**
   * Counterparties the index holds one by one in this direction; fewer than `totals.counterparties` for a
   * super-node, whose others are one aggregated remainder (absent: the index holds every one).
   */
  readonly kept?: number;
  counterparty(row: number): string;
  usdMicros(row: number): number;
  transfers(row: number): number;
  estimated(row: number): boolean;
  /** One transaction hash of the flow, when the data has hashes (the ETH sample has none). */
  sampleTx(row: number): string | null;
}

/** What kind of transfer data a data set is: it says how far a verdict built on it can see. */
export type TransferDataKind = 'sample' | 'ingested_blocks' | 'account_history_api' | 'synthetic';

/** One data set of transfers the index reads, as verdicts name it. */
export interface TransferDataset {
  readonly name: string;
  readonly transfers: number;
  /** ISO times of the first and last transfer held (null for an API fetched on demand). */
  readonly from: string | null;
  readonly to: string | null;
  readonly caveat: string | null;
  readonly kind?: TransferDataKind | null;
  /** The data's version: a sample file's content hash, the block range ingested, an API's host. */
  readonly version?: string | null;
  /** Up to when the data is known: the last ingested block's time, a sample's last transfer; an API: now. */
  readonly asOf?: string | null;
  /** Ingested blocks: the last block indexed. */
  readonly upToBlock?: number | null;
  /** An account-history API: how much of an address's history it returns (the most recent N transfers). */
  readonly cap?: string | null;
}

export interface IndexCoverage {
  readonly network: Network;
  /** Where the index's transfers come from, one row per data set or ingested chain. */
  readonly datasets: readonly TransferDataset[];
}

export interface TransferIndex {
  /** What the index holds about the address, or null when it holds no transfer of it. */
  activity(address: string, network: Network): Promise<AddressActivity | null>;
  /** In memory, the embedded index answers at once (no promise): a graph search reads thousands of pages. */
  flows(address: string, network: Network, direction: FlowDirection, limit: number): FlowPage | Promise<FlowPage>;
  /**
   * The pages of several addresses in one read, in the order asked, each as flows() would give it. A remote
   * store offers it so that a search pays one round trip per batch of its frontier, not one per address.
   */
  flowsOfMany?(addresses: readonly string[], network: Network, direction: FlowDirection, limit: number): Promise<readonly FlowPage[]>;
  coverage(network: Network): Promise<IndexCoverage>;
}

export const EMPTY_TOTALS: DirectionTotals = { transfers: 0, usdMicros: 0, counterparties: 0, unpricedTransfers: 0, estimated: false };

/** A FlowPage over plain rows (remote adapters, tests). Rows must already be sorted, most USD first. */
export function flowPageOf(
  rows: readonly { counterparty: string; usdMicros: number; transfers: number; estimated?: boolean; sampleTx?: string | null }[],
  totals: DirectionTotals,
  limit: number,
  kept?: number,
): FlowPage {
  const page = rows.slice(0, Math.max(0, limit));
  return {
    size: page.length,
    totals,
    ...(kept === undefined ? {} : { kept }),
    counterparty: (i) => present(page[i], 'callers read rows below size, the page length').counterparty,
    usdMicros: (i) => present(page[i], 'callers read rows below size, the page length').usdMicros,
    transfers: (i) => present(page[i], 'callers read rows below size, the page length').transfers,
    estimated: (i) => present(page[i], 'callers read rows below size, the page length').estimated ?? false,
    sampleTx: (i) => present(page[i], 'callers read rows below size, the page length').sampleTx ?? null,
  };
}
