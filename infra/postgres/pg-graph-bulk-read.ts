import type { PoolClient } from 'pg';
import { blockOfPosition, kindOfPosition, type TransferBatch } from '../../domain/ports/transfer-graph.port.js';
import { normalizeAddress } from '../../domain/shared/address.js';
import type { Network } from '../../domain/shared/network.js';
import type { BlockRange } from '../chain/graph/bulk/bulk-claim.js';
import { checkBatch, widen } from '../chain/graph/bulk/bulk-read.js';
import { datasetId } from './pg-graph-fold.js';

/**
 * The read stage of a bulk load into PostgreSQL (pg-graph-bulk.ts): every transfer of the input but those from
 * an address to itself (the fold counts none either) goes into an UNLOGGED staging table (no WAL: a load
 * killed half way is started over anyway), in statements of ROWS_PER_INSERT rows passed as arrays (unnest).
 * The data sets' rows are made as the fold makes them; their coverage and the blocks per kind are summed here.
 */

const ROWS_PER_INSERT = 20_000;

export interface DatasetCoverage {
  transfers: number;
  from: number;
  to: number;
  upToBlock: number;
  /** As the fold sets them: the last batch's kind and version that had one. */
  kind: string | null;
  version: string | null;
}

export interface StagedSummary {
  transfers: number;
  skipped: number;
  blocks: [BlockRange | null, BlockRange | null];
  coverage: Map<number, DatasetCoverage>;
}

/** The staging table's columns: what the fold reads of a transfer, its time in seconds as the fold keeps it. */
export const stagingTableSql = (table: string): string =>
  `CREATE UNLOGGED TABLE ${table} (sender text COLLATE "C" NOT NULL, recipient text COLLATE "C" NOT NULL, usd bigint,
     at bigint NOT NULL, estimated boolean NOT NULL, position bigint NOT NULL, tx text)`;

class Columns {
  sender: string[] = [];
  recipient: string[] = [];
  usd: (number | null)[] = [];
  at: number[] = [];
  estimated: boolean[] = [];
  position: number[] = [];
  tx: (string | null)[] = [];
}

async function insertRows(client: PoolClient, table: string, rows: Columns): Promise<void> {
  if (rows.sender.length === 0) return;
  await client.query(
    `INSERT INTO ${table} SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::boolean[], $6::bigint[], $7::text[])`,
    [rows.sender, rows.recipient, rows.usd, rows.at, rows.estimated, rows.position, rows.tx],
  );
}

function cover(summary: StagedSummary, dataset: number, batch: TransferBatch, at: number, block: number): DatasetCoverage {
  let entry = summary.coverage.get(dataset);
  if (!entry) summary.coverage.set(dataset, (entry = { transfers: 0, from: at, to: at, upToBlock: block, kind: null, version: null }));
  entry.transfers += 1;
  entry.from = Math.min(entry.from, at);
  entry.to = Math.max(entry.to, at);
  entry.upToBlock = Math.max(entry.upToBlock, block);
  entry.kind = batch.kind ?? entry.kind;
  entry.version = batch.version ?? entry.version;
  return entry;
}

export async function stageTransfers(
  client: PoolClient,
  s: string,
  table: string,
  input: { network: Network; batches: AsyncIterable<TransferBatch> | Iterable<TransferBatch> },
  onRead: (transfers: number) => void,
): Promise<StagedSummary> {
  const summary: StagedSummary = { transfers: 0, skipped: 0, blocks: [null, null], coverage: new Map() };
  const q = async <R>(sql: string, params?: readonly unknown[]) => (await client.query(sql, params as unknown[])).rows as R[];
  let rows = new Columns();
  // One lookup per data set, not per batch: an import's batches name a handful of data sets.
  const datasets = new Map<string, number>();
  for await (const batch of input.batches) {
    checkBatch(batch, input.network);
    const dataset = datasets.get(batch.dataset) ?? (await datasetId(q, s, batch));
    datasets.set(batch.dataset, dataset);
    for (const t of batch.transfers) {
      const sender = normalizeAddress(t.from);
      const recipient = normalizeAddress(t.to);
      if (sender === recipient) {
        summary.skipped += 1;
        continue;
      }
      const at = Math.floor(t.at / 1000);
      const block = blockOfPosition(t.position);
      const kind = kindOfPosition(t.position);
      summary.blocks[kind] = widen(summary.blocks[kind], block);
      cover(summary, dataset, batch, at, block);
      rows.sender.push(sender);
      rows.recipient.push(recipient);
      rows.usd.push(t.usdMicros);
      rows.at.push(at);
      rows.estimated.push(t.estimated);
      rows.position.push(t.position);
      rows.tx.push(t.txHash);
    }
    summary.transfers += batch.transfers.length;
    if (rows.sender.length >= ROWS_PER_INSERT) {
      await insertRows(client, table, rows);
      rows = new Columns();
    }
    onRead(summary.transfers);
  }
  await insertRows(client, table, rows);
  return summary;
}
