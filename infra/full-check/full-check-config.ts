import { z } from 'zod';

/**
 * Settings of the full-check pipeline, explore jobs, the transfer index and prices (spread into
 * infra/config.ts). All optional: the defaults run the embedded index on the shipped samples.
 */

const positive = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

const pricePinsSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z.array(
      z.strictObject({
        network: z.enum(['ETH', 'BSC', 'TRON', 'POLYGON', 'BASE', 'ARBITRUM']),
        token: z.string().min(1).nullable(),
        symbol: z.string().min(1),
        usd: z.number().nonnegative(),
      }),
    ),
  );

export const fullCheckSettings = {
  /** Budget of each graph search of a full check (tiers 3 and 4). */
  SVC_GRAPH_MAX_NODES: positive(10_000),
  SVC_GRAPH_MAX_EDGES: positive(200_000),
  SVC_GRAPH_MAX_HOPS: z.coerce.number().int().min(1).max(20).default(6),
  SVC_GRAPH_TIME_BUDGET_MS: positive(10_000),
  /** Counterparties followed per address, heaviest first. */
  SVC_GRAPH_PER_NODE_LIMIT: positive(1000),
  /** Counterparties an address keeps per direction in the transfer graph; the others are its aggregated remainder. */
  SVC_GRAPH_SUPER_NODE_BOUND: positive(10_000),
  /** The most an explore job may ask for. */
  SVC_EXPLORE_MAX_NODES: positive(100_000),
  SVC_EXPLORE_MAX_HOPS: z.coerce.number().int().min(1).max(20).default(10),
  SVC_EXPLORE_TIME_BUDGET_MS: positive(60_000),
  /** How often the reaper looks for jobs running past the 15-minute cap. */
  SVC_REAPER_INTERVAL_MS: positive(30_000),
  /** JSON list of {network, token, symbol, usd}: prices for assets the embedded snapshot does not know. */
  SVC_PRICE_PINS: pricePinsSchema.optional(),
  /** An EVM JSON-RPC to index native and ERC-20 transfers from, block by block (off when unset). */
  SVC_INGEST_RPC_URL: z.url().optional(),
  SVC_INGEST_NETWORK: z.enum(['ETH', 'BSC']).default('ETH'),
  SVC_INGEST_FROM_BLOCK: z.coerce.number().int().min(0).default(0),
  SVC_INGEST_BATCH_BLOCKS: z.coerce.number().int().min(1).max(10_000).default(100),
  SVC_INGEST_POLL_MS: positive(2000),
  /** The reorganisation window: blocks this close to the head stay revertible (deeper reorganisations are not undone). */
  SVC_INGEST_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(12),
  /** The TRON HTTP API (a java-tron full node, or TronGrid) to index TRX and TRC-20 transfers from, block by block (off when unset; key: SVC_TRON_API_KEY). */
  SVC_INGEST_TRON_URL: z.url().optional(),
  SVC_INGEST_TRON_FROM_BLOCK: z.coerce.number().int().min(0).default(0),
  /** TRON blocks are final (solidified) about 19 blocks behind the head. */
  SVC_INGEST_TRON_CONFIRMATIONS: z.coerce.number().int().min(0).max(1000).default(19),
  /** An Etherscan-compatible account-history API (e.g. https://api.etherscan.io/v2/api) for the networks listed. */
  SVC_ETHERSCAN_URL: z.url().optional(),
  SVC_ETHERSCAN_API_KEY: z.string().optional(),
  SVC_ETHERSCAN_NETWORKS: z
    .string()
    .default('ETH,BSC')
    .transform((text) =>
      text
        .split(',')
        .map((n) => n.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['ETH', 'BSC']))),
  /** The TRON HTTP API (TronGrid, e.g. https://api.trongrid.io) for TRON transfer history. */
  SVC_TRON_API_URL: z.url().optional(),
  SVC_TRON_API_KEY: z.string().optional(),
};
