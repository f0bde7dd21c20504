import { resolve } from 'node:path';
import type { Prices } from '../../../domain/ports/prices.port.js';
import type { TransferBatch } from '../../../domain/ports/transfer-graph.port.js';
import { fail } from '../../../domain/shared/errors.js';
import type { Network } from '../../../domain/shared/network.js';
import type { BulkLoader, BulkLoadResult, BulkProgress } from '../graph/bulk/bulk-load.js';
import { exportChunks } from './export-files.js';
import { exportDataset, readExportFiles, transfersOfRows } from './import-transfers.js';

/**
 * `data import-transfers --bulk`: the export files straight into the graph store by its bulk load
 * (infra/chain/graph/bulk for LMDB, infra/postgres/pg-graph-bulk.ts for PostgreSQL), not through the bus: for a network's history into a network that holds
 * nothing yet (docs/operations.md#the-transfer-graph-ingestion-backfill-disk). Every row of the files counts once per time it is read, so
 * the files must not overlap (a file given twice is refused); the blocks they cover are the bulk load's,
 * and the live pipeline skips them after.
 */

export interface BulkImportOutcome extends BulkLoadResult {
  readonly files: readonly { file: string; table: string; rows: number; skipped: number }[];
}

export async function bulkImportTransfers(input: {
  paths: readonly string[];
  network: Network;
  graph: BulkLoader;
  prices: Prices;
  /** Where the LMDB load's run files go (they take about as much as the graph itself while the load runs). */
  workDir: string;
  /** The load's memory budget in bytes (default memory-budget.ts's). */
  memoryBytes?: number | undefined;
  onProgress?: (progress: BulkProgress & { file: string | null }) => void;
}): Promise<BulkImportOutcome> {
  const resolved = input.paths.map((path) => resolve(path));
  const twice = resolved.find((path, i) => resolved.indexOf(path) !== i);
  if (twice) throw fail('bad_request', `${twice}: given twice (a bulk load counts every row it reads)`);
  const { files, tokens } = await readExportFiles(input.paths, input.network, input.prices);
  const outcomes = files.map((f) => ({ file: f.path, table: f.table, rows: 0, skipped: 0 }));
  let current: string | null = null;
  async function* batches(): AsyncGenerator<TransferBatch> {
    const context = { network: input.network, prices: input.prices, tokens };
    for (const [k, file] of files.entries()) {
      const outcome = outcomes[k] as (typeof outcomes)[number];
      current = file.path;
      for await (const chunk of exportChunks(file.path, 0)) {
        const read = await transfersOfRows(chunk.rows, { ...file, firstRow: outcome.rows }, context);
        outcome.rows = chunk.through;
        outcome.skipped += read.skipped;
        yield { network: input.network, ...exportDataset(file.table), positions: 'chain', finalThrough: null, transfers: read.transfers };
      }
    }
    current = null;
  }
  const result = await input.graph.bulkLoad({
    network: input.network,
    batches: batches(),
    workDir: input.workDir,
    ...(input.memoryBytes === undefined ? {} : { memoryBytes: input.memoryBytes }),
    onProgress: (progress) => input.onProgress?.({ ...progress, file: current }),
  });
  return { ...result, files: outcomes };
}
