import type { SanctionList } from '../intel/intel.types.js';
import { SCREEN_SUMMARY_VERSION, type ScreenSummary } from '../intel/screen-summary.js';
import { sanctionsMatchOfV1, type SanctionsMatchV1 } from '../intel/screen-verdict.v1.js';
import { detachedReceiptOfCompact, type DetachedReceipt } from '../receipts/detached-receipt.js';
import type { RiskLevel } from '../shared/verdict-vocabulary.js';

/**
 * Charged version 1 → 2. Version 1 (written until a light screen's stored verdict was a domain fact) kept
 * in a screen's `details` the summary in the response body's shape (snake case) and the receipt as the
 * compact JWS. Version 2 keeps the domain summary (domain/intel/screen-summary.ts) and the receipt
 * detached (domain/receipts/detached-receipt.ts), from which the very same compact JWS is rebuilt
 * (test/e2e/stored-screens.e2e.test.ts serves version 1 screens byte for byte). Charges of other products
 * are unchanged.
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 */
export interface ScreenSummaryV1 {
  risk_level: RiskLevel | null;
  risk_score: number | null;
  confidence: number | null;
  source_count: number;
  label: string | null;
  data_available: boolean;
  sdn_match: SanctionsMatchV1 | null;
  categories: { slug: string; risk_level: RiskLevel | null }[];
  sanctions_checked?: SanctionList[];
  sanctions_not_checked?: SanctionList[];
}

/** A version 1 summary (a charge's, or a History row folded from one) as the domain summary it states. */
export function screenSummaryOfV1(v1: ScreenSummaryV1): ScreenSummary {
  const match = v1.sdn_match;
  return {
    version: SCREEN_SUMMARY_VERSION,
    addressLevel: v1.risk_level,
    riskScore: v1.risk_score,
    confidence: v1.confidence,
    sourceCount: v1.source_count,
    label: v1.label,
    dataAvailable: v1.data_available,
    sanctionsMatch: match && sanctionsMatchOfV1(match),
    categories: v1.categories.map((c) => ({ slug: c.slug, addressLevel: c.risk_level })),
    ...(v1.sanctions_checked ? { sanctionsChecked: v1.sanctions_checked } : {}),
    ...(v1.sanctions_not_checked ? { sanctionsNotChecked: v1.sanctions_not_checked } : {}),
  };
}

/** The registry's upcaster of Charged from version 1 (pure: the stored data in, version 2's data out). */
export function chargedV1toV2(data: unknown): unknown {
  const charged = data as { details: { screen?: ScreenSummaryV1; receipt?: string } };
  const { screen, receipt, ...details } = charged.details;
  if (screen === undefined && receipt === undefined) return data;
  // A receipt that is not a compact JWS of a statement was never written by this service: it is dropped.
  const detached: DetachedReceipt | null = receipt === undefined ? null : detachedReceiptOfCompact(receipt);
  return {
    ...charged,
    details: { ...details, ...(screen ? { screen: screenSummaryOfV1(screen) } : {}), ...(detached ? { receipt: detached } : {}) },
  };
}

/**
 * Charged version 2 → 3. Version 3 keeps a light screen's receipt short when the charge's facts give back
 * its statement (domain/receipts/charged-screen-receipt.ts), which a version 2 reader could not read; the
 * receipt version 2 kept (statement and detached JWS whole) is still one of version 3's two forms, so its
 * data is read unchanged (rewriting it here would cost a hash per charge on every ledger fold).
 */
export const chargedV2toV3 = (data: unknown): unknown => data;
