import type { ScreenOutcome, ScreenVerdictBody } from '../../commands/screen-address.js';
import type { ChargedBilling } from '../../domain/ledger/billing-envelope.js';
import type { Presented } from './presented.js';

/** The body of POST /v2/screen (without `elapsed_ms`, which the route adds). */
export type ScreenBody = ScreenVerdictBody & { readonly billing: ChargedBilling };

/** The verdict alone: the x402 channel's screen (paid-route adds its billing) and the CLI's `screen` line. */
export const presentScreenVerdict = (verdict: ScreenVerdictBody): Presented<ScreenVerdictBody> => ({ status: 200, body: verdict });

export const presentScreen = (outcome: ScreenOutcome): Presented<ScreenBody> => ({
  status: 200,
  body: { ...outcome.verdict, billing: outcome.billing },
});
