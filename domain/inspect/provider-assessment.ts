import { z } from 'zod';
import type { RiskLevel } from '../intel/taxonomy.js';

/**
 * Our reading of one provider's answer, on the service's own scale, so that answers in different
 * vocabularies (boolean flags, sanctions identifications, a consensus verdict) can be compared. The
 * provider's raw answer is kept beside it, unchanged.
 */
export const RISK_LEVELS = ['none', 'low', 'medium', 'high', 'critical', 'sanctioned'] as const satisfies readonly RiskLevel[];

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

const RANK: Readonly<Record<RiskLevel, number>> = { none: 0, low: 1, medium: 2, high: 3, critical: 4, sanctioned: 5 };

export const levelRank = (level: RiskLevel): number => RANK[level];

export const worstLevel = (levels: readonly RiskLevel[]): RiskLevel =>
  levels.reduce<RiskLevel>((worst, level) => (RANK[level] > RANK[worst] ? level : worst), 'none');

/** A provider "raises a risk" from medium up; `low` (an exchange, a bridge) is context, not a warning. */
export const raisesRisk = (assessment: Pick<ProviderAssessment, 'risk_level'>): boolean => RANK[assessment.risk_level] >= RANK.medium;
