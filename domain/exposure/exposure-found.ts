import { z } from 'zod';
import { directionOf, exposureLevelOf } from '../address-check/exposure-rule.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';
import { exposurePathSchema, searchStopsSchema, type CategoryExposure, type ExposureResult } from './exposure.schema.js';

/**
 * What one direction's exposure search found, as the verdicts that ran one record it (the full check's
 * exposure outcomes, an explore job's report): micro-USD and shares as fractions, each category with the
 * level that exposure makes of the address (exposure-rule.ts). The bodies' USD and percent are the
 * presenters' (read-api/presenters/exposure.presenter.ts).
 */

/** One risk category the search reached, with the level that exposure makes of the address. */
export const exposedCategorySchema = z.object({
  slug: z.string(),
  severity: z.number().int(),
  addressLevel: z.enum(RISK_LEVELS),
  usdMicros: z.number().int().nonnegative(),
  share: z.number(),
  weightedShare: z.number(),
  minHops: z.number().int(),
  entities: z.number().int(),
  paths: z.array(exposurePathSchema),
});

/** What one direction's search found and how far it went. */
export const exposureFoundSchema = z.object({
  complete: z.boolean(),
  stoppedBy: z.string().nullable(),
  weighting: z.enum(['usd', 'transfer_count']),
  totalUsdMicros: z.number().int().nonnegative(),
  totalTransfers: z.number().int().nonnegative(),
  unattributedShare: z.number(),
  usdEstimated: z.boolean(),
  nodesVisited: z.number().int(),
  edgesScanned: z.number().int(),
  hopsReached: z.number().int(),
  elapsedMs: z.number(),
  categories: z.array(exposedCategorySchema),
  /** Null in verdicts recorded before the search reported where it stopped. */
  stops: searchStopsSchema.nullable(),
});
export type ExposureFound = z.infer<typeof exposureFoundSchema>;

/** What one direction's search found, with the level each category makes of the address (exposure-rule.ts). */
export function exposureFoundOf(result: ExposureResult): ExposureFound {
  return {
    complete: result.complete,
    stoppedBy: result.stoppedBy,
    weighting: result.weighting,
    totalUsdMicros: result.totalUsdMicros,
    totalTransfers: result.totalTransfers,
    unattributedShare: result.unattributedShare,
    usdEstimated: result.usdEstimated,
    nodesVisited: result.nodesVisited,
    edgesScanned: result.edgesScanned,
    hopsReached: result.hopsReached,
    elapsedMs: result.elapsedMs,
    categories: result.categories.map((c: CategoryExposure) => ({
      slug: c.slug,
      severity: c.severity,
      // what this exposure makes of the address (exposure-rule.ts), not the category's own level
      addressLevel: exposureLevelOf(c, directionOf(result), result.weighting),
      usdMicros: c.usdMicros,
      share: c.share,
      weightedShare: c.weightedShare,
      minHops: c.minHops,
      entities: c.entities,
      paths: [...c.paths],
    })),
    stops: result.stops ?? null,
  };
}
