import { present } from '../../domain/shared/present.js';
import { createPublicClient, http, type PublicClient } from 'viem';
import type { ContractCodeReader } from '../../domain/ports/contract-code.port.js';
import type { Network } from '../../domain/shared/network.js';

/**
 * ContractCodeReader over JSON-RPC (`eth_getCode` at the latest block) with viem, one client per
 * configured EVM network. Answers are cached (code rarely appears and almost never disappears; a
 * day bounds the staleness) and a slow node gives up after `timeoutMs`, so a screen never waits long.
 */
export function rpcContractCodeReader(options: {
  readonly rpcUrls: Partial<Record<Network, string>>;
  readonly timeoutMs?: number;
  readonly cacheTtlMs?: number;
  readonly cacheSize?: number;
  readonly now?: () => number;
}): ContractCodeReader {
  const clients = new Map<Network, PublicClient>();
  for (const [network, url] of Object.entries(options.rpcUrls) as [Network, string | undefined][]) {
    if (url && network !== 'TRON')
      clients.set(network, createPublicClient({ transport: http(url, { timeout: options.timeoutMs ?? 2_000, retryCount: 0 }) }));
  }
  const ttl = options.cacheTtlMs ?? 24 * 3600_000;
  const size = options.cacheSize ?? 100_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { isContract: boolean; at: number }>();
  return {
    async isContract(address, network) {
      const client = clients.get(network);
      if (!client) return null;
      const key = `${network}:${address.toLowerCase()}`;
      const known = cache.get(key);
      if (known && now() - known.at < ttl) return known.isContract;
      try {
        const code = await client.getCode({ address: address as `0x${string}` });
        const isContract = code !== undefined && code !== '0x';
        if (cache.size >= size) cache.delete(present(cache.keys().next().value, 'the cache is full, so not empty'));
        cache.set(key, { isContract, at: now() });
        return isContract;
      } catch {
        return null;
      }
    },
  };
}
