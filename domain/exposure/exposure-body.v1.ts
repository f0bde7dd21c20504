import type { NotAppliedReason } from '../address-check/tier-outcome.schema.js';
import { usdToMicros } from '../shared/money.js';
import type { RiskLevel } from '../shared/verdict-vocabulary.js';
import type { ExposureFound } from './exposure-found.js';
import type { ExposurePath, SearchStops } from './exposure.schema.js';

/**
 * An exposure search as the verdicts stored before they were domain facts recorded it, in the body's
 * words (snake case, USD, percent: CheckCompleted and ExploreCompleted at version 1), read back into
 * what the search found. Exact: USD to micro-USD (bodies carry at most 6 decimals) and percent to
 * fractions (two decimals, which presenting rounds back to the very same figure).
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 */

type Pct = number;
export interface PathV1 {
  hops: number;
  addresses: string[];
  usd: number;
  share_pct: Pct;
  label: string | null;
  source: string;
  usd_estimated: boolean;
}
interface StopsV1 {
  services: { address: string; slug: string; label: string | null; hops: number; usd: number; share_pct: Pct }[];
  services_total: number;
  remainders: {
    address: string;
    hops: number;
    counterparties: number;
    usd: number;
    share_pct: Pct;
    remainder_usd: number;
    super_node: boolean;
  }[];
  remainders_total: number;
}
export interface ExposureV1 {
  applied: boolean;
  reason: NotAppliedReason | null;
  complete: boolean | null;
  stopped_by: string | null;
  weighting: 'usd' | 'transfer_count' | null;
  total_usd: number | null;
  total_transfers: number | null;
  unattributed_pct: Pct | null;
  usd_estimated: boolean;
  search: { nodes: number; edges: number; hops: number; elapsed_ms: number } | null;
  categories: {
    slug: string;
    severity: number;
    risk_level: RiskLevel;
    usd: number;
    share_pct: Pct;
    weighted_share_pct: Pct;
    min_hops: number;
    entities: number;
    paths: PathV1[];
  }[];
  /** Absent in bodies stored before the search reported where it stopped. */
  stops?: StopsV1 | null;
}

export const shareOfPct = (pct: Pct): number => pct / 100;
export const microsOfUsd = (usd: number): number => usdToMicros(usd);

export const pathOfV1 = (p: PathV1): ExposurePath => ({
  hops: p.hops,
  addresses: p.addresses,
  usdMicros: microsOfUsd(p.usd),
  share: shareOfPct(p.share_pct),
  label: p.label,
  source: p.source,
  usdEstimated: p.usd_estimated,
});

const stopsOfV1 = (stops: StopsV1): SearchStops => ({
  services: stops.services.map((s) => ({
    address: s.address,
    category: s.slug,
    label: s.label,
    hops: s.hops,
    share: shareOfPct(s.share_pct),
    usdMicros: microsOfUsd(s.usd),
  })),
  servicesTotal: stops.services_total,
  remainders: stops.remainders.map((r) => ({
    address: r.address,
    hops: r.hops,
    counterparties: r.counterparties,
    share: shareOfPct(r.share_pct),
    usdMicros: microsOfUsd(r.usd),
    remainderUsdMicros: microsOfUsd(r.remainder_usd),
    superNode: r.super_node,
  })),
  remaindersTotal: stops.remainders_total,
});

/** What the search of a stored exposure body found; null when it did not run (a body has its figures exactly then). */
export function exposureFoundOfV1(body: ExposureV1): ExposureFound | null {
  const { search, weighting, complete } = body;
  if (search === null || weighting === null || complete === null) return null;
  return {
    complete,
    stoppedBy: body.stopped_by,
    weighting,
    totalUsdMicros: microsOfUsd(body.total_usd ?? 0),
    totalTransfers: body.total_transfers ?? 0,
    unattributedShare: shareOfPct(body.unattributed_pct ?? 0),
    usdEstimated: body.usd_estimated,
    nodesVisited: search.nodes,
    edgesScanned: search.edges,
    hopsReached: search.hops,
    elapsedMs: search.elapsed_ms,
    categories: body.categories.map((c) => ({
      slug: c.slug,
      severity: c.severity,
      addressLevel: c.risk_level,
      usdMicros: microsOfUsd(c.usd),
      share: shareOfPct(c.share_pct),
      weightedShare: shareOfPct(c.weighted_share_pct),
      minHops: c.min_hops,
      entities: c.entities,
      paths: c.paths.map(pathOfV1),
    })),
    stops: body.stops ? stopsOfV1(body.stops) : null,
  };
}
