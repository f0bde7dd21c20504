import type { TransferDelivery } from '../../commands/kyt/deliver-transfer-check.js';
import { transferResultUrl } from '../../commands/kyt/transfer-check.commands.js';
import { x402TransferResultPath, type X402TransferOutcome } from '../../commands/x402/x402-transfer-checks.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';

/** The 202 body: the check is running; fetch `retry_url`. */
export interface TransferRunningBody {
  readonly check_id: string;
  readonly status: 'running';
  readonly retry_url: string;
}
type TransferResultBody = Readonly<Record<string, unknown>>;

/** A result stored without the facts a receipt signs has no `receipt` field. */
const signed = (receipt: string | null) => (receipt === null ? {} : { receipt });

/** POST /v2/check-transfer and GET /v2/transfer/{check_id}/result: 202 running, 200 the result with its billing. */
export function presentTransferDelivery(
  outcome: TransferDelivery,
): Presented<TransferRunningBody | (TransferResultBody & { readonly billing: BillingBody })> {
  switch (outcome.kind) {
    case 'running':
      return { status: 202, body: { check_id: outcome.checkId, status: 'running', retry_url: transferResultUrl(outcome.checkId) } };
    case 'completed':
      return { status: 200, body: { ...outcome.result, ...signed(outcome.receipt), billing: presentBilling(outcome.billing) } };
  }
}

/** The x402 channel's transfer check: 202 running, 200 the result (paid-route adds billing). */
export function presentX402Transfer(outcome: X402TransferOutcome): Presented<TransferRunningBody | TransferResultBody> {
  switch (outcome.kind) {
    case 'running':
      return { status: 202, body: { check_id: outcome.checkId, status: 'running', retry_url: x402TransferResultPath(outcome.checkId) } };
    case 'completed':
      return { status: 200, body: { ...outcome.result, ...signed(outcome.receipt) } };
  }
}
