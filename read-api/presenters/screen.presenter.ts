import type { ScreenedAddress, ScreenOutcome } from '../../commands/screen-address.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';
import type { SanctionList } from '../../domain/intel/intel.types.js';
import type { ScreenSummary } from '../../domain/intel/screen-summary.js';
import { screenSummaryOfV1 } from '../../domain/ledger/charged.upcast.js';
import type { CheckHistoryDoc } from '../../projections/check-history.projection.js';
import type { ScreenVerdictParts, SdnMatchBody } from '../schemas/screen-verdict.body.js';
import { screenVerdictParts, sdnMatchBody } from './screen-verdict.body.js';

/** Bumped when a field of the screen body changes meaning. */
export const SCREEN_SCHEMA_VERSION = 1;

/** The light screen's verdict body: who was screened, by which engine, and the spec's `coverage` and `verdict`. */
export type ScreenVerdictBody = {
  readonly schema_version: number;
  readonly address: string;
  readonly network: ScreenedAddress['subject']['network'];
  readonly provider: string;
} & ScreenVerdictParts;

/** The body around a domain verdict, in the order screens have always been served. */
export const screenVerdictBody = ({ subject, engine, screen }: ScreenedAddress): ScreenVerdictBody => ({
  schema_version: SCREEN_SCHEMA_VERSION,
  address: subject.address,
  network: subject.network,
  provider: engine,
  ...screenVerdictParts(screen),
});

/** The body of POST /v2/screen (without `elapsed_ms`, which the route adds). */
export type ScreenBody = ScreenVerdictBody & { readonly receipt?: string; readonly verdict_id?: string; readonly billing: BillingBody };

/** The verdict and its receipt: the x402 channel's screen (paid-route adds its billing); the CLI's `screen` line has no receipt. */
export const presentScreenVerdict = (verdict: ScreenedAddress, receipt?: string): Presented<ScreenVerdictBody & { receipt?: string }> => ({
  status: 200,
  body: receipt === undefined ? screenVerdictBody(verdict) : { ...screenVerdictBody(verdict), receipt },
});

/** An outcome stored before receipts existed (an Idempotency-Key replay) has none: the body then has no `receipt`. */
export const presentScreen = (outcome: ScreenOutcome): Presented<ScreenBody> => ({
  status: 200,
  body: {
    ...screenVerdictBody(outcome.verdict),
    ...(outcome.receipt === undefined ? {} : { receipt: outcome.receipt }),
    ...(outcome.verdictId === undefined ? {} : { verdict_id: outcome.verdictId }),
    billing: presentBilling(outcome.billing),
  },
});

/** A light screen's kept summary on the wire (GET /v2/verdicts/{id}'s `verdict`, the History's page): the verdict body's field names. */
export type ScreenSummaryBody = {
  readonly risk_level: ScreenSummary['addressLevel'];
  readonly risk_score: number | null;
  readonly confidence: number | null;
  readonly source_count: number;
  readonly label: string | null;
  readonly data_available: boolean;
  readonly sdn_match: SdnMatchBody | null;
  readonly categories: readonly { slug: string; risk_level: ScreenSummary['addressLevel'] }[];
  readonly sanctions_checked?: SanctionList[];
  readonly sanctions_not_checked?: SanctionList[];
};

/** The domain summary in the verdict body's names, in the order screens have always been served. */
export function presentScreenSummary(summary: ScreenSummary): ScreenSummaryBody {
  return {
    risk_level: summary.addressLevel,
    risk_score: summary.riskScore,
    confidence: summary.confidence,
    source_count: summary.sourceCount,
    label: summary.label,
    data_available: summary.dataAvailable,
    sdn_match: summary.sanctionsMatch && sdnMatchBody(summary.sanctionsMatch),
    categories: summary.categories.map((c) => ({ slug: c.slug, risk_level: c.addressLevel })),
    ...(summary.sanctionsChecked ? { sanctions_checked: summary.sanctionsChecked } : {}),
    ...(summary.sanctionsNotChecked ? { sanctions_not_checked: summary.sanctionsNotChecked } : {}),
  };
}

/** A History row's screen summary as a domain fact: its own, or the wire summary a row folded before kept. */
export const storedScreenSummary = (row: CheckHistoryDoc): ScreenSummary | undefined =>
  row.summary ?? (row.screen ? screenSummaryOfV1(row.screen) : undefined);
