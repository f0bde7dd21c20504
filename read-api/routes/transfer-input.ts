import { z } from 'zod';
import { parseTxHash } from '../../domain/kyt/tx-hash.js';
import { fail } from '../../domain/shared/errors.js';
import { parseChain, SCREEN_NETWORKS, TRANSFER_CHAINS, type Chain } from '../../domain/shared/network.js';
import { chainField, txHashField } from '../schemas/common.js';
import { RequestValidationError } from '../validation.js';
import { KNOWN_UNSUPPORTED } from './address-input.js';

/** The spec's lengths: chain 1..20, tx_hash 1..80 (emptiness is the 400 below, as for addresses). */
export const transferBody = z.strictObject({
  chain: chainField,
  tx_hash: txHashField,
});

/**
 * The transfer check's rules beyond length: an empty chain or hash, or a chain nobody knows, is 400
 * bad_request; a known chain outside ETH/BSC/POLYGON/BASE/ARBITRUM/TRON is 400 unsupported_network;
 * a hash of the wrong shape for the chain is 422 (EVM: `0x` + 64 hex; TRON: 64 hex, `0x` optional).
 */
export function parseTransferInput(body: z.infer<typeof transferBody>): { chain: Chain; txHash: string } {
  const upper = body.chain.trim().toUpperCase();
  if (upper === '') throw fail('bad_request', `the chain is empty; use one of ${TRANSFER_CHAINS.join(', ')}`);
  const chain = parseChain(upper);
  if (!chain) {
    if (KNOWN_UNSUPPORTED.has(upper) || (SCREEN_NETWORKS as readonly string[]).includes(upper)) {
      throw fail('unsupported_network', `chain ${body.chain} is not supported by the transfer check`, {
        supported_networks: [...TRANSFER_CHAINS],
      });
    }
    throw fail('bad_request', `unknown chain "${body.chain}"; use one of ${TRANSFER_CHAINS.join(', ')}`);
  }
  if (body.tx_hash.trim() === '') throw fail('bad_request', 'the tx_hash is empty');
  const txHash = parseTxHash(chain, body.tx_hash);
  if (!txHash) {
    throw new RequestValidationError([
      {
        loc: ['body', 'tx_hash'],
        msg:
          chain === 'TRON'
            ? 'not a TRON transaction id (64 hex digits, 0x optional)'
            : `not an ${chain} transaction hash (0x followed by 64 hex digits)`,
        type: 'value_error',
        input: body.tx_hash,
      },
    ]);
  }
  return { chain, txHash };
}
