import type { FlowDirection, TransferIndex } from '../../domain/ports/chain-data.port.js';
import { present } from '../../domain/shared/present.js';
import type { Network } from '../../domain/shared/network.js';

/** One TransferIndex per network behind one port: each network's transfers come from its own adapter. */
export function routedTransferIndex(byNetwork: Readonly<Record<Network, TransferIndex>>): TransferIndex {
  return {
    activity: (address, network) => byNetwork[network].activity(address, network),
    flows: (address, network, direction, limit) => byNetwork[network].flows(address, network, direction, limit),
    // Batched where every network's adapter batches (the PostgreSQL graph store); else each page on its own.
    ...(Object.values(byNetwork).every((index) => index.flowsOfMany)
      ? {
          flowsOfMany: (addresses: readonly string[], network: Network, direction: FlowDirection, limit: number) =>
            present(byNetwork[network].flowsOfMany, 'checked above').call(byNetwork[network], addresses, network, direction, limit),
        }
      : {}),
    coverage: (network) => byNetwork[network].coverage(network),
  };
}
