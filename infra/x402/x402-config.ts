import { getAddress, type Address } from 'viem';
import { z } from 'zod';
import { fail } from '../../domain/shared/errors.js';
import { X402_NETWORKS, type X402Terms } from '../../domain/x402/x402-networks.js';

/** The x402 channel's environment variables (spread into infra/config.ts). The channel is off without X402_PAY_TO. */
export const x402Settings = {
  /** The wallet that collects payments; setting it turns the channel on. */
  X402_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .optional(),
  X402_PORT: z.coerce.number().int().min(0).max(65535).default(8402),
  X402_NETWORK: z.enum(['base', 'base-sepolia']).default('base-sepolia'),
  X402_MAX_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  X402_FACILITATOR: z.enum(['local', 'http']).default('local'),
  X402_FACILITATOR_URL: z.url().optional(),
  /** Sent as the Authorization header to a hosted facilitator that needs an API key. */
  X402_FACILITATOR_AUTHORIZATION: z.string().optional(),
  /** JSON-RPC of the network: the local facilitator's chain, or extra on-chain checks beside a hosted one. */
  X402_RPC_URL: z.url().optional(),
  /** Private key of the wallet paying the local facilitator's gas (never the collecting wallet). */
  X402_GAS_WALLET_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .optional(),
  X402_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  X402_RECEIPT_POLL_MS: z.coerce.number().int().min(5).max(10_000).default(250),
  X402_SETTLE_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(60_000),
  /**
   * How long a paid asynchronous check waits for its result before answering 202: at most the spec's 30 s,
   * and the answer as a whole (lookup and settlement included) never takes longer (read-api/x402/answer-budget.ts).
   */
  X402_CHECK_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(30_000),
  X402_PAID_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  X402_FREE_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Comma-separated addresses, CIDR ranges or `loopback` / `linklocal` / `uniquelocal`. */
  X402_TRUSTED_PROXIES: z.string().default(''),
  X402_PUBLIC_URL: z.url().optional(),
};

export type X402Config = z.infer<z.ZodObject<typeof x402Settings>>;

/** The terms of every quote, or null when the channel is off; a half-configured channel stops the start. */
export function x402TermsOf(config: X402Config): X402Terms | null {
  if (!config.X402_PAY_TO) return null;
  const problems: string[] = [];
  if (config.X402_FACILITATOR === 'local' && !config.X402_RPC_URL) problems.push('X402_FACILITATOR=local needs X402_RPC_URL');
  if (config.X402_FACILITATOR === 'local' && !config.X402_GAS_WALLET_KEY) problems.push('X402_FACILITATOR=local needs X402_GAS_WALLET_KEY');
  if (config.X402_FACILITATOR === 'http' && !config.X402_FACILITATOR_URL) problems.push('X402_FACILITATOR=http needs X402_FACILITATOR_URL');
  if (problems.length > 0) throw fail('config_invalid', `invalid configuration: ${problems.join('; ')}`);
  return {
    network: X402_NETWORKS[config.X402_NETWORK],
    payTo: getAddress(config.X402_PAY_TO) as Address,
    maxTimeoutSeconds: config.X402_MAX_TIMEOUT_SECONDS,
  };
}

export const trustedProxiesOf = (config: X402Config): string[] =>
  config.X402_TRUSTED_PROXIES.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
