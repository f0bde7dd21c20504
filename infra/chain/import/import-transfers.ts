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
  const files = [];
  for (const path of input.paths) {
    const table = tableOf(await exportColumns(path));
    if (!table)
      throw fail(
        'bad_request',
        `${path}: not an export of token_transfers, transactions or tokens (columns: ${requiredColumns('token_transfers').join(', ')}; …)`,
      );
    files.push({ path: resolve(path), table });
  }
  const tokens = new TokenDecimals(input.network, input.prices);
  for (const file of files.filter((f) => f.table === 'tokens'))
    for await (const chunk of exportChunks(file.path, 0)) for (const row of chunk.rows) await tokens.add(row);
  const imported: ImportedFile[] = [];
  for (const file of files) {
    if (file.table === 'tokens') continue;
    imported.push(await importFile({ ...input, tokens }, file.path, file.table));
  }
  return imported;
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
  const dataset = `bigquery:${table}`;
  const caveat = `imported from a BigQuery crypto_ethereum export (${table}); native and token values at the price table's level of each day`;
  const context = { network: input.network, prices: input.prices, tokens: input.tokens };
  let transfers = 0;
  let skipped = 0;
  let rows = resumedAt;
  for await (const chunk of exportChunks(path, resumedAt)) {
    const read: GraphTransfer[] = [];
    for (const [i, row] of chunk.rows.entries()) {
      let transfer;
      try {
        transfer = await transferOfRow(table, row, context);
      } catch (error) {
        throw fail('bad_request', `${basename(path)}: row ${rows + i + 1}: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (transfer) read.push(transfer);
      else skipped += 1;
    }
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
