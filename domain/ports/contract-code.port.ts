import type { Network } from '../shared/network.js';

/**
 * Whether code is deployed at an address (eth_getCode), for `smart_contract.is_contract`. Optional:
 * configured per network with a JSON-RPC URL; null when the network has no RPC configured or the
 * node could not answer, in which case the verdict falls back on the token and label lists.
 */
export interface ContractCodeReader {
  isContract(address: string, network: Network): Promise<boolean | null>;
}
