import { describe, expect, it } from 'vitest';
import { levelBadge } from '../dashboard/workbench/format.js';
import { SCREEN_EXAMPLE } from './examples.js';
import { pageVocabularyViolations, vocabularyViolations } from './vocabulary-contract.js';

describe('bodies and pages use only the words of the verdict vocabulary', () => {
  it('a real screen body passes; a word from another scale, or none at all, is named with its place', () => {
    expect(vocabularyViolations(SCREEN_EXAMPLE)).toEqual([]);
    expect(vocabularyViolations({ verdict: { risk_level: 'severe' } })).toEqual([
      '$.verdict.risk_level: "severe" is not one of none, low, medium, high, critical, sanctioned',
    ]);
    // the examples the x402 offers once carried: a decision and an action no product says
    expect(vocabularyViolations({ decision: 'block' })).toHaveLength(1);
    expect(vocabularyViolations({ policy_result: { recommended_action: 'allow', worst_level: 'severe' } })).toHaveLength(2);
  });

  it('each field is held to its own scale: the composite, alert cases, the high-risk webhook, the inspect audit', () => {
    expect(vocabularyViolations({ composite_result: { risk_level: 'severe' } })).toEqual([]);
    expect(vocabularyViolations({ composite_result: { risk_level: 'critical' } })).toHaveLength(1);
    expect(vocabularyViolations({ alerts: [{ alert_index: 0, risk_level: 'Severe', alert: { riskLevel: 'Severe' } }] })).toEqual([]);
    expect(vocabularyViolations({ check_id: 'c', tier_hit: 0, risk_level: 'severe' })).toEqual([]);
    expect(vocabularyViolations({ audit: { decision: 'do_not_deal', can_deal: false, worst_risk_level: 'sanctioned' } })).toEqual([]);
    expect(
      vocabularyViolations({
        categories: [
          { slug: 'mixer', level: 'medium' },
          { slug: 'x', level: 'critical' },
        ],
      }),
    ).toEqual(['$.categories.1.level: "critical" is not one of info, low, medium, high, severe']);
  });

  it('a page’s level badges are words of the table', () => {
    expect(pageVocabularyViolations(`${levelBadge('sanctioned').value}${levelBadge('Severe').value}${levelBadge(null).value}`)).toEqual([]);
    expect(pageVocabularyViolations(levelBadge('dangerous').value)).toEqual([
      'a level badge says "dangerous", which is not in the verdict vocabulary',
    ]);
  });
});
