import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';

/**
 * Bulk exports in the public schema of BigQuery's `crypto_ethereum` tables (blockchain-etl), written by
 * tests with made-up addresses: CSV as BigQuery exports it (timestamps `YYYY-MM-DD hh:mm:ss UTC`) or
 * Parquet (timestamps, integers as INT64). Only the columns the importer reads, plus a few it ignores.
 */

export interface TokenTransferRow {
  readonly token: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly tx: string;
  readonly logIndex: number;
  readonly block: number;
  readonly at: string;
}

export interface TransactionRow {
  readonly hash: string;
  readonly index: number;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  /** 1 success, 0 failure, null before Byzantium. */
  readonly status: 0 | 1 | null;
  readonly block: number;
  readonly at: string;
}

const bqTime = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
const csv = (header: readonly string[], rows: readonly (readonly (string | number | null)[])[]) =>
  `${[header.join(','), ...rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join(','))].join('\n')}\n`;

const TOKEN_TRANSFER_COLUMNS = [
  'token_address',
  'from_address',
  'to_address',
  'value',
  'transaction_hash',
  'log_index',
  'block_timestamp',
  'block_number',
  'block_hash',
];
const TRANSACTION_COLUMNS = [
  'hash',
  'nonce',
  'transaction_index',
  'from_address',
  'to_address',
  'value',
  'gas',
  'receipt_status',
  'block_timestamp',
  'block_number',
  'block_hash',
];
const blockHash = (block: number) => `0x${block.toString(16).padStart(64, '0')}`;

export async function writeTokenTransfersCsv(path: string, rows: readonly TokenTransferRow[]): Promise<void> {
  await writeFile(
    path,
    csv(
      TOKEN_TRANSFER_COLUMNS,
      rows.map((r) => [r.token, r.from, r.to, r.value, r.tx, r.logIndex, bqTime(r.at), r.block, blockHash(r.block)]),
    ),
  );
}

export async function writeTransactionsCsv(path: string, rows: readonly TransactionRow[]): Promise<void> {
  await writeFile(
    path,
    csv(
      TRANSACTION_COLUMNS,
      rows.map((r, i) => [r.hash, i, r.index, r.from, r.to, r.value, 21000, r.status, bqTime(r.at), r.block, blockHash(r.block)]),
    ),
  );
}

export async function writeTokensCsv(
  path: string,
  tokens: readonly { address: string; symbol: string; decimals: number }[],
): Promise<void> {
  await writeFile(
    path,
    csv(
      ['address', 'symbol', 'name', 'decimals', 'total_supply'],
      tokens.map((t) => [t.address, t.symbol, t.symbol, t.decimals, '0']),
    ),
  );
}

export async function writeTokenTransfersParquet(path: string, rows: readonly TokenTransferRow[]): Promise<void> {
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: 'token_address', data: rows.map((r) => r.token), type: 'STRING' },
      { name: 'from_address', data: rows.map((r) => r.from), type: 'STRING' },
      { name: 'to_address', data: rows.map((r) => r.to), type: 'STRING' },
      { name: 'value', data: rows.map((r) => r.value), type: 'STRING' },
      { name: 'transaction_hash', data: rows.map((r) => r.tx), type: 'STRING' },
      { name: 'log_index', data: rows.map((r) => BigInt(r.logIndex)), type: 'INT64' },
      { name: 'block_timestamp', data: rows.map((r) => new Date(r.at)), type: 'TIMESTAMP' },
      { name: 'block_number', data: rows.map((r) => BigInt(r.block)), type: 'INT64' },
      { name: 'block_hash', data: rows.map((r) => blockHash(r.block)), type: 'STRING' },
    ],
  });
  await writeFile(path, Buffer.from(buffer));
}

export const exportPath = (dir: string, name: string) => join(dir, name);
