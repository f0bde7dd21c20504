import { describe, expect, it } from 'vitest';
import { synthesizeAudit, type AnsweredProvider } from './final-audit.js';
import type { ProviderAssessment } from './provider-assessment.js';

const says = (provider: string, risk_level: ProviderAssessment['risk_level'], risk_categories: string[] = []): AnsweredProvider => ({
  provider,
  assessment: {
    risk_level,
    sanctioned: risk_level === 'sanctioned',
    risk_categories,
    signals: [],
    summary: `${provider} says ${risk_level}`,
  },
});

describe('synthesized final audit', () => {
  it('three providers naming a sanctions designation: do not deal, an exchange would flag, all three agree', () => {
    const audit = synthesizeAudit(
      [
        says('service', 'sanctioned', ['sanctions']),
        says('provider_a', 'sanctioned', ['sanctions', 'money_laundering']),
        says('provider_b', 'sanctioned', ['sanctions']),
      ],
      0,
    );
    expect(audit).toMatchObject({
      decision: 'do_not_deal',
      can_deal: false,
      exchange_would_flag: true,
      sanctioned: true,
      worst_risk_level: 'sanctioned',
      risk_categories: ['money_laundering', 'sanctions'],
      providers_answered: 3,
      providers_failed: 0,
      providers_agreeing: 3,
      stance: 'risk',
      disagreements: [],
    });
    expect(audit.reasons).toHaveLength(3);
  });

  it('one sanctions hit outweighs two providers that found nothing; those two are the disagreements', () => {
    const audit = synthesizeAudit(
      [says('service', 'none'), says('provider_a', 'none'), says('provider_b', 'sanctioned', ['sanctions'])],
      1,
    );
    expect(audit).toMatchObject({
      decision: 'do_not_deal',
      providers_agreeing: 1,
      providers_failed: 1,
      reasons: ['provider_b: provider_b says sanctioned'],
    });
    expect(audit.disagreements).toEqual([
      { provider: 'service', stance: 'no_signal', risk_level: 'none', risk_categories: [] },
      { provider: 'provider_a', stance: 'no_signal', risk_level: 'none', risk_categories: [] },
    ]);
  });

  it('high risk from a majority is do-not-deal; from a minority it is a review', () => {
    expect(
      synthesizeAudit([says('service', 'high', ['scam']), says('provider_a', 'critical', ['ransomware']), says('provider_b', 'none')], 0)
        .decision,
    ).toBe('do_not_deal');
    const minority = synthesizeAudit([says('service', 'high', ['scam']), says('provider_a', 'none'), says('provider_b', 'none')], 0);
    expect(minority).toMatchObject({ decision: 'review', can_deal: false, exchange_would_flag: true, providers_agreeing: 1 });
  });

  it('a mixer at medium level asks for a review and is what exchanges flag', () => {
    expect(synthesizeAudit([says('service', 'medium', ['mixer']), says('provider_a', 'none')], 0)).toMatchObject({
      decision: 'review',
      exchange_would_flag: true,
    });
    expect(synthesizeAudit([says('service', 'medium', ['gambling'])], 0)).toMatchObject({ decision: 'review', exchange_would_flag: false });
  });

  it('nothing found (low is context, not a warning): deal, and every provider agrees', () => {
    const audit = synthesizeAudit([says('service', 'low', ['exchange']), says('provider_a', 'none')], 0);
    expect(audit).toMatchObject({
      decision: 'deal',
      can_deal: true,
      exchange_would_flag: false,
      stance: 'no_signal',
      providers_agreeing: 2,
      worst_risk_level: 'low',
    });
    expect(audit.reasons[0]).toContain('not proof');
  });
});
