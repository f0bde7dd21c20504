import type { TransferIndex } from '../../domain/ports/chain-data.port.js';
import type { Network } from '../../domain/shared/network.js';

/** One TransferIndex per network behind one port: each network's transfers come from its own adapter. */
export function routedTransferIndex(byNetwork: Readonly<Record<Network, TransferIndex>>): TransferIndex {
  return {
    activity: (address, network) => byNetwork[network].activity(address, network),
    flows: (address, network, direction, limit) => byNetwork[network].flows(address, network, direction, limit),
    coverage: (network) => byNetwork[network].coverage(network),
  };
}
