import { checkResultUrl, type CheckAccepted, type CheckDelivery } from '../../commands/address-check.commands.js';
import { x402CheckResultPath, type X402CheckOutcome } from '../../commands/x402/x402-checks.js';
import type { FullCheckResult } from '../schemas/full-check-result.schema.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import { presentFullCheck } from './full-check.presenter.js';
import type { Presented } from './presented.js';

export interface CheckAcceptedBody {
  readonly check_id: string;
  readonly result_url: string;
}
export interface CheckRunningBody {
  readonly check_id: string;
  readonly status: 'running';
  readonly result_url: string;
  readonly requested_at: string;
}

/** POST /v2/check-address: 202 with where to poll. */
export const presentCheckAccepted = (outcome: CheckAccepted): Presented<CheckAcceptedBody> => ({
  status: 202,
  body: { check_id: outcome.checkId, result_url: checkResultUrl(outcome.checkId) },
});

/** GET /v2/check-address/{check_id}/result: 202 running, 200 the verdict with its billing. */
export function presentCheckDelivery(
  outcome: CheckDelivery,
): Presented<CheckRunningBody | (FullCheckResult & { readonly receipt: string; readonly billing: BillingBody })> {
  switch (outcome.kind) {
    case 'running':
      return {
        status: 202,
        body: {
          check_id: outcome.checkId,
          status: 'running',
          result_url: checkResultUrl(outcome.checkId),
          requested_at: outcome.requestedAt,
        },
      };
    case 'completed':
      return {
        status: 200,
        body: { ...presentFullCheck(outcome.verdict), receipt: outcome.receipt, billing: presentBilling(outcome.billing) },
      };
  }
}

/** The x402 channel's full check (paid call and free result fetch): 202 running, 200 the verdict (paid-route adds billing). */
export function presentX402Check(
  outcome: X402CheckOutcome,
): Presented<CheckRunningBody | (FullCheckResult & { readonly receipt: string })> {
  switch (outcome.kind) {
    case 'running':
      return {
        status: 202,
        body: {
          check_id: outcome.checkId,
          status: 'running',
          result_url: x402CheckResultPath(outcome.checkId),
          requested_at: outcome.requestedAt,
        },
      };
    case 'completed':
      return { status: 200, body: { ...presentFullCheck(outcome.verdict), receipt: outcome.receipt } };
  }
}
