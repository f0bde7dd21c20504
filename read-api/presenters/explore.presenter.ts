import { exploreResultUrl, type ExploreAccepted, type ExploreDelivery } from '../../commands/explore.commands.js';
import { x402ExploreResultPath } from '../../commands/x402/x402-checks.js';
import type { ExploreReport } from '../../domain/explore/explore-report.js';
import type { ChargedBilling } from '../../domain/ledger/billing-envelope.js';
import { microsToUsd } from '../../domain/shared/money.js';
import type { ExploreReportBody } from '../schemas/explore.js';
import { exposureBody } from './exposure.presenter.js';
import type { Presented } from './presented.js';

export interface ExploreRunningBody {
  readonly job_id: string;
  readonly status: 'running';
  readonly result_url: string;
  readonly requested_at?: string;
}
type ReportBody = ExploreReportBody | (ExploreReportBody & { readonly billing: ChargedBilling });

/** A searched direction: explore runs every search it reports. */
const searched = (found: ExploreReport['incoming']) => (found ? exposureBody({ applied: true, reason: null, found }) : null);

/**
 * The explore job's domain report (ExploreCompleted) in the body's words, the 200 body on V2 (before its
 * billing) and on x402: USD (at most 6 decimals), percent, snake case. Pure: the same report is always the
 * same body.
 */
export function presentExploreReport(report: ExploreReport): ExploreReportBody {
  return {
    job_id: report.jobId,
    report_id: report.reportId,
    status: 'completed',
    address: report.subject.address,
    network: report.subject.network,
    direction: report.direction,
    complete: report.complete,
    categories: report.categories.map((c) => ({
      slug: c.slug,
      severity: c.severity,
      risk_level: c.addressLevel,
      min_hops: c.minHops,
      contribution_usd: microsToUsd(c.usdMicros),
    })),
    incoming: searched(report.incoming),
    outgoing: searched(report.outgoing),
    requested_at: report.requestedAt,
    completed_at: report.completedAt,
  };
}

/** POST /v2/explore: 202 with where to poll. */
export const presentExploreAccepted = (outcome: ExploreAccepted): Presented<{ readonly job_id: string; readonly result_url: string }> => ({
  status: 202,
  body: { job_id: outcome.jobId, result_url: exploreResultUrl(outcome.jobId) },
});

/** POST /explore on x402 (paid): 202 with the free result URL. */
export const presentX402ExploreAccepted = (outcome: ExploreAccepted): Presented<ExploreRunningBody> => ({
  status: 202,
  body: { job_id: outcome.jobId, status: 'running', result_url: x402ExploreResultPath(outcome.jobId) },
});

/** An explore job's result: 202 running, 200 the report (with its billing on V2). `urlPrefix`: '/v2', or '' on x402. */
export function presentExploreDelivery(outcome: ExploreDelivery, urlPrefix = '/v2'): Presented<ExploreRunningBody | ReportBody> {
  switch (outcome.kind) {
    case 'running':
      return {
        status: 202,
        body: {
          job_id: outcome.jobId,
          status: 'running',
          result_url: exploreResultUrl(outcome.jobId, urlPrefix),
          requested_at: outcome.requestedAt,
        },
      };
    case 'completed': {
      const report = presentExploreReport(outcome.report);
      return { status: 200, body: outcome.billing === null ? report : { ...report, billing: outcome.billing } };
    }
  }
}
