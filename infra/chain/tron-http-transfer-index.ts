import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { fail } from '../../domain/shared/errors.js';
import { accountHistoryIndex, type AccountHistory, type TransferInput } from './account-history-index.js';
import { tronHexToBase58 } from './tron-address.js';

/**
 * Address history from the TRON HTTP API (TronGrid v1): `/v1/accounts/{address}/transactions/trc20`
 * (TRC-20 transfers, token named with its decimals) and `/v1/accounts/{address}/transactions` (TRX
 * moved by a TransferContract, addresses in hex), confirmed only, newest first, following
 * `meta.links.next` for at most `maxPages` pages of 200. Failed transactions carry no value.
 */

interface Trc20Row {
  readonly transaction_id: string;
  readonly block_timestamp: number;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly type?: string;
  readonly token_info: { readonly address: string; readonly decimals: number; readonly symbol?: string };
}

interface TrxRow {
  readonly txID: string;
  readonly block_timestamp: number;
  readonly ret?: readonly { readonly contractRet?: string }[];
  readonly raw_data: {
    readonly contract: readonly {
      readonly type: string;
      readonly parameter: { readonly value: { readonly amount?: number; readonly owner_address?: string; readonly to_address?: string } };
    }[];
  };
}

interface Page<T> {
  readonly data?: readonly T[];
  readonly success?: boolean;
  readonly error?: string;
  readonly meta?: { readonly links?: { readonly next?: string } };
}

export interface TronHttpOptions {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly prices: Prices;
  readonly maxPages?: number;
  readonly timeoutMs?: number;
}

export function createTronHttpTransferIndex(options: TronHttpOptions): TransferIndex {
  const maxPages = options.maxPages ?? 5;
  const headers: Record<string, string> = options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : {};

  async function pages<T>(path: string): Promise<T[]> {
    const rows: T[] = [];
    let next: string | undefined = new URL(`${path}?limit=200&only_confirmed=true`, options.baseUrl).toString();
    for (let page = 0; next && page < maxPages; page++) {
      const response = await fetch(next, { headers, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
      const body = (await response.json().catch(() => null)) as Page<T> | null;
      if (!response.ok || !body || body.success === false || !Array.isArray(body.data)) {
        throw fail('backend_unavailable', `TRON HTTP API ${path} failed: ${response.status} ${body?.error ?? ''}`.trim());
      }
      rows.push(...body.data);
      next = body.meta?.links?.next;
    }
    return rows;
  }

  async function fetchHistory(address: string): Promise<AccountHistory> {
    const [tokens, native] = await Promise.all([
      pages<Trc20Row>(`/v1/accounts/${address}/transactions/trc20`),
      pages<TrxRow>(`/v1/accounts/${address}/transactions`),
    ]);
    const transfers: TransferInput[] = [];
    for (const row of tokens) {
      if ((row.type ?? 'Transfer') !== 'Transfer' || row.value === '0') continue;
      const at = row.block_timestamp;
      const quote = await options.prices.quote({ network: 'TRON', token: row.token_info.address }, new Date(at));
      const usdMicros = quote ? valueInMicros(BigInt(row.value), row.token_info.decimals, quote) : null;
      transfers.push({ from: row.from, to: row.to, usdMicros, at, txHash: row.transaction_id });
    }
    for (const row of native) {
      if (row.ret?.[0]?.contractRet !== 'SUCCESS') continue;
      const contract = row.raw_data.contract[0];
      const value = contract?.parameter.value;
      if (contract?.type !== 'TransferContract' || !value?.amount || !value.owner_address || !value.to_address) continue;
      const at = row.block_timestamp;
      const quote = await options.prices.quote({ network: 'TRON', token: null }, new Date(at));
      const usdMicros = quote ? valueInMicros(BigInt(value.amount), 6, quote) : null;
      transfers.push({
        from: tronHexToBase58(value.owner_address),
        to: tronHexToBase58(value.to_address),
        usdMicros,
        at,
        txHash: row.txID,
      });
    }
    return { transfers };
  }

  return accountHistoryIndex({
    name: 'TRON HTTP API',
    networks: ['TRON'],
    caveat: `the most recent ${maxPages * 200} TRC-20 and ${maxPages * 200} TRX transactions of each address, fetched on demand`,
    cap: `${maxPages * 200} most recent TRC-20 and ${maxPages * 200} TRX transactions per address`,
    version: new URL(options.baseUrl).host,
    fetchHistory: (address) => fetchHistory(address),
  });
}
