import type { AssetRef, Prices } from '../../../domain/ports/prices.port.js';
import { valueInMicros } from '../../../domain/ports/prices.port.js';
import { chainPosition, type GraphTransfer } from '../../../domain/ports/transfer-graph.port.js';
import type { Network } from '../../../domain/shared/network.js';

/**
 * Rows of the public BigQuery `crypto_ethereum` tables (the schema of blockchain-etl), as graph transfers:
 * - `token_transfers`: token_address, from_address, to_address, value (a decimal string: uint256),
 *   transaction_hash, log_index, block_timestamp, block_number: a token transfer at its log;
 * - `transactions`: hash, transaction_index, from_address, to_address, value (wei), receipt_status,
 *   block_timestamp, block_number: the native value of a transaction with a recipient, unless it failed
 *   (receipt_status 0; blocks before Byzantium have no status and count);
 * - `tokens`: address, decimals: what a token amount is worth in whole units, for the tokens with a price.
 * Mints and burns (the zero address) and zero amounts are not transfers between holders and are left out.
 */

export type BigQueryTable = 'token_transfers' | 'transactions' | 'tokens';

const REQUIRED: Readonly<Record<BigQueryTable, readonly string[]>> = {
  token_transfers: [
    'token_address',
    'from_address',
    'to_address',
    'value',
    'transaction_hash',
    'log_index',
    'block_timestamp',
    'block_number',
  ],
  transactions: ['hash', 'transaction_index', 'from_address', 'to_address', 'value', 'receipt_status', 'block_timestamp', 'block_number'],
  tokens: ['address', 'decimals'],
};

/** The table a header belongs to, or null. */
export function tableOf(columns: readonly string[]): BigQueryTable | null {
  const has = new Set(columns);
  if (REQUIRED.token_transfers.every((c) => has.has(c))) return 'token_transfers';
  if (REQUIRED.transactions.every((c) => has.has(c))) return 'transactions';
  if (REQUIRED.tokens.every((c) => has.has(c))) return 'tokens';
  return null;
}

export const requiredColumns = (table: BigQueryTable): readonly string[] => REQUIRED[table];

const ZERO = '0x0000000000000000000000000000000000000000';

/** BigQuery writes timestamps as `2024-01-01 00:00:00 UTC` in CSV; Parquet readers give a Date (or epoch micros). */
function epochMs(value: unknown): number {
  if (typeof value === 'bigint') return Number(value > 10n ** 14n ? value / 1000n : value);
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  const text = String(value).trim().replace(' UTC', 'Z').replace(' ', 'T');
  return Date.parse(text.endsWith('Z') || /[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).trim());

function amountOf(value: unknown): bigint | null {
  const raw = text(value);
  if (!/^\d+(\.0+)?$/.test(raw)) return null;
  return BigInt(raw.split('.')[0] ?? '0');
}

/** Decimals of the priced tokens only (the others stay unpriced whatever their decimals): a bounded map. */
export class TokenDecimals {
  private readonly decimals = new Map<string, number>();

  constructor(
    private readonly network: Network,
    private readonly prices: Prices,
  ) {}

  async add(row: Readonly<Record<string, unknown>>): Promise<void> {
    const token = text(row.address).toLowerCase();
    const decimals = Number(text(row.decimals));
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 36) return;
    if (await this.prices.quote({ network: this.network, token }, new Date())) this.decimals.set(token, decimals);
  }

  of(token: string): number | null {
    return this.decimals.get(token) ?? null;
  }
}

export interface RowContext {
  readonly network: Network;
  readonly prices: Prices;
  readonly tokens: TokenDecimals;
}

async function valued(context: RowContext, asset: AssetRef, amount: bigint, decimals: number | null, at: number): Promise<number | null> {
  if (decimals === null) return null;
  const quote = await context.prices.quote(asset, new Date(at));
  return quote ? valueInMicros(amount, decimals, quote) : null;
}

/** The transfer a row stands for, or null when it is not one (failed, mint, burn, zero); throws on a malformed row. */
export async function transferOfRow(
  table: Exclude<BigQueryTable, 'tokens'>,
  row: Readonly<Record<string, unknown>>,
  context: RowContext,
): Promise<GraphTransfer | null> {
  const from = text(row.from_address).toLowerCase();
  const to = text(row.to_address).toLowerCase();
  const amount = amountOf(row.value);
  const block = Number(text(row.block_number));
  const at = epochMs(row.block_timestamp);
  if (!Number.isInteger(block) || Number.isNaN(at) || amount === null) throw new Error('a row without a block, a time or an amount');
  if (!from || !to || from === ZERO || to === ZERO || amount === 0n) return null;
  if (table === 'transactions') {
    if (text(row.receipt_status) === '0') return null;
    const position = chainPosition(block, 'tx', Number(text(row.transaction_index)));
    const usdMicros = await valued(context, { network: context.network, token: null }, amount, 18, at);
    return { from, to, usdMicros, at, estimated: false, txHash: text(row.hash) || null, position };
  }
  const token = text(row.token_address).toLowerCase();
  const position = chainPosition(block, 'log', Number(text(row.log_index)));
  const usdMicros = await valued(context, { network: context.network, token }, amount, context.tokens.of(token), at);
  return { from, to, usdMicros, at, estimated: false, txHash: text(row.transaction_hash) || null, position };
}
