import { z } from 'zod';
import { directionOf, exposureLevelOf, maxLevel } from '../address-check/exposure-rule.js';
import { exposureFoundOf, exposureFoundSchema } from '../exposure/exposure-found.js';
import type { ExposureResult } from '../exposure/exposure.schema.js';
import { RISK_LEVELS, type RiskLevel } from '../shared/verdict-vocabulary.js';

/**
 * The report of an explore job as a domain fact, what ExploreCompleted records (docs/ARCHITECTURE.md,
 * "Verdicts as domain facts"): who was explored in which direction and when, what each direction's search
 * found and how far it went, and the categories merged over directions, most severe first. `complete` is
 * true only when every search ran out of addresses within its budget. Money in micro-USD, shares as
 * fractions: the body's USD and percent are the presenter's (read-api/presenters/explore.presenter.ts).
 * `version` is this shape's: a change bumps it, and the event registry's upcaster reads the older one.
 */

export const EXPLORE_REPORT_VERSION = 1;

/** One category over every direction searched: its highest level for the address, its flow summed, its nearest hop. */
export const exploredCategorySchema = z.object({
  slug: z.string(),
  severity: z.number().int(),
  /** What exposure to the category makes of the address, by the full check's rule (exposure never past high). */
  addressLevel: z.enum(RISK_LEVELS),
  usdMicros: z.number().int().nonnegative(),
  minHops: z.number().int(),
});
export type ExploredCategory = z.infer<typeof exploredCategorySchema>;

export const exploreReportSchema = z.object({
  version: z.literal(EXPLORE_REPORT_VERSION),
  jobId: z.string(),
  reportId: z.string(),
  subject: z.object({ address: z.string(), network: z.string() }),
  direction: z.enum(['in', 'out', 'both']),
  complete: z.boolean(),
  categories: z.array(exploredCategorySchema),
  /** Null for a direction not searched. */
  incoming: exposureFoundSchema.nullable(),
  outgoing: exposureFoundSchema.nullable(),
  requestedAt: z.string(),
  completedAt: z.string(),
});
export type ExploreReport = z.infer<typeof exploreReportSchema>;

/** The categories of every search merged by slug: most severe first, then the heaviest, then by slug. */
function mergedCategories(searches: readonly ExposureResult[]): ExploredCategory[] {
  const merged = new Map<string, { slug: string; severity: number; addressLevel: RiskLevel; usdMicros: number; minHops: number }>();
  for (const search of searches) {
    for (const category of search.categories) {
      const level = exposureLevelOf(category, directionOf(search), search.weighting);
      const found = merged.get(category.slug);
      if (found) {
        found.usdMicros += category.usdMicros;
        found.minHops = Math.min(found.minHops, category.minHops);
        found.addressLevel = maxLevel(found.addressLevel, level);
      } else {
        const { slug, severity, usdMicros, minHops } = category;
        merged.set(slug, { slug, severity, addressLevel: level, usdMicros, minHops });
      }
    }
  }
  return [...merged.values()].sort((a, b) => b.severity - a.severity || b.usdMicros - a.usdMicros || (a.slug < b.slug ? -1 : 1));
}

export function buildExploreReport(input: {
  jobId: string;
  reportId: string;
  address: string;
  network: string;
  direction: ExploreReport['direction'];
  incoming: ExposureResult | null;
  outgoing: ExposureResult | null;
  requestedAt: string;
  completedAt: string;
}): ExploreReport {
  const searches = [input.incoming, input.outgoing].filter((r): r is ExposureResult => r !== null);
  return {
    version: EXPLORE_REPORT_VERSION,
    jobId: input.jobId,
    reportId: input.reportId,
    subject: { address: input.address, network: input.network },
    direction: input.direction,
    complete: searches.every((r) => r.complete),
    categories: mergedCategories(searches),
    incoming: input.incoming ? exposureFoundOf(input.incoming) : null,
    outgoing: input.outgoing ? exposureFoundOf(input.outgoing) : null,
    requestedAt: input.requestedAt,
    completedAt: input.completedAt,
  };
}
