import { z } from 'zod';
import { exposureBody, exposureBodySchema } from '../exposure/exposure.body.js';
import type { ExposureResult } from '../exposure/exposure.schema.js';
import { microsToUsd } from '../shared/money.js';
import { directionOf, exposureLevelOf, maxLevel } from '../address-check/exposure-rule.js';
import { RISK_LEVELS, type RiskLevel } from '../shared/verdict-vocabulary.js';

/**
 * The report of an explore job (the 200 body of GET /explore/{job_id}/result, billing aside): the
 * exposure of each direction searched, and the categories merged over directions with their USD
 * contribution, most severe first. `complete` is true only when every search ran out of addresses
 * within its budget.
 */

export const exploreReportSchema = z.object({
  job_id: z.string(),
  report_id: z.string(),
  status: z.literal('completed'),
  address: z.string(),
  network: z.string(),
  direction: z.enum(['in', 'out', 'both']),
  complete: z.boolean(),
  categories: z.array(
    z.object({
      slug: z.string(),
      severity: z.number().int(),
      /** What exposure to the category makes of the address, by the full check's rule (exposure never past high). */
      risk_level: z.enum(RISK_LEVELS),
      contribution_usd: z.number().nonnegative(),
      min_hops: z.number().int(),
    }),
  ),
  incoming: exposureBodySchema.nullable(),
  outgoing: exposureBodySchema.nullable(),
  requested_at: z.string(),
  completed_at: z.string(),
});
export type ExploreReport = z.infer<typeof exploreReportSchema>;

export function buildExploreReport(input: {
  jobId: string;
  reportId: string;
  address: string;
  network: string;
  direction: 'in' | 'out' | 'both';
  incoming: ExposureResult | null;
  outgoing: ExposureResult | null;
  requestedAt: string;
  completedAt: string;
}): ExploreReport {
  const searches = [input.incoming, input.outgoing].filter((r): r is ExposureResult => r !== null);
  const merged = new Map<string, { slug: string; severity: number; risk_level: RiskLevel; micros: number; min_hops: number }>();
  for (const search of searches) {
    for (const category of search.categories) {
      const level = exposureLevelOf(category, directionOf(search), search.weighting);
      const found = merged.get(category.slug);
      if (found) {
        found.micros += category.usdMicros;
        found.min_hops = Math.min(found.min_hops, category.minHops);
        found.risk_level = maxLevel(found.risk_level, level);
      } else {
        merged.set(category.slug, {
          slug: category.slug,
          severity: category.severity,
          risk_level: level,
          micros: category.usdMicros,
          min_hops: category.minHops,
        });
      }
    }
  }
  const categories = [...merged.values()]
    .sort((a, b) => b.severity - a.severity || b.micros - a.micros || (a.slug < b.slug ? -1 : 1))
    .map(({ micros, ...rest }) => ({ ...rest, contribution_usd: microsToUsd(micros) }));
  return {
    job_id: input.jobId,
    report_id: input.reportId,
    status: 'completed',
    address: input.address,
    network: input.network,
    direction: input.direction,
    complete: searches.every((r) => r.complete),
    categories,
    incoming: input.incoming ? exposureBody(true, null, input.incoming) : null,
    outgoing: input.outgoing ? exposureBody(true, null, input.outgoing) : null,
    requested_at: input.requestedAt,
    completed_at: input.completedAt,
  };
}
