import { z } from 'zod';
import type { Chain } from '../../domain/shared/network.js';

/** An http(s) URL, checked at start so that a typo stops the service instead of failing every check. */
const endpoint = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();

/**
 * The transfer check's settings (docs/api.md, "Transfer check (KYT)"). One endpoint per chain: EVM chains take a
 * JSON-RPC URL, TRON the base URL of its HTTP API (a java-tron full node or TronGrid). A chain without
 * an endpoint answers 502 backend_unavailable, never charged.
 */
export const kytSettings = {
  CHAIN_RPC_ETH: endpoint,
  CHAIN_RPC_BSC: endpoint,
  CHAIN_RPC_POLYGON: endpoint,
  CHAIN_RPC_BASE: endpoint,
  CHAIN_RPC_ARBITRUM: endpoint,
  CHAIN_RPC_TRON: endpoint,
  /** TronGrid's `TRON-PRO-API-KEY`, sent when set. */
  CHAIN_TRON_API_KEY: z.string().min(1).optional(),
  /** Each call to a chain endpoint gives up after this long (then the check fails with 502). */
  CHAIN_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8_000),
  /** Transfer checks running at once per process (each on its own: a slow node delays only its check). */
  SVC_KYT_CHECK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /** Each transfer check's own deadline, all chain lookups included; past it the check fails (502, not charged). */
  SVC_KYT_CHECK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /** How long POST /v2/check-transfer waits for the result before answering 202 (the spec: about 25 s). */
  SVC_KYT_SYNC_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(25_000),
  /** Retroactive exposure: how far back an intelligence change re-evaluates past transfer checks (days; 0: off). */
  SVC_RETROACTIVE_DAYS: z.coerce.number().int().min(0).max(3650).default(90),
  /** USD prices of the transfer check: the embedded snapshot, or CoinGecko's API with the snapshot behind it. */
  SVC_KYT_PRICES: z.enum(['snapshot', 'coingecko']).default('snapshot'),
  COINGECKO_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.coingecko.com/api/v3'),
  /** Sent as `x-cg-pro-api-key` to pro-api.coingecko.com, else as `x-cg-demo-api-key`. */
  COINGECKO_API_KEY: z.string().min(1).optional(),
};

type EndpointSettings = { readonly [K in `CHAIN_RPC_${Chain}`]?: string | undefined } & {
  readonly CHAIN_TRON_API_KEY?: string | undefined;
  /** The same nodes, when configured for other parts of the service (is_contract, TRON transfer history). */
  readonly SVC_RPC_URL_ETH?: string | undefined;
  readonly SVC_RPC_URL_BSC?: string | undefined;
  readonly SVC_TRON_API_URL?: string | undefined;
  readonly SVC_TRON_API_KEY?: string | undefined;
};

/**
 * The transfer check's endpoint per chain: CHAIN_RPC_<CHAIN>, else the node the service already knows
 * for that chain (SVC_RPC_URL_ETH / _BSC, SVC_TRON_API_URL), so one node need not be configured twice.
 */
export function chainEndpoints(config: EndpointSettings): {
  evm: Partial<Record<Exclude<Chain, 'TRON'>, string>>;
  tron: { baseUrl: string; apiKey?: string } | null;
} {
  const evm: Partial<Record<Exclude<Chain, 'TRON'>, string>> = {};
  const fallback: Partial<Record<Chain, string | undefined>> = { ETH: config.SVC_RPC_URL_ETH, BSC: config.SVC_RPC_URL_BSC };
  for (const chain of ['ETH', 'BSC', 'POLYGON', 'BASE', 'ARBITRUM'] as const) {
    const url = config[`CHAIN_RPC_${chain}`] ?? fallback[chain];
    if (url) evm[chain] = url;
  }
  const tronUrl = config.CHAIN_RPC_TRON ?? config.SVC_TRON_API_URL;
  const tronKey = config.CHAIN_TRON_API_KEY ?? config.SVC_TRON_API_KEY;
  return { evm, tron: tronUrl ? { baseUrl: tronUrl, ...(tronKey ? { apiKey: tronKey } : {}) } : null };
}
