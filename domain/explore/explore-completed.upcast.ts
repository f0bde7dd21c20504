import { exposureFoundOfV1, microsOfUsd, type ExposureV1 } from '../exposure/exposure-body.v1.js';
import type { RiskLevel } from '../shared/verdict-vocabulary.js';
import { EXPLORE_REPORT_VERSION, type ExploreReport } from './explore-report.js';

/**
 * ExploreCompleted version 1 → 2. Version 1 (written until explore reports were domain facts) stored the
 * 200 body itself (without billing), `{ report, at }`: snake case, USD and percent. Version 2 stores the
 * domain report (explore-report.ts). The body is read back exactly (USD to micro-USD, percent to
 * fractions, as ../exposure/exposure-body.v1.ts reads them), so an old job is served the body it was
 * served before (test/e2e/stored-explores.e2e.test.ts holds it to that, on events today's code wrote
 * before this). A body stored before the search reported its stops has none: its report's are null.
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 */

/** The explore job's 200 body as version 1 of ExploreCompleted stored it (without billing). */
export interface ExploreReportV1 {
  job_id: string;
  report_id: string;
  status: 'completed';
  address: string;
  network: string;
  direction: ExploreReport['direction'];
  complete: boolean;
  categories: { slug: string; severity: number; risk_level: RiskLevel; contribution_usd: number; min_hops: number }[];
  incoming: ExposureV1 | null;
  outgoing: ExposureV1 | null;
  requested_at: string;
  completed_at: string;
}

/** An explore job ran every search it reports: a stored direction always has its search's figures. */
function searchOf(body: ExposureV1 | null): ExploreReport['incoming'] {
  if (body === null) return null;
  const found = exposureFoundOfV1(body);
  if (found === null) throw new Error('a stored explore report has a direction without its search');
  return found;
}

/** The stored body of version 1 as the domain report it states. */
export function exploreReportOfV1(body: ExploreReportV1): ExploreReport {
  return {
    version: EXPLORE_REPORT_VERSION,
    jobId: body.job_id,
    reportId: body.report_id,
    subject: { address: body.address, network: body.network },
    direction: body.direction,
    complete: body.complete,
    categories: body.categories.map((c) => ({
      slug: c.slug,
      severity: c.severity,
      addressLevel: c.risk_level,
      usdMicros: microsOfUsd(c.contribution_usd),
      minHops: c.min_hops,
    })),
    incoming: searchOf(body.incoming),
    outgoing: searchOf(body.outgoing),
    requestedAt: body.requested_at,
    completedAt: body.completed_at,
  };
}

/** The registry's upcaster of ExploreCompleted from version 1 (pure: the stored data in, version 2's data out). */
export function exploreCompletedV1toV2(data: unknown): unknown {
  const { report, at } = data as { report: ExploreReportV1; at: string };
  return { report: exploreReportOfV1(report), at };
}
