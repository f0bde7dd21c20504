/**
 * How a bulk load splits its memory budget (docs/operations.md#the-transfer-graph-ingestion-backfill-disk):
 * a share for the records a sorter holds before it spills a run, a share for the cache of recently seen
 * addresses (two generations), the rest for what the budget does not count record by record (the runs'
 * read buffers, V8's garbage between collections). Nothing else grows with the input: the address → id map
 * and the run files are on disk, the nodes' totals are summed one address at a time.
 */

export const DEFAULT_MEMORY_BYTES = 1024 * 1024 * 1024;

/** A pair sum held by a sorter: key, value, their Buffers and the map entry (the estimate the chunk was sized by). */
const BYTES_PER_RECORD = 350;
/** An address string (42 characters) in a Map with its id. */
const BYTES_PER_ADDRESS = 150;

export interface BudgetShares {
  /** Records a sorter holds before a spill. */
  readonly chunkEntries: number;
  /** Addresses per generation of the address cache. */
  readonly cachedAddresses: number;
}

export function budgetShares(memoryBytes: number): BudgetShares {
  return {
    chunkEntries: Math.max(16, Math.floor((memoryBytes * 0.35) / BYTES_PER_RECORD)),
    cachedAddresses: Math.max(16, Math.floor((memoryBytes * 0.05) / 2 / BYTES_PER_ADDRESS)),
  };
}
