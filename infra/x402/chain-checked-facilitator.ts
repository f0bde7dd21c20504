import type { PublicClient } from 'viem';
import type { Facilitator } from '../../domain/ports/facilitator.port.js';
import type { X402Network } from '../../domain/x402/x402-networks.js';
import { checkOnChain } from './chain-reader.js';

/**
 * A hosted facilitator with our own chain RPC beside it: the authorization's nonce and the payer's
 * balance are checked on our node before the facilitator is asked, so a replayed or unfunded proof is
 * refused without a round trip to a third party.
 */
export function withChainChecks(facilitator: Facilitator, options: { network: X402Network; client: PublicClient }): Facilitator {
  return {
    async verify(payment, requirements) {
      const onChain = await checkOnChain(options.client, options.network, payment);
      return onChain.isValid ? facilitator.verify(payment, requirements) : onChain;
    },
    settle: (payment, requirements) => facilitator.settle(payment, requirements),
    supported: () => facilitator.supported(),
  };
}
