import type { RemainderStop, SearchStops } from '../exposure/exposure.schema.js';
import { microsToUsd } from '../shared/money.js';
import type { ExposureStopsBody } from './full-check-result.schema.js';

/** The search's stops in the body's words (docs/api.md, "Where the search stopped"): USD, percent, snake case. */

const pct = (share: number): number => Math.round(share * 10_000) / 100;

function remainderBody(r: RemainderStop) {
  return {
    address: r.address,
    hops: r.hops,
    counterparties: r.counterparties,
    usd: microsToUsd(r.usdMicros),
    share_pct: pct(r.share),
    remainder_usd: microsToUsd(r.remainderUsdMicros),
    super_node: r.superNode,
  };
}

/** null for a result recorded before the search reported its stops. */
export function stopsBody(stops: SearchStops | undefined): ExposureStopsBody | null {
  if (!stops) return null;
  const remainders = stops.remainders.map(remainderBody);
  return {
    services: stops.services.map((s) => ({
      address: s.address,
      slug: s.category,
      label: s.label,
      hops: s.hops,
      usd: microsToUsd(s.usdMicros),
      share_pct: pct(s.share),
    })),
    services_total: stops.servicesTotal,
    remainders,
    remainders_total: stops.remaindersTotal,
    heaviest_remainder: remainders[0] ?? null,
  };
}
