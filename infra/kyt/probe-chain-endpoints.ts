import { createPublicClient, http } from 'viem';
import type { Chain } from '../../domain/shared/network.js';
import type { Config } from '../config.js';
import { chainEndpoints } from './kyt-config.js';

/** The chain id each EVM transfer chain's mainnet answers to eth_chainId. */
const MAINNET_CHAIN_ID: Readonly<Record<Exclude<Chain, 'TRON'>, number>> = { ETH: 1, BSC: 56, POLYGON: 137, BASE: 8453, ARBITRUM: 42161 };

/**
 * At start, asks every configured chain endpoint who it is and logs the answer: an endpoint that is
 * down, or an EVM node of another chain than the variable says (CHAIN_RPC_BSC pointing at an Ethereum
 * node), is reported at once instead of surfacing as failed checks. Never stops the service: a node
 * may come back, and a development chain (anvil) legitimately answers another id.
 */
export async function probeChainEndpoints(config: Config, log: (line: string) => void): Promise<void> {
  const timeout = Math.min(config.CHAIN_RPC_TIMEOUT_MS, 5_000);
  const endpoints = chainEndpoints(config);
  const evm = (Object.keys(MAINNET_CHAIN_ID) as Exclude<Chain, 'TRON'>[]).flatMap((chain) => {
    const url = endpoints.evm[chain];
    return url ? [{ chain, url }] : [];
  });
  await Promise.all([
    ...evm.map(async ({ chain, url }) => {
      try {
        const id = await createPublicClient({ transport: http(url, { timeout, retryCount: 0 }) }).getChainId();
        const expected = MAINNET_CHAIN_ID[chain];
        log(
          id === expected
            ? `transfer check: ${chain} endpoint answers chain id ${id}`
            : `transfer check: ${chain} endpoint answers chain id ${id}, not ${chain} mainnet's ${expected} (a test chain?)`,
        );
      } catch (error) {
        log(
          `transfer check: ${chain} endpoint does not answer (${(error as Error).message.split('\n')[0]}); ${chain} checks will fail with 502 until it does`,
        );
      }
    }),
    (async () => {
      if (!endpoints.tron) return;
      try {
        const response = await fetch(`${endpoints.tron.baseUrl.replace(/\/+$/, '')}/wallet/getnowblock`, {
          method: 'POST',
          headers: endpoints.tron.apiKey ? { 'TRON-PRO-API-KEY': endpoints.tron.apiKey } : {},
          signal: AbortSignal.timeout(timeout),
        });
        const block = (await response.json()) as { block_header?: { raw_data?: { number?: number } } };
        const number = block.block_header?.raw_data?.number;
        log(
          number === undefined
            ? `transfer check: TRON endpoint answered HTTP ${response.status} without a block`
            : `transfer check: TRON endpoint at block ${number}`,
        );
      } catch (error) {
        log(`transfer check: TRON endpoint does not answer (${(error as Error).message}); TRON checks will fail with 502 until it does`);
      }
    })(),
  ]);
}
