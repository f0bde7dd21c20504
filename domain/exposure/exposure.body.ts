import { z } from 'zod';
import { notAppliedReasonSchema } from '../address-check/tier-outcome.schema.js';
import { microsToUsd } from '../shared/money.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';
import { directionOf, exposureLevelOf } from '../address-check/exposure-rule.js';
import type { NotAppliedReason } from '../address-check/tier-outcome.schema.js';
import type { CategoryExposure, ExposurePath, ExposureResult, RemainderStop, SearchStops } from './exposure.schema.js';

/**
 * An exposure search's result in the bodies' words (USD, percent, snake case), for the verdicts whose
 * bodies are still built in domain/ and stored whole: explore's report and the transfer check's result
 * (issue 29 moves them to read-api/presenters, as the full check's already is: full-check.presenter.ts).
 */

const riskLevel = z.enum(RISK_LEVELS);
const pct = (share: number): number => Math.round(share * 10_000) / 100;

export const evidencePathSchema = z.object({
  hops: z.number().int().min(1),
  addresses: z.array(z.string()),
  usd: z.number().nonnegative(),
  share_pct: z.number().min(0).max(100),
  label: z.string().nullable(),
  source: z.string(),
  usd_estimated: z.boolean(),
});

const exposureCategorySchema = z.object({
  slug: z.string(),
  severity: z.number().int(),
  risk_level: riskLevel,
  usd: z.number().nonnegative(),
  share_pct: z.number(),
  weighted_share_pct: z.number(),
  min_hops: z.number().int(),
  entities: z.number().int(),
  paths: z.array(evidencePathSchema),
});

const remainderBodySchema = z.object({
  address: z.string(),
  /** 0: the checked address itself. */
  hops: z.number().int().min(0),
  /** Its counterparties in this direction the search did not follow. */
  counterparties: z.number().int().nonnegative(),
  /** The checked address's flow that reached them and was not traced further, in USD and percent. */
  usd: z.number().nonnegative(),
  share_pct: z.number().min(0).max(100),
  /** The address's whole flow with those counterparties, in USD. */
  remainder_usd: z.number().nonnegative(),
  /** The transfer graph keeps only the address's heaviest counterparties; the rest is one aggregated remainder. */
  super_node: z.boolean(),
});

/** Where the search stopped: at attributed services it did not follow, and at remainders it did not expand. */
export const exposureStopsBodySchema = z.object({
  services: z.array(
    z.object({
      address: z.string(),
      slug: z.string(),
      label: z.string().nullable(),
      hops: z.number().int().min(1),
      usd: z.number().nonnegative(),
      share_pct: z.number().min(0).max(100),
    }),
  ),
  services_total: z.number().int().nonnegative(),
  remainders: z.array(remainderBodySchema),
  remainders_total: z.number().int().nonnegative(),
  heaviest_remainder: remainderBodySchema.nullable(),
});
export type ExposureStopsBody = z.infer<typeof exposureStopsBodySchema>;

export const exposureBodySchema = z.object({
  applied: z.boolean(),
  reason: notAppliedReasonSchema.nullable(),
  complete: z.boolean().nullable(),
  stopped_by: z.string().nullable(),
  weighting: z.enum(['usd', 'transfer_count']).nullable(),
  total_usd: z.number().nonnegative().nullable(),
  total_transfers: z.number().int().nonnegative().nullable(),
  unattributed_pct: z.number().nullable(),
  usd_estimated: z.boolean(),
  search: z.object({ nodes: z.number().int(), edges: z.number().int(), hops: z.number().int(), elapsed_ms: z.number() }).nullable(),
  categories: z.array(exposureCategorySchema),
  /** null when the search did not run, and in results stored before the search reported its stops (served as null). */
  stops: exposureStopsBodySchema.nullable().optional(),
});
export type ExposureBody = z.infer<typeof exposureBodySchema>;

/** One route of exposure in the body's words. */
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
function stopsBody(stops: SearchStops | undefined): ExposureStopsBody | null {
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

export function exposureBody(applied: boolean, reason: NotAppliedReason | null, result: ExposureResult | null): ExposureBody {
  return {
    applied,
    reason,
    complete: result?.complete ?? null,
    stopped_by: result?.stoppedBy ?? null,
    weighting: result?.weighting ?? null,
    total_usd: result ? microsToUsd(result.totalUsdMicros) : null,
    total_transfers: result?.totalTransfers ?? null,
    unattributed_pct: result ? pct(result.unattributedShare) : null,
    usd_estimated: result?.usdEstimated ?? false,
    search: result
      ? { nodes: result.nodesVisited, edges: result.edgesScanned, hops: result.hopsReached, elapsed_ms: result.elapsedMs }
      : null,
    categories: (result?.categories ?? []).map((c: CategoryExposure) => ({
      slug: c.slug,
      severity: c.severity,
      // what this exposure makes of the address (exposure-rule.ts), not the category's own level
      risk_level: result ? exposureLevelOf(c, directionOf(result), result.weighting) : c.riskLevel,
      usd: microsToUsd(c.usdMicros),
      share_pct: pct(c.share),
      weighted_share_pct: pct(c.weightedShare),
      min_hops: c.minHops,
      entities: c.entities,
      paths: c.paths.map(pathBody),
    })),
    stops: result ? stopsBody(result.stops) : null,
  };
}
