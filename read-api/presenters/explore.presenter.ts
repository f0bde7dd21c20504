import { exploreResultUrl, type ExploreAccepted, type ExploreDelivery } from '../../commands/explore.commands.js';
import { x402ExploreResultPath } from '../../commands/x402/x402-checks.js';
import type { ExploreReport } from '../../domain/explore/explore-report.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import { exploreReportWithStops } from './exposure-stops.presenter.js';
import type { Presented } from './presented.js';

export interface ExploreRunningBody {
  readonly job_id: string;
  readonly status: 'running';
  readonly result_url: string;
  readonly requested_at?: string;
}
type ReportBody = ExploreReport | (ExploreReport & { readonly billing: BillingBody });

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
      const report = exploreReportWithStops(outcome.report);
      return { status: 200, body: outcome.billing === null ? report : { ...report, billing: presentBilling(outcome.billing) } };
    }
  }
}
