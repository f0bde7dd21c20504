import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TAXONOMY, categoryOf } from '../intel/taxonomy.js';
import { evaluateFacts, type PolicyFact } from '../kyt/policy-engine.js';
import { RULE_TYPES, type Policy } from '../kyt/policy.types.js';
import { STANDARD_POLICY } from '../kyt/standard-policy.js';
import { startBacktest, type RecordedCheck } from './backtest.js';

/**
 * The backtest's contract: applied to the checks a policy judged, the same policy reproduces exactly the
 * alerts they raised (by rule and level, no difference), whatever the facts; and a policy that differs
 * is reported against the baseline exactly as the two policies' own outcomes differ.
 */
const SLUGS = ['sanctions', 'mixer', 'scam', 'gambling', 'stolen_funds', 'darknet_market', 'exchange', 'address_poisoning'];

const factArb: fc.Arbitrary<PolicyFact> = fc
  .record({
    slug: fc.constantFrom(...SLUGS),
    ruleType: fc.constantFrom(...RULE_TYPES),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    usdMicros: fc.integer({ min: 0, max: 100_000_000_000 }),
  })
  .map(({ slug, ruleType, share, usdMicros }) => {
    const definition = categoryOf(TAXONOMY, slug)!;
    return {
      ruleType,
      slug,
      share,
      usdMicros,
      displayName: definition.displayName,
      level: definition.level,
      entityName: null,
      anchor: { address: '0xa', label: null },
      senders: ['0xa'],
    };
  });
// A check has at most one fact per (rule type, category), as the composite gives.
const factsArb = fc.uniqueArray(factArb, { maxLength: 6, selector: (f) => `${f.ruleType}|${f.slug}` });

const policyArb: fc.Arbitrary<Policy> = fc
  .array(fc.record({ share: fc.integer({ min: 0, max: 50 }), usd: fc.integer({ min: 0, max: 50_000 }), drop: fc.boolean() }), {
    minLength: STANDARD_POLICY.rules.length,
    maxLength: STANDARD_POLICY.rules.length,
  })
  .map((tweaks) => ({
    ...STANDARD_POLICY,
    name: 'tuned',
    version: '1',
    rules: STANDARD_POLICY.rules
      .filter((_, i) => !tweaks[i]!.drop)
      .map((rule, i) => ({ ...rule, minSharePercent: tweaks[i]!.share, minUsd: tweaks[i]!.usd })),
  }));

/** A check as the pipeline records it: the facts and the alerts the policy in force raised. */
function recorded(policy: Policy, facts: readonly PolicyFact[], i: number): RecordedCheck {
  const outcome = evaluateFacts(policy, facts);
  return {
    checkId: `check-${i}`,
    checkedAt: `2026-11-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
    facts,
    raised: outcome.alerts.map((alert, k) => ({
      ruleId: outcome.matches[k]!.ruleId,
      slug: outcome.matches[k]!.categorySlug,
      ruleType: alert.ruleType,
      level: alert.riskLevel,
    })),
  };
}

describe('backtest', () => {
  it('of the policy that raised the alerts reproduces exactly those alerts', () => {
    fc.assert(
      fc.property(policyArb, fc.array(factsArb, { maxLength: 30 }), (policy, checks) => {
        const backtest = startBacktest(policy, policy);
        checks.forEach((facts, i) => backtest.add(recorded(policy, facts, i), []));
        const report = backtest.report();
        expect(report.candidate).toEqual(report.raised);
        expect(report.versusRaised).toEqual({ new: 0, lost: 0, changedLevel: 0, checksAffected: 0 });
        expect(report.examples).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('reports against the baseline exactly the alerts the two policies disagree on', () => {
    fc.assert(
      fc.property(policyArb, fc.array(factsArb, { maxLength: 20 }), (candidate, checks) => {
        const backtest = startBacktest(candidate, STANDARD_POLICY);
        let expectedNew = 0;
        let expectedLost = 0;
        checks.forEach((facts, i) => {
          backtest.add(recorded(STANDARD_POLICY, facts, i), []);
          const key = (p: Policy) => new Set(evaluateFacts(p, facts).alerts.map((a) => `${a.ruleType}|${a.category}`));
          const [after, before] = [key(candidate), key(STANDARD_POLICY)];
          expectedNew += [...after].filter((k) => !before.has(k)).length;
          expectedLost += [...before].filter((k) => !after.has(k)).length;
        });
        const report = backtest.report();
        expect(report.versusBaseline.new).toBe(expectedNew);
        expect(report.versusBaseline.lost).toBe(expectedLost);
        expect(report.baseline).toEqual(report.raised);
      }),
      { numRuns: 200 },
    );
  });

  it('counts the analysts’ outcomes: flagged still alerted, dismissed no longer raised', () => {
    const mixer: PolicyFact = {
      ruleType: 'Origin of funds / Indirect',
      slug: 'mixer',
      displayName: 'Mixer',
      level: categoryOf(TAXONOMY, 'mixer')!.level,
      share: 0.12,
      usdMicros: 2_000_000_000,
      entityName: null,
      anchor: { address: '0xa', label: null },
      senders: ['0xa'],
    };
    const stricter: Policy = {
      ...STANDARD_POLICY,
      rules: STANDARD_POLICY.rules.filter((r) => r.id !== 'I4').map((r) => (r.id === 'I3' ? { ...r, minSharePercent: 20 } : r)),
    };
    const backtest = startBacktest(stricter, STANDARD_POLICY);
    backtest.add(recorded(STANDARD_POLICY, [mixer], 1), [{ alertIndex: 0, reason: 'dismissed' }]);
    backtest.add(recorded(STANDARD_POLICY, [{ ...mixer, share: 0.5 }], 2), [{ alertIndex: 0, reason: 'flagged' }]);
    const report = backtest.report();
    expect(report.analystOutcomes).toEqual({ flagged: 1, flaggedStillAlerted: 1, dismissed: 1, dismissedNoLongerRaised: 1 });
    // 12 % under the stricter I3 (20 %), and no catch-all I4: the Medium alert is gone.
    expect(report.versusBaseline).toEqual({ new: 0, lost: 1, changedLevel: 0, checksAffected: 1 });
    expect(report.examples).toEqual([
      {
        checkId: 'check-1',
        checkedAt: expect.any(String),
        changes: [{ slug: 'mixer', ruleType: 'Origin of funds / Indirect', from: 'Medium', to: null }],
      },
    ]);
  });
});
