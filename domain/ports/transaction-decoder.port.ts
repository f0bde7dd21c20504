import type { DecodedTransaction } from '../kyt/decoded-transaction.js';
import type { Chain } from '../shared/network.js';

/**
 * Reads one transaction from its chain and decodes its value movements (EVM through JSON-RPC, TRON
 * through its HTTP API). Failures are ServiceErrors: `tx_not_found` (no such transaction on the chain,
 * or not yet mined), `backend_unavailable` (the node could not be reached or answered an error) and
 * `tx_decode_failed` (the node's answer is not a transaction we can read).
 */
export interface TransactionDecoder {
  /** Chains with a configured endpoint; a check on any other chain is refused before it starts. */
  chains(): readonly Chain[];
  decode(chain: Chain, txHash: string): Promise<DecodedTransaction>;
}
