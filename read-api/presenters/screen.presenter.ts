import type { ScreenOutcome, ScreenVerdictBody } from '../../commands/screen-address.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';

/** The body of POST /v2/screen (without `elapsed_ms`, which the route adds). */
export type ScreenBody = ScreenVerdictBody & { readonly receipt?: string; readonly verdict_id?: string; readonly billing: BillingBody };

/** The verdict and its receipt: the x402 channel's screen (paid-route adds its billing); the CLI's `screen` line has no receipt. */
export const presentScreenVerdict = (
  verdict: ScreenVerdictBody,
  receipt?: string,
): Presented<ScreenVerdictBody & { receipt?: string }> => ({
  status: 200,
  body: receipt === undefined ? verdict : { ...verdict, receipt },
});

/** An outcome stored before receipts existed (an Idempotency-Key replay) has none: the body then has no `receipt`. */
export const presentScreen = (outcome: ScreenOutcome): Presented<ScreenBody> => ({
  status: 200,
  body: {
    ...outcome.verdict,
    ...(outcome.receipt === undefined ? {} : { receipt: outcome.receipt }),
    ...(outcome.verdictId === undefined ? {} : { verdict_id: outcome.verdictId }),
    billing: presentBilling(outcome.billing),
  },
});
