import type { Network } from '../shared/network.js';
import type { TransferDataKind, TransferIndex } from './chain-data.port.js';

/**
 * The transfer graph store: the aggregated edges of every transfer folded into it, on disk, read by the
 * one-hop tier and the exposure search through the TransferIndex it extends (docs/ARCHITECTURE.md#the-transfer-graph).
 *
 * - An edge is one (network, sender, recipient) pair: USD total, transfers, unpriced transfers, first and
 *   last time, a sample transaction (the earliest transfer's). Each address reads its counterparties per
 *   direction heaviest first, and at most `superNodeBound` of them: past that bound an address keeps its
 *   heaviest counterparties and one aggregated remainder per direction (its totals still count everything).
 * - Folding is idempotent by position: a transfer already folded (same network, same block and log or
 *   transaction index, or the same row of a data set without blocks) is skipped, so a batch handed over
 *   twice, or two sources of the same blocks (the block ingester and a backfill), count each transfer once.
 *   A batch of whole blocks (`positions: 'blocks'`) is counted once per (block, kind): the native transfers
 *   of a block are one unit, its token logs another, whichever source folds that unit first.
 * - Reorganisation-safe within a window: transfers of blocks above a batch's `finalThrough` are journaled
 *   until a later batch (or `finalize`) makes them final; `revert` undoes those of a block range exactly.
 */

export const BLOCK_POSITIONS = 2 ** 24;
const LOG_KIND = 2 ** 23;

/**
 * Where a transfer sits in its chain, one number (a safe integer below block 2^29): the block, then the
 * native value of the transaction at `index`, or the token log at log `index`.
 */
export function chainPosition(block: number, kind: 'tx' | 'log', index: number): number {
  if (!Number.isInteger(block) || block < 0 || block >= 2 ** 29) throw new RangeError(`block ${block} is out of range`);
  if (!Number.isInteger(index) || index < 0 || index >= LOG_KIND) throw new RangeError(`index ${index} is out of range`);
  return block * BLOCK_POSITIONS + (kind === 'log' ? LOG_KIND : 0) + index;
}

export const blockOfPosition = (position: number): number => Math.floor(position / BLOCK_POSITIONS);
/** 0: a transaction's native value, 1: a token log. */
export const kindOfPosition = (position: number): 0 | 1 => (position % BLOCK_POSITIONS >= LOG_KIND ? 1 : 0);

export interface GraphTransfer {
  readonly from: string;
  readonly to: string;
  /** Integer micro-USD at the transfer's time; null when the asset has no price (counted, not valued). */
  readonly usdMicros: number | null;
  /** Epoch milliseconds. */
  readonly at: number;
  /** The USD value rests on an assumed asset. */
  readonly estimated: boolean;
  readonly txHash: string | null;
  /** chainPosition(...) for chain data; the row number for a data set without blocks. */
  readonly position: number;
}

export interface TransferBatch {
  readonly network: Network;
  /** The data set the transfers are counted under in the coverage (e.g. `rpc:ETH`, `bigquery:token_transfers`). */
  readonly dataset: string;
  readonly caveat: string | null;
  /** What the data is, as verdicts name it (default: ingested_blocks for chain positions, sample for rows). */
  readonly kind?: TransferDataKind;
  /** The data's version, e.g. a sample file's content hash. */
  readonly version?: string | null;
  /**
   * 'chain': positions are chainPosition()s, shared by every source of the network's chain, each transfer
   * deduplicated on its own (an export whose files may cut a block); 'blocks': chainPosition()s too, and the
   * batch holds every transfer of each (block, kind) it has one of (an ingester's block range), so that it
   * is deduplicated per (block, kind) and keeps no key per transfer; 'rows': the data set's own row numbers
   * (transfer samples without blocks), distinct per data set.
   */
  readonly positions: 'chain' | 'blocks' | 'rows';
  /** Blocks at or below this are final; above it, transfers stay revertible. null: every transfer is final. */
  readonly finalThrough: number | null;
  readonly transfers: readonly GraphTransfer[];
}

export interface FoldOutcome {
  readonly folded: number;
  /** Transfers already folded (their position was), or from an address to itself. */
  readonly skipped: number;
}

export interface TransferGraphStore extends TransferIndex {
  /** Folds the batches together (one transaction where the store has them); resolves once durable. */
  fold(batches: readonly TransferBatch[]): Promise<FoldOutcome>;
  /** Undoes the revertible transfers of `network` from block `fromBlock` on; final ones stay (a deeper reorganisation). */
  revert(network: Network, fromBlock: number): Promise<{ readonly reverted: number }>;
  /** Makes the network's transfers through `block` final (their journal entries go). */
  finalize(network: Network, block: number): Promise<void>;
  /** The saved state of an ingester or an importer (JSON), or null. */
  readSource(name: string): Promise<unknown>;
  writeSource(name: string, state: unknown): Promise<void>;
  /** Transfers folded per network (duplicates and reverted ones not counted). */
  size(network: Network): Promise<number>;
  close(): Promise<void>;
}
