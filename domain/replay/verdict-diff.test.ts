import { describe, expect, it } from 'vitest';
import { verdictDifferences } from './verdict-diff.js';

describe('verdictDifferences', () => {
  it('finds nothing between two equal verdicts, whatever the order of their fields', () => {
    expect(verdictDifferences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('names each differing leaf by its path, with what it was and what it is now', () => {
    const was = { verdict: { risk_level: 'none', sdn_match: null, labels: [{ source: 'x' }] } };
    const now = { verdict: { risk_level: 'sanctioned', sdn_match: { list: 'US' }, labels: [{ source: 'x' }, { source: 'ofac' }] } };
    expect(verdictDifferences(was, now)).toEqual([
      { path: 'verdict.labels[1]', was: undefined, now: { source: 'ofac' } },
      { path: 'verdict.risk_level', was: 'none', now: 'sanctioned' },
      { path: 'verdict.sdn_match', was: null, now: { list: 'US' } },
    ]);
  });

  it('tells an absent field from a null one, and a removed list item', () => {
    expect(verdictDifferences({ a: null, l: [1, 2] }, { l: [1] })).toEqual([
      { path: 'a', was: null, now: undefined },
      { path: 'l[1]', was: 2, now: undefined },
    ]);
  });
});
