import { z } from 'zod';
import { SANCTIONS_JURISDICTIONS } from './intel.types.js';
import { sdnMatchSchema, type ScreenCoverage, type VerdictBody } from './screen-verdict.schema.js';
import { RISK_LEVELS } from '../shared/verdict-vocabulary.js';

/**
 * What a charged light screen keeps of its verdict, in its Charged event's details, so that the account's
 * History can show its risk level and open it later (the whole verdict is recomputed on every call and
 * never stored). Field names are the verdict body's, so the pages read it as they read a verdict.
 */
const riskLevel = z.enum(RISK_LEVELS);

export const screenSummarySchema = z.object({
  risk_level: riskLevel.nullable(),
  risk_score: z.number().int().min(0).max(100).nullable(),
  confidence: z.number().int().min(0).max(100).nullable(),
  source_count: z.number().int().min(0),
  label: z.string().nullable(),
  data_available: z.boolean(),
  sdn_match: sdnMatchSchema.nullable(),
  categories: z.array(z.object({ slug: z.string(), risk_level: riskLevel.nullable() })),
  /** The jurisdictions whose sanctions lists were checked, and those not (absent in screens kept before). */
  sanctions_checked: z.array(z.enum(SANCTIONS_JURISDICTIONS)).optional(),
  sanctions_not_checked: z.array(z.enum(SANCTIONS_JURISDICTIONS)).optional(),
});
export type ScreenSummary = z.infer<typeof screenSummarySchema>;

/** The level, score, sanctions match and categories of a verdict; not its labels (the bulk of it). */
export function screenSummaryOf(verdict: VerdictBody, coverage: Pick<ScreenCoverage, 'data_available' | 'sanctions'>): ScreenSummary {
  const dataAvailable = coverage.data_available;
  return {
    risk_level: verdict.risk_level,
    risk_score: verdict.risk_score,
    confidence: verdict.confidence,
    source_count: verdict.source_count,
    label: verdict.label,
    data_available: dataAvailable,
    sdn_match: verdict.sdn_match,
    categories: verdict.risk_category_detail.map((c) => ({ slug: c.slug, risk_level: c.risk_level })),
    sanctions_checked: [...coverage.sanctions.checked],
    sanctions_not_checked: [...coverage.sanctions.not_checked],
  };
}
