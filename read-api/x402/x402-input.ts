import { isAddressOf, normalizeAddress } from '../../domain/shared/address.js';
import { fail } from '../../domain/shared/errors.js';
import { parseTxHash } from '../../domain/kyt/tx-hash.js';
import { parseChain, parseNetwork, SCREEN_NETWORKS, type Chain, type Network } from '../../domain/shared/network.js';

/**
 * Path parameters of the x402 address endpoints, checked before any quote: a client never pays for a
 * request that cannot be served. Chain names are case-insensitive; EVM addresses are lowercased.
 */
export function parseAddressTarget(params: { chain: string; address: string }): { network: Network; address: string } {
  const network = params.chain.length <= 20 ? parseNetwork(params.chain) : null;
  if (!network)
    throw fail('chain_unsupported', `chain "${params.chain.slice(0, 20)}" is not supported here; use one of ${SCREEN_NETWORKS.join(', ')}`);
  const address = params.address.trim();
  if (address.length < 1 || address.length > 120 || !isAddressOf(network, address)) {
    const format = network === 'TRON' ? 'a TRON base58check address starting with T' : '0x followed by 40 hex digits';
    throw fail('address_invalid', `not a ${network} address: expected ${format}`);
  }
  return { network, address: normalizeAddress(address) };
}

/**
 * Path parameters of the transfer check: a chain this deployment can read (one of the spec's transfer
 * chains with a configured endpoint; others are `chain_unsupported`) and a transaction hash of its format
 * (EVM: 0x + 64 hex; TRON: 64 hex, 0x optional), else `body_invalid`.
 */
export function parseTransferTarget(
  params: { chain: string; tx_hash: string },
  readable: readonly Chain[],
): { chain: Chain; txHash: string } {
  const chain = params.chain.length <= 20 ? parseChain(params.chain) : null;
  if (!chain || !readable.includes(chain)) {
    throw fail(
      'chain_unsupported',
      `chain "${params.chain.slice(0, 20)}" is not supported here; use one of ${readable.join(', ') || '(none configured)'}`,
    );
  }
  const txHash = params.tx_hash.length <= 80 ? parseTxHash(chain, params.tx_hash) : null;
  if (!txHash) {
    throw fail(
      'body_invalid',
      chain === 'TRON'
        ? 'not a TRON transaction id (64 hex digits, 0x optional)'
        : `not an ${chain} transaction hash (0x followed by 64 hex digits)`,
    );
  }
  return { chain, txHash };
}
