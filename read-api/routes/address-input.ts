import { isAddressOf, normalizeAddress } from '../../domain/shared/address.js';
import { fail } from '../../domain/shared/errors.js';
import { parseChain, parseNetwork, SCREEN_NETWORKS, type Network } from '../../domain/shared/network.js';
import { RequestValidationError } from '../validation.js';

/** Chains a client may plausibly name that the address endpoints do not cover. */
export const KNOWN_UNSUPPORTED = new Set(['BTC', 'XBT', 'SOL', 'LTC', 'XRP', 'XMR', 'BCH', 'DOGE', 'AVAX', 'OPTIMISM', 'OP', 'ETC']);

/**
 * The address endpoints' rules beyond length: an empty address or unknown network is 400 bad_request,
 * a known chain outside BSC/ETH/TRON is 400 unsupported_network, a malformed address 422.
 */
export function parseAddressInput(body: { address: string; network: string }): { address: string; network: Network } {
  const network = parseNetwork(body.network);
  if (!network) {
    const upper = body.network.trim().toUpperCase();
    if (parseChain(upper) || KNOWN_UNSUPPORTED.has(upper)) {
      throw fail('unsupported_network', `network ${body.network} is not screened; use one of ${SCREEN_NETWORKS.join(', ')}`, {
        supported_networks: [...SCREEN_NETWORKS],
      });
    }
    throw fail('bad_request', `unknown network "${body.network}"; use one of ${SCREEN_NETWORKS.join(', ')}`);
  }
  const trimmed = body.address.trim();
  if (trimmed === '') throw fail('bad_request', 'the address is empty');
  if (!isAddressOf(network, trimmed)) {
    throw new RequestValidationError([
      {
        loc: ['body', 'address'],
        msg:
          network === 'TRON'
            ? 'not a TRON address (base58check, starts with T)'
            : `not an ${network} address (0x followed by 40 hex digits)`,
        type: 'value_error',
        input: body.address,
      },
    ]);
  }
  return { address: normalizeAddress(trimmed), network };
}
