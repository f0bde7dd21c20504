import type { ExposureOutcome } from '../../domain/address-check/full-check-verdict.js';
import type { ExposureFound } from '../../domain/exposure/exposure-found.js';
import type { ExposurePath, SearchStops } from '../../domain/exposure/exposure.schema.js';
import { microsToUsd } from '../../domain/shared/money.js';
import type { ExposureBody, ExposureStopsBody } from '../schemas/exposure-body.schema.js';

/**
 * What an exposure search found in the body's words (read-api/schemas/exposure-body.schema.ts): USD (at
 * most 6 decimals), percent (two decimals), snake case. One shape for the full check's four directions,
 * an explore report's two, and the paths of the transfer check's evidence. Pure.
 */

/** A share (0..1) as percent with two decimals. */
export const pct = (share: number): number => Math.round(share * 10_000) / 100;

/** One route of exposure. */
export function pathBody(path: ExposurePath) {
  return {
    hops: path.hops,
    addresses: [...path.addresses],
    usd: microsToUsd(path.usdMicros),
    share_pct: pct(path.share),
    label: path.label,
    source: path.source,
    usd_estimated: path.usdEstimated,
  };
}

/** Where the search stopped: the services it did not follow, the remainders it did not expand. */
function stopsBody(stops: SearchStops): ExposureStopsBody {
  const remainders = stops.remainders.map((r) => ({
    address: r.address,
    hops: r.hops,
    counterparties: r.counterparties,
    usd: microsToUsd(r.usdMicros),
    share_pct: pct(r.share),
    remainder_usd: microsToUsd(r.remainderUsdMicros),
    super_node: r.superNode,
  }));
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

const categoryBody = (c: ExposureFound['categories'][number]) => ({
  slug: c.slug,
  severity: c.severity,
  risk_level: c.addressLevel,
  usd: microsToUsd(c.usdMicros),
  share_pct: pct(c.share),
  weighted_share_pct: pct(c.weightedShare),
  min_hops: c.minHops,
  entities: c.entities,
  paths: c.paths.map(pathBody),
});

/** One direction's exposure: whether it was searched (and why not), and what the search found. */
export function exposureBody({ applied, reason, found }: ExposureOutcome): ExposureBody {
  return {
    applied,
    reason,
    complete: found?.complete ?? null,
    stopped_by: found?.stoppedBy ?? null,
    weighting: found?.weighting ?? null,
    total_usd: found ? microsToUsd(found.totalUsdMicros) : null,
    total_transfers: found?.totalTransfers ?? null,
    unattributed_pct: found ? pct(found.unattributedShare) : null,
    usd_estimated: found?.usdEstimated ?? false,
    search: found ? { nodes: found.nodesVisited, edges: found.edgesScanned, hops: found.hopsReached, elapsed_ms: found.elapsedMs } : null,
    categories: (found?.categories ?? []).map(categoryBody),
    stops: found?.stops ? stopsBody(found.stops) : null,
  };
}
