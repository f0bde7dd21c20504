import type { AddressIntel } from '../intel/intel.types.js';
import type { IntelIndex } from '../ports/intel-index.port.js';
import type { Chain, Network } from '../shared/network.js';
import type { ExposureBudget } from '../exposure/exposure.schema.js';

/**
 * The intelligence and transfer data are kept per screening network (ETH, BSC, TRON). On the other EVM
 * chains of the transfer check (POLYGON, BASE, ARBITRUM) the same 0x key is the same holder, so what
 * holds for every EVM network (sanctions, risk annotations: scope `evm`) holds there too; names and
 * token facts observed on one network do not.
 */
export function screeningNetworkOf(chain: Chain): Network | null {
  return chain === 'ETH' || chain === 'BSC' || chain === 'TRON' ? chain : null;
}

export function intelOnChain(intel: IntelIndex, address: string, chain: Chain): AddressIntel {
  const network = screeningNetworkOf(chain);
  if (network) return intel.lookup(address, network);
  const found = intel.lookup(address, 'ETH');
  const claims = found.claims.filter((claim) => claim.scope === 'evm');
  const sources = Object.fromEntries(Object.entries(found.sources).filter(([slug]) => claims.some((c) => c.source === slug)));
  return { claims, sources, token: null };
}

/**
 * The graph search's budget per sender of a transfer check: smaller than the full check's, since a
 * transfer can have several senders and the check answers within seconds.
 */
export const KYT_EXPOSURE_BUDGET: ExposureBudget = { maxNodes: 5_000, maxEdges: 50_000, maxHops: 4, timeMs: 400, perNodeLimit: 200 };
