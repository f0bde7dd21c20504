import type { AssetRef, PriceQuote, Prices } from '../../domain/ports/prices.port.js';
import { usdToMicros } from '../../domain/shared/money.js';
import { TRANSFER_CHAINS, type Chain } from '../../domain/shared/network.js';

/**
 * Prices from CoinGecko's public API (`/simple/price` for native coins, `/simple/token_price/{platform}`
 * for tokens by contract). It knows current prices only, so it answers for times within the last day
 * and leaves older ones to the snapshot behind it (see `firstPriced`). Answers are cached for a minute
 * (CoinGecko refreshes about that often and rate-limits); a failed or unknown lookup is null, never a
 * guess, so the next price source is asked.
 */

const PLATFORM: Readonly<Record<Chain, string>> = {
  ETH: 'ethereum',
  BSC: 'binance-smart-chain',
  POLYGON: 'polygon-pos',
  BASE: 'base',
  ARBITRUM: 'arbitrum-one',
  TRON: 'tron',
};

const NATIVE: Readonly<Record<Chain, { id: string; symbol: string }>> = {
  ETH: { id: 'ethereum', symbol: 'ETH' },
  BSC: { id: 'binancecoin', symbol: 'BNB' },
  POLYGON: { id: 'polygon-ecosystem-token', symbol: 'POL' },
  BASE: { id: 'ethereum', symbol: 'ETH' },
  ARBITRUM: { id: 'ethereum', symbol: 'ETH' },
  TRON: { id: 'tron', symbol: 'TRX' },
};

const CURRENT_WINDOW_MS = 24 * 3600_000;
const CACHE_TTL_MS = 60_000;

type PriceRows = Record<string, { usd?: number; last_updated_at?: number } | undefined>;

export function createCoinGeckoPrices(options: { baseUrl: string; apiKey?: string; timeoutMs: number; now?: () => number }): Prices {
  const base = options.baseUrl.replace(/\/+$/, '');
  const now = options.now ?? Date.now;
  const keyHeader = base.includes('pro-api.') ? 'x-cg-pro-api-key' : 'x-cg-demo-api-key';
  const cache = new Map<string, { quote: PriceQuote | null; at: number }>();

  async function rows(path: string): Promise<PriceRows | null> {
    try {
      const response = await fetch(`${base}${path}`, {
        headers: { accept: 'application/json', ...(options.apiKey ? { [keyHeader]: options.apiKey } : {}) },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      return response.ok ? ((await response.json()) as PriceRows) : null;
    } catch {
      return null;
    }
  }

  function quoteOf(row: PriceRows[string], symbol: string): PriceQuote | null {
    if (!row || typeof row.usd !== 'number' || !Number.isFinite(row.usd) || row.usd < 0) return null;
    const updated = typeof row.last_updated_at === 'number' ? row.last_updated_at * 1000 : now();
    return { symbol, usdMicrosPerUnit: usdToMicros(row.usd), asOf: new Date(updated).toISOString().slice(0, 10), source: 'coingecko' };
  }

  async function lookup(chain: Chain, asset: AssetRef): Promise<PriceQuote | null> {
    const query = 'vs_currencies=usd&include_last_updated_at=true';
    if (asset.token === null) {
      const { id, symbol } = NATIVE[chain];
      return quoteOf((await rows(`/simple/price?ids=${id}&${query}`))?.[id], symbol);
    }
    const found = await rows(`/simple/token_price/${PLATFORM[chain]}?contract_addresses=${encodeURIComponent(asset.token)}&${query}`);
    return quoteOf(found?.[asset.token] ?? found?.[asset.token.toLowerCase()], asset.listedSymbol ?? 'token');
  }

  return {
    async quote(asset, at) {
      const chain = asset.network as Chain;
      if (!(TRANSFER_CHAINS as readonly string[]).includes(chain) || now() - at.getTime() > CURRENT_WINDOW_MS) return null;
      const key = `${chain}|${asset.token ?? 'native'}`;
      const cached = cache.get(key);
      if (cached && now() - cached.at < CACHE_TTL_MS) return cached.quote;
      const quote = await lookup(chain, asset);
      cache.set(key, { quote, at: now() });
      return quote;
    },
  };
}

/** Asks each price source in turn; the first that prices the asset answers. */
export function firstPriced(sources: readonly Prices[]): Prices {
  return {
    async quote(asset, at) {
      for (const source of sources) {
        const quote = await source.quote(asset, at);
        if (quote) return quote;
      }
      return null;
    },
  };
}
