import { z } from 'zod';
import type { RiskLevel } from '../intel/taxonomy.js';
import { RISK_LEVELS, rankOfRisk } from '../shared/verdict-vocabulary.js';

/**
 * Our reading of one provider's answer, on the service's own scale, so that answers in different
 * vocabularies (boolean flags, sanctions identifications, a consensus verdict) can be compared. The
 * provider's raw answer is kept beside it, unchanged.
 */
export { RISK_LEVELS };

export const providerAssessmentSchema = z.object({
  /** `none` means the provider found no risk signal, not that the address is clean. */
  risk_level: z.enum(RISK_LEVELS),
  /** The provider names a sanctions designation of the address. */
  sanctioned: z.boolean(),
  /** Category slugs of the service's taxonomy that the answer maps to. */
  risk_categories: z.array(z.string()),
  /** The provider's own signals behind the reading (flag names, list names), for the audit trail. */
  signals: z.array(z.string()),
  summary: z.string(),
});

export type ProviderAssessment = z.infer<typeof providerAssessmentSchema>;

export const levelRank = (level: RiskLevel): number => rankOfRisk(level);

export const worstLevel = (levels: readonly RiskLevel[]): RiskLevel =>
  levels.reduce<RiskLevel>((worst, level) => (levelRank(level) > levelRank(worst) ? level : worst), 'none');

/** A provider "raises a risk" from medium up; `low` (an exchange, a bridge) is context, not a warning. */
export const raisesRisk = (assessment: Pick<ProviderAssessment, 'risk_level'>): boolean =>
  levelRank(assessment.risk_level) >= levelRank('medium');
