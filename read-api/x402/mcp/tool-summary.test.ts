import { describe, expect, it } from 'vitest';
import { summaryOf } from './tool-summary.js';

const US_ONLY = { as_of: '2026-11-25T00:00:00.000Z', checked: ['US'], not_checked: ['UK', 'EU'], lists: [] };
const ALL = { ...US_ONLY, checked: ['US', 'UK', 'EU'], not_checked: [] };

describe('the first line of a tool result: unknown is never read as clean', () => {
  it('a screen of an address nobody knows starts "unknown: no data" and names the lists checked and not checked', () => {
    const body = { coverage: { data_available: false, sanctions: US_ONLY }, verdict: { risk_level: 'none', risk_score: null } };
    expect(summaryOf('screen', body)).toBe(
      'unknown: no data: nothing is known of this address (risk_level "none" here is not "clean"); sanctions lists checked: US; NOT checked: UK, EU',
    );
  });

  it('a screen with data says the level, categories and sanctions match', () => {
    const body = {
      coverage: { data_available: true, sanctions: ALL },
      verdict: { risk_level: 'sanctioned', risk_score: 100, risk_categories: ['sanctions'], sdn_match: { list: 'US', source: 'ofac_sdn' } },
    };
    expect(summaryOf('screen', body)).toBe(
      'risk_level sanctioned (score 100, categories sanctions; on the US sanctions list of ofac_sdn); sanctions lists checked: US, UK, EU',
    );
  });

  it('a full check that knows nothing says unknown; one driven by exposure gives its decision and why', () => {
    const unknown = {
      decision: 'unable',
      decision_reason: 'no intelligence and no transaction history',
      verdict: { risk_level: 'none' },
      coverage: { data_available: false, transfer_history: false, sanctions: US_ONLY },
    };
    expect(summaryOf('check_address', unknown)).toMatch(/^unknown: no data: decision unable, risk_level none/);
    const exposed = {
      ...unknown,
      decision: 'review',
      decision_reason: '100 % of incoming funds trace to sanctions',
      verdict: { risk_level: 'high' },
    };
    expect(summaryOf('check_address', { ...exposed, coverage: { ...unknown.coverage, transfer_history: true } })).toBe(
      'decision review, risk_level high: 100 % of incoming funds trace to sanctions; sanctions lists checked: US; NOT checked: UK, EU',
    );
  });

  it('a transfer check whose senders are all unknown says so: no alert is not clean', () => {
    const body = {
      composite_result: { risk_level: 'none', risk_score: 0, senders: [{ data_available: false, indirect_categories: [] }] },
      policy_result: { worst_level: null, recommended_action: 'accept' },
      coverage: { sanctions: US_ONLY },
    };
    expect(summaryOf('check_transfer', body)).toMatch(/^unknown: no data on any sender: no alert here is not "clean"; worst alert none/);
    const known = { ...body, composite_result: { ...body.composite_result, senders: [{ data_available: true, indirect_categories: [] }] } };
    expect(summaryOf('check_transfer', known)).toMatch(
      /^worst alert none, recommended action accept; composite none \(0 of 10\); 1 of 1 sender\(s\) known/,
    );
  });

  it('a verdict recorded before verdicts stated their lists says so', () => {
    expect(summaryOf('screen', { coverage: { data_available: true }, verdict: { risk_level: 'low', risk_score: 12 } })).toMatch(
      /sanctions lists checked: not recorded$/,
    );
  });
});
