import type { FlowDirection, TransferIndex } from '../../../domain/ports/chain-data.port.js';
import { KYT_EXPOSURE_BUDGET, screeningNetworkOf } from '../../../domain/kyt/chain-intel.js';
import type { Chain, Network } from '../../../domain/shared/network.js';

/**
 * The USD that moved along each hop of an evidence route, read back from the transfer index the search
 * walked (its USD is priced per transfer, at the transfer's time, by the service's price table). A route
 * carries one figure, what of the checked address's flow reached the entity; each hop moved its own amount.
 */
export type HopUsd =
  | { readonly kind: 'priced'; readonly usd: number; readonly estimated: boolean }
  /** The index holds the transfers but no price for their asset: the amount in USD is not known. */
  | { readonly kind: 'unpriced'; readonly transfers: number }
  /** The index no longer holds this pair (or there is no index): nothing to show. */
  | { readonly kind: 'unknown' };

export interface RouteHops {
  readonly addresses: readonly string[];
  /** `incoming`: funds flowed from the first address towards the checked (last) one. */
  readonly direction: 'incoming' | 'outgoing' | 'self';
}

/**
 * Each hop read the way the search read it: an incoming search asks who sent to the later address, an
 * outgoing one whom the earlier address paid, both with the search's counterparty limit (so the hop the
 * route took is within the page).
 */
export async function hopAmounts(index: TransferIndex | null, network: Network, route: RouteHops, perNodeLimit: number): Promise<HopUsd[]> {
  const hops: HopUsd[] = [];
  for (let i = 0; i + 1 < route.addresses.length; i++) {
    const from = route.addresses[i] ?? '';
    const to = route.addresses[i + 1] ?? '';
    if (!index) {
      hops.push({ kind: 'unknown' });
      continue;
    }
    const [node, counterparty, direction]: [string, string, FlowDirection] =
      route.direction === 'incoming' ? [to, from, 'in'] : [from, to, 'out'];
    const page = await index.flows(node, network, direction, perNodeLimit);
    let found: HopUsd = { kind: 'unknown' };
    for (let row = 0; row < page.size; row++) {
      if (page.counterparty(row) !== counterparty) continue;
      const micros = page.usdMicros(row);
      found =
        micros > 0
          ? { kind: 'priced', usd: micros / 1e6, estimated: page.estimated(row) }
          : { kind: 'unpriced', transfers: page.transfers(row) };
      break;
    }
    hops.push(found);
  }
  return hops;
}

/**
 * The hops of a transfer check's drawn routes (transfer-evidence.ts): each sender's funds traced
 * backwards, read with the transfer check's own counterparty limit. A chain without screening data
 * (POLYGON, BASE…) has no routes to read.
 */
export async function transferRouteHops(
  index: TransferIndex | null,
  chain: Chain,
  routes: readonly { readonly path: { readonly addresses: readonly string[] } }[],
): Promise<HopUsd[][]> {
  const network = screeningNetworkOf(chain);
  if (!network) return routes.map(() => []);
  return Promise.all(
    routes.map((route) =>
      hopAmounts(index, network, { addresses: route.path.addresses, direction: 'incoming' }, KYT_EXPOSURE_BUDGET.perNodeLimit),
    ),
  );
}
