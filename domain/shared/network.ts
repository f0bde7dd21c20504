/** Networks of the address endpoints and chains of the transfer check, as the spec lists them. */
export const SCREEN_NETWORKS = ['BSC', 'ETH', 'TRON'] as const;
export type Network = (typeof SCREEN_NETWORKS)[number];

export const TRANSFER_CHAINS = ['ETH', 'BSC', 'POLYGON', 'BASE', 'ARBITRUM', 'TRON'] as const;
export type Chain = (typeof TRANSFER_CHAINS)[number];

/** Case-insensitive match of a client's network name; null when it is not a screening network. */
export function parseNetwork(input: string): Network | null {
  const upper = input.trim().toUpperCase();
  return (SCREEN_NETWORKS as readonly string[]).includes(upper) ? (upper as Network) : null;
}

export function parseChain(input: string): Chain | null {
  const upper = input.trim().toUpperCase();
  return (TRANSFER_CHAINS as readonly string[]).includes(upper) ? (upper as Chain) : null;
}

export const isEvmNetwork = (network: Network | Chain): boolean => network !== 'TRON';
