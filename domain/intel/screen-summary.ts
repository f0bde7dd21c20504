import { z } from 'zod';
import { SANCTIONS_JURISDICTIONS } from './intel.types.js';
import { sanctionsMatchSchema, type SanctionsMatch, type ScreenVerdict } from './screen-verdict.schema.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * What a charged light screen keeps of its verdict, in its Charged event's details (a domain fact, camel
 * case: read-api/presenters/screen.presenter.ts shapes the body), so that the account's History can show
 * its risk level and GET /v2/verdicts/{id} can serve it later (the whole verdict, labels included, is
 * recomputed on every call and never stored). Bumped (`version`) when a field changes meaning; Charged
 * events written before it was a domain fact kept the wire summary (domain/ledger/charged.upcast.ts).
 */
export const SCREEN_SUMMARY_VERSION = 1;

const riskLevel = z.enum(RISK_LEVELS);

export { sanctionsMatchSchema, type SanctionsMatch };

export const screenSummarySchema = z.object({
  version: z.literal(SCREEN_SUMMARY_VERSION),
  addressLevel: riskLevel.nullable(),
  riskScore: z.number().int().min(0).max(100).nullable(),
  confidence: z.number().int().min(0).max(100).nullable(),
  sourceCount: z.number().int().min(0),
  label: z.string().nullable(),
  dataAvailable: z.boolean(),
  sanctionsMatch: sanctionsMatchSchema.nullable(),
  categories: z.array(z.object({ slug: z.string(), addressLevel: riskLevel.nullable() })),
  /** The jurisdictions whose sanctions lists were checked, and those not (absent in screens kept before they were). */
  sanctionsChecked: z.array(z.enum(SANCTIONS_JURISDICTIONS)).optional(),
  sanctionsNotChecked: z.array(z.enum(SANCTIONS_JURISDICTIONS)).optional(),
});
export type ScreenSummary = z.infer<typeof screenSummarySchema>;

/** The level, score, sanctions match and categories of a verdict; not its labels (the bulk of it). */
export function screenSummaryOf({ verdict, coverage }: ScreenVerdict): ScreenSummary {
  return {
    version: SCREEN_SUMMARY_VERSION,
    addressLevel: verdict.addressLevel,
    riskScore: verdict.riskScore,
    confidence: verdict.confidence,
    sourceCount: verdict.sourceCount,
    label: verdict.label,
    dataAvailable: coverage.dataAvailable,
    sanctionsMatch: verdict.sanctionsMatch,
    categories: verdict.categoryDetail.map((c) => ({ slug: c.slug, addressLevel: c.addressLevel })),
    ...(coverage.sanctions
      ? { sanctionsChecked: [...coverage.sanctions.checked], sanctionsNotChecked: [...coverage.sanctions.notChecked] }
      : {}),
  };
}
