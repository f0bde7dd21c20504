import type { Address } from 'viem';

/**
 * The networks the x402 channel settles on: USDC (6 decimals, EIP-3009) on Base. The EIP-712 domain name
 * differs per network ("USD Coin" on Base, "USDC" on Base Sepolia); a wrong name yields signatures that
 * look valid and fail on chain, so the domain is ours, never the client's.
 */
export interface X402Network {
  /** Our configuration name. */
  readonly name: 'base' | 'base-sepolia';
  /** CAIP-2 id, as x402 v2 names networks. */
  readonly caip2: `eip155:${number}`;
  readonly chainId: number;
  readonly asset: Address;
  readonly eip712: { readonly name: string; readonly version: string };
  readonly decimals: 6;
}

export const X402_NETWORKS = {
  base: {
    name: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
    decimals: 6,
  },
  'base-sepolia': {
    name: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
    decimals: 6,
  },
} as const satisfies Record<string, X402Network>;

export type X402NetworkName = keyof typeof X402_NETWORKS;

/** What every quote of this deployment offers: one network, one asset, one collecting wallet. */
export interface X402Terms {
  readonly network: X402Network;
  readonly payTo: Address;
  /** How long a signed authorization may stay valid; also the quote's `maxTimeoutSeconds`. */
  readonly maxTimeoutSeconds: number;
}
