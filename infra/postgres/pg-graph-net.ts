import type { FlowDirection } from '../../domain/ports/chain-data.port.js';
import { SCREEN_NETWORKS, type Network } from '../../domain/shared/network.js';

/** How the PostgreSQL graph store's tables number a network and a side (smallint columns). */
export const netId = (network: Network): number => SCREEN_NETWORKS.indexOf(network);
export const sideId = (side: FlowDirection): number => (side === 'out' ? 1 : 0);
