import { describe, expect, it } from 'vitest';
import { sanctionsSentence } from './coverage-sentence.js';

const list = (jurisdiction: string, name: string, list_date: string | null, age_days: number) => ({
  jurisdiction: jurisdiction as 'US',
  source: name.toLowerCase().replaceAll(' ', '_'),
  name,
  version: list_date ?? 'abc1234',
  list_date,
  age_days,
  imported_at: '2026-11-20T08:00:00.000Z',
  content_hash: 'sha256:x',
});

describe('the sanctions sentence is built from the verdict, never fixed', () => {
  it('names each list checked with its date and age, and the jurisdictions not checked', () => {
    const coverage = {
      as_of: '2026-11-25T00:00:00.000Z',
      checked: ['US'] as ('US' | 'UK' | 'EU')[],
      not_checked: ['UK', 'EU'] as ('US' | 'UK' | 'EU')[],
      lists: [list('US', 'OFAC SDN List', '2025-11-19', 371), list('US', 'OFAC wallet lists', null, 5)],
    };
    expect(sanctionsSentence(coverage)).toBe(
      'Checked against the US sanctions lists: OFAC SDN List of 2025-11-19, 371 days old; OFAC wallet lists, undated (imported 2026-11-20, 5 days ago). ' +
        'Not checked against the UK and EU sanctions lists: none is held, so this verdict says nothing about them.',
    );
  });

  it('with every list held, names the three and nothing else', () => {
    const coverage = {
      as_of: '2026-11-25T00:00:00.000Z',
      checked: ['US', 'UK', 'EU'] as ('US' | 'UK' | 'EU')[],
      not_checked: [],
      lists: [list('US', 'OFAC SDN List', '2026-11-19', 6), list('UK', 'OFSI', '2026-11-20', 5), list('EU', 'EU FSF', '2026-11-21', 4)],
    };
    expect(sanctionsSentence(coverage)).toBe(
      'Checked against the US, UK and EU sanctions lists: US: OFAC SDN List of 2026-11-19, 6 days old; UK: OFSI of 2026-11-20, 5 days old; EU: EU FSF of 2026-11-21, 4 days old.',
    );
  });

  it('an old verdict without coverage says it was not recorded', () => {
    expect(sanctionsSentence(undefined)).toMatch(/not recorded/);
  });
});
