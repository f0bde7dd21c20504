import { z } from 'zod';
import { INSPECT_DECISIONS, type InspectDecision } from '../shared/verdict-vocabulary.js';
import { levelRank, raisesRisk, RISK_LEVELS, worstLevel, type ProviderAssessment } from './provider-assessment.js';

/**
 * The synthesized final audit of a multi-provider inspect: can the address be dealt with, would a major
 * exchange flag funds from it, and how many providers agree. Rules, in order:
 *
 * 1. any answering provider names a sanctions designation → `do_not_deal` (sanctions are strict
 *    liability: one authoritative hit is enough, whatever the others say);
 * 2. more than half of the answering providers rate the address high or critical → `do_not_deal`;
 * 3. any answering provider raises a risk (medium or above) → `review`;
 * 4. otherwise → `deal` (no provider found a risk signal; that is not proof the address is clean).
 *
 * An exchange would flag funds when any provider reports a sanctions designation, a high or critical
 * rating, or a category exchanges alert on even at medium level (mixers). Each answering provider takes
 * a stance, `risk` (it raised a risk) or `no_signal`; the audit's own stance is `risk` unless the
 * decision is `deal`, and providers whose stance differs are listed as disagreements.
 */

/** The audit's decision words (the verdict vocabulary's inspect column). */
export const DECISIONS = INSPECT_DECISIONS;
export type Decision = InspectDecision;
export type Stance = 'risk' | 'no_signal';

/** Categories that exchanges' deposit screening alerts on even below high level. */
const EXCHANGE_ALERT_CATEGORIES = new Set(['mixer', 'sanctions', 'sanctioned_jurisdiction']);

export const finalAuditSchema = z.object({
  decision: z.enum(DECISIONS),
  can_deal: z.boolean(),
  exchange_would_flag: z.boolean(),
  sanctioned: z.boolean(),
  worst_risk_level: z.enum(RISK_LEVELS),
  risk_categories: z.array(z.string()),
  providers_answered: z.number().int().nonnegative(),
  providers_failed: z.number().int().nonnegative(),
  providers_agreeing: z.number().int().nonnegative(),
  stance: z.enum(['risk', 'no_signal']),
  disagreements: z.array(
    z.object({
      provider: z.string(),
      stance: z.enum(['risk', 'no_signal']),
      risk_level: z.enum(RISK_LEVELS),
      risk_categories: z.array(z.string()),
    }),
  ),
  reasons: z.array(z.string()),
});

export type FinalAudit = z.infer<typeof finalAuditSchema>;

export interface AnsweredProvider {
  readonly provider: string;
  readonly assessment: ProviderAssessment;
}

const stanceOf = (assessment: ProviderAssessment): Stance => (raisesRisk(assessment) ? 'risk' : 'no_signal');
const isSevere = (assessment: ProviderAssessment): boolean => levelRank(assessment.risk_level) >= levelRank('high');

function decide(answered: readonly AnsweredProvider[]): { decision: Decision; reasons: string[] } {
  const sanctionedBy = answered.filter((a) => a.assessment.sanctioned);
  if (sanctionedBy.length > 0) {
    return { decision: 'do_not_deal', reasons: sanctionedBy.map((a) => `${a.provider}: ${a.assessment.summary}`) };
  }
  const severeBy = answered.filter((a) => isSevere(a.assessment));
  if (severeBy.length * 2 > answered.length) {
    return { decision: 'do_not_deal', reasons: severeBy.map((a) => `${a.provider}: ${a.assessment.summary}`) };
  }
  const riskBy = answered.filter((a) => raisesRisk(a.assessment));
  if (riskBy.length > 0) return { decision: 'review', reasons: riskBy.map((a) => `${a.provider}: ${a.assessment.summary}`) };
  return { decision: 'deal', reasons: ['no provider found a risk signal (not proof that the address is clean)'] };
}

/** The audit of the providers that answered; `failed` counts those that did not (they take no stance). */
export function synthesizeAudit(answered: readonly AnsweredProvider[], failed: number): FinalAudit {
  const { decision, reasons } = decide(answered);
  const stance: Stance = decision === 'deal' ? 'no_signal' : 'risk';
  const categories = [...new Set(answered.flatMap((a) => a.assessment.risk_categories))].sort();
  const disagreeing = answered.filter((a) => stanceOf(a.assessment) !== stance);
  return {
    decision,
    can_deal: decision === 'deal',
    exchange_would_flag: answered.some(
      (a) =>
        a.assessment.sanctioned || isSevere(a.assessment) || a.assessment.risk_categories.some((c) => EXCHANGE_ALERT_CATEGORIES.has(c)),
    ),
    sanctioned: answered.some((a) => a.assessment.sanctioned),
    worst_risk_level: worstLevel(answered.map((a) => a.assessment.risk_level)),
    risk_categories: categories,
    providers_answered: answered.length,
    providers_failed: failed,
    providers_agreeing: answered.length - disagreeing.length,
    stance,
    disagreements: disagreeing.map((a) => ({
      provider: a.provider,
      stance: stanceOf(a.assessment),
      risk_level: a.assessment.risk_level,
      risk_categories: a.assessment.risk_categories,
    })),
    reasons,
  };
}
