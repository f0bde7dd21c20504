import { isAddressOf, normalizeAddress } from '../../domain/shared/address.js';
import { fail } from '../../domain/shared/errors.js';
import { parseNetwork, SCREEN_NETWORKS, type Network } from '../../domain/shared/network.js';

/**
 * Path parameters of the x402 address endpoints, checked before any quote: a client never pays for a
 * request that cannot be served. Chain names are case-insensitive; EVM addresses are lowercased.
 */
export function parseAddressTarget(params: { chain: string; address: string }): { network: Network; address: string } {
  const network = params.chain.length <= 20 ? parseNetwork(params.chain) : null;
  if (!network) throw fail('chain_unsupported', `chain "${params.chain.slice(0, 20)}" is not supported here; use one of ${SCREEN_NETWORKS.join(', ')}`);
  const address = params.address.trim();
  if (address.length < 1 || address.length > 120 || !isAddressOf(network, address)) {
    const format = network === 'TRON' ? 'a TRON base58check address starting with T' : '0x followed by 40 hex digits';
    throw fail('address_invalid', `not a ${network} address: expected ${format}`);
  }
  return { network, address: normalizeAddress(address) };
}
