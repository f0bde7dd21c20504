import { z } from 'zod';

/** An http(s) URL, checked at start so that a typo stops the service instead of failing every check. */
const endpoint = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();

/**
 * The transfer check's settings (README, "Transfer check"). One endpoint per chain: EVM chains take a
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
  /** How long POST /v2/check-transfer waits for the result before answering 202 (the spec: about 25 s). */
  SVC_KYT_SYNC_WAIT_MS: z.coerce.number().int().min(0).max(120_000).default(25_000),
  /** USD prices of the transfer check: the embedded snapshot, or CoinGecko's API with the snapshot behind it. */
  SVC_KYT_PRICES: z.enum(['snapshot', 'coingecko']).default('snapshot'),
  COINGECKO_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.coingecko.com/api/v3'),
  /** Sent as `x-cg-pro-api-key` to pro-api.coingecko.com, else as `x-cg-demo-api-key`. */
  COINGECKO_API_KEY: z.string().min(1).optional(),
};
