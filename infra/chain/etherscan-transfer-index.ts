import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { Prices } from '../../domain/ports/prices.port.js';
import { valueInMicros } from '../../domain/ports/prices.port.js';
import { fail } from '../../domain/shared/errors.js';
import type { Network } from '../../domain/shared/network.js';
import { accountHistoryIndex, type AccountHistory, type TransferInput } from './account-history-index.js';

/**
 * Address history from an Etherscan-compatible API (Etherscan API V2: one endpoint, `chainid` selects
 * the chain): `module=account&action=txlist` (native value) and `action=tokentx` (ERC-20 transfers), the
 * most recent `pageSize` of each, newest first. Failed transactions (`isError=1`) carry no value. An
 * answer with `status: "0"` is "no transactions" when its result is an empty list, an error otherwise
 * (rate limit, bad key), retried once after a pause and then raised (the tier records a failed attempt).
 */

const CHAIN_IDS: Readonly<Record<'ETH' | 'BSC', number>> = { ETH: 1, BSC: 56 };

interface EtherscanRow {
  readonly hash: string;
  readonly timeStamp: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly isError?: string;
  readonly contractAddress?: string;
  readonly tokenDecimal?: string;
}

export interface EtherscanOptions {
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly networks: readonly ('ETH' | 'BSC')[];
  readonly prices: Prices;
  readonly pageSize?: number;
  readonly timeoutMs?: number;
  readonly retryPauseMs?: number;
}

export function createEtherscanTransferIndex(options: EtherscanOptions): TransferIndex {
  const pageSize = options.pageSize ?? 1000;

  async function call(network: 'ETH' | 'BSC', action: 'txlist' | 'tokentx', address: string): Promise<EtherscanRow[]> {
    const url = new URL(options.baseUrl);
    const params = {
      chainid: String(CHAIN_IDS[network]),
      module: 'account',
      action,
      address,
      page: '1',
      offset: String(pageSize),
      sort: 'desc',
      ...(options.apiKey ? { apikey: options.apiKey } : {}),
    };
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
      const body = (await response.json().catch(() => null)) as { status?: string; message?: string; result?: unknown } | null;
      if (response.ok && body && Array.isArray(body.result)) return body.result as EtherscanRow[];
      const reason = `${response.status} ${body?.message ?? ''} ${typeof body?.result === 'string' ? body.result : ''}`.trim();
      if (attempt >= 2) throw fail('backend_unavailable', `account history API (${action}) failed: ${reason}`);
      await new Promise((resolve) => setTimeout(resolve, options.retryPauseMs ?? 1000));
    }
  }

  async function fetchHistory(address: string, network: Network): Promise<AccountHistory> {
    const chain = network as 'ETH' | 'BSC';
    const [native, tokens] = await Promise.all([call(chain, 'txlist', address), call(chain, 'tokentx', address)]);
    const transfers: TransferInput[] = [];
    for (const row of native) {
      if (row.isError === '1' || !row.to || row.value === '0') continue;
      const at = Number(row.timeStamp) * 1000;
      const quote = await options.prices.quote({ network: chain, token: null }, new Date(at));
      transfers.push({
        from: row.from,
        to: row.to,
        usdMicros: quote ? valueInMicros(BigInt(row.value), 18, quote) : null,
        at,
        txHash: row.hash,
      });
    }
    for (const row of tokens) {
      const decimals = Number(row.tokenDecimal);
      if (!row.contractAddress || row.value === '0' || !Number.isInteger(decimals)) continue;
      const at = Number(row.timeStamp) * 1000;
      const quote = await options.prices.quote({ network: chain, token: row.contractAddress.toLowerCase() }, new Date(at));
      transfers.push({
        from: row.from,
        to: row.to,
        usdMicros: quote ? valueInMicros(BigInt(row.value), decimals, quote) : null,
        at,
        txHash: row.hash,
      });
    }
    return { transfers };
  }

  return accountHistoryIndex({
    name: 'etherscan-compatible API',
    networks: options.networks,
    caveat: `the most recent ${pageSize} native and ${pageSize} token transfers of each address, fetched on demand`,
    cap: `${pageSize} most recent native and ${pageSize} token transfers per address`,
    version: new URL(options.baseUrl).host,
    fetchHistory,
  });
}
