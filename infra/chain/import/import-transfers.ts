import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { MessageBus } from '../../../domain/ports/message-bus.port.js';
import type { Prices } from '../../../domain/ports/prices.port.js';
import type { GraphTransfer, TransferGraphStore } from '../../../domain/ports/transfer-graph.port.js';
import { fail } from '../../../domain/shared/errors.js';
import type { Network } from '../../../domain/shared/network.js';
import { TRANSFERS_TOPIC, transfersReadMessages } from '../../../processors/graph/transfer-messages.js';
import { requiredColumns, TokenDecimals, tableOf, transferOfRow, type BigQueryTable } from './bigquery-rows.js';
import { exportChunks, exportColumns } from './export-files.js';

/**
 * `data import-transfers`: bulk exports of the BigQuery `crypto_ethereum` tables (CSV or Parquet) into the
 * graph pipeline, so that years of history are not replayed over RPC. Each file's transfers are published
 * to chain.transfers (keyed by network and file, so an import folds beside the live chain) in chunks; after
 * each chunk the file's position (rows read, for this size and time of the file) is saved in the graph
 * store, and a later run resumes there. Positions are chain positions, so rows the block ingester also
 * read, or a file imported twice, count once. `tokens` files are read first: the decimals of priced tokens.
 */

export interface ImportProgress {
  readonly file: string;
  readonly table: BigQueryTable;
  readonly rows: number;
  readonly transfers: number;
}

export interface ImportedFile extends ImportProgress {
  readonly resumedAt: number;
  readonly skipped: number;
}

interface SavedPosition {
  readonly version: string;
  readonly rows: number;
}

export async function importTransfers(input: {
  paths: readonly string[];
  network: Network;
  graph: TransferGraphStore;
  bus: MessageBus;
  prices: Prices;
  onProgress?: (progress: ImportProgress) => void;
}): Promise<ImportedFile[]> {
  const { files, tokens } = await readExportFiles(input.paths, input.network, input.prices);
  const imported: ImportedFile[] = [];
  for (const file of files) imported.push(await importFile({ ...input, tokens }, file.path, file.table));
  return imported;
}

/** The export files' tables (refusing a file of another table), and the decimals from the `tokens` files among them. */
export async function readExportFiles(
  paths: readonly string[],
  network: Network,
  prices: Prices,
): Promise<{ files: { path: string; table: Exclude<BigQueryTable, 'tokens'> }[]; tokens: TokenDecimals }> {
  const files = [];
  for (const path of paths) {
    const table = tableOf(await exportColumns(path));
    if (!table)
      throw fail(
        'bad_request',
        `${path}: not an export of token_transfers, transactions or tokens (columns: ${requiredColumns('token_transfers').join(', ')}; …)`,
      );
    files.push({ path: resolve(path), table });
  }
  const tokens = new TokenDecimals(network, prices);
  for (const file of files.filter((f) => f.table === 'tokens'))
    for await (const chunk of exportChunks(file.path, 0)) for (const row of chunk.rows) await tokens.add(row);
  const transfers = files.filter((f): f is { path: string; table: Exclude<BigQueryTable, 'tokens'> } => f.table !== 'tokens');
  return { files: transfers, tokens };
}

export const exportDataset = (table: Exclude<BigQueryTable, 'tokens'>) => ({
  dataset: `bigquery:${table}`,
  caveat: `imported from a BigQuery crypto_ethereum export (${table}); native and token values at the price table's level of each day`,
});

/** The transfers of one chunk of an export file's rows (rows without a transfer are counted in `skipped`). */
export async function transfersOfRows(
  rows: readonly Readonly<Record<string, unknown>>[],
  at: { path: string; table: Exclude<BigQueryTable, 'tokens'>; firstRow: number },
  context: Parameters<typeof transferOfRow>[2],
): Promise<{ transfers: GraphTransfer[]; skipped: number }> {
  const transfers: GraphTransfer[] = [];
  let skipped = 0;
  for (const [i, row] of rows.entries()) {
    let transfer;
    try {
      transfer = await transferOfRow(at.table, row, context);
    } catch (error) {
      throw fail(
        'bad_request',
        `${basename(at.path)}: row ${at.firstRow + i + 1}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (transfer) transfers.push(transfer);
    else skipped += 1;
  }
  return { transfers, skipped };
}

async function importFile(
  input: Parameters<typeof importTransfers>[0] & { tokens: TokenDecimals },
  path: string,
  table: Exclude<BigQueryTable, 'tokens'>,
): Promise<ImportedFile> {
  const { size, mtimeMs } = await stat(path);
  const version = `${size}:${mtimeMs}`;
  const source = `import:${input.network}:${path}`;
  const saved = (await input.graph.readSource(source)) as SavedPosition | null;
  const resumedAt = saved?.version === version ? saved.rows : 0;
  const { dataset, caveat } = exportDataset(table);
  const context = { network: input.network, prices: input.prices, tokens: input.tokens };
  let transfers = 0;
  let skipped = 0;
  let rows = resumedAt;
  for await (const chunk of exportChunks(path, resumedAt)) {
    const { transfers: read, skipped: none } = await transfersOfRows(chunk.rows, { path, table, firstRow: rows }, context);
    skipped += none;
    const batch = { network: input.network, dataset, caveat, positions: 'chain', finalThrough: null, transfers: read } as const;
    if (read.length > 0)
      await input.bus.publish(TRANSFERS_TOPIC, transfersReadMessages(batch, `${input.network}:import:${basename(path)}`));
    rows = chunk.through;
    transfers += read.length;
    await input.graph.writeSource(source, { version, rows } satisfies SavedPosition);
    input.onProgress?.({ file: path, table, rows, transfers });
  }
  return { file: path, table, rows, transfers, resumedAt, skipped };
}
