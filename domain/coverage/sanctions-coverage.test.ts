import { describe, expect, it } from 'vitest';
import type { DatasetVersion } from '../intel/intel.types.js';
import { sanctionsCoverageBody } from '../webhooks/sanctions-coverage.words.js';
import { sanctionsCoverage } from './sanctions-coverage.js';

const AT = new Date('2026-11-25T12:00:00.000Z');
const list = (source: string, version: string, jurisdiction?: DatasetVersion['jurisdiction']): DatasetVersion => ({
  source,
  version,
  contentHash: `sha256:${source}`,
  claimCount: 3,
  importedAt: '2026-11-20T08:00:00.000Z',
  sourceClass: 'sanctions_registry',
  name: `${source} list`,
  ...(jurisdiction ? { jurisdiction } : {}),
});

describe('sanctions coverage: the lists a verdict was checked against, per jurisdiction', () => {
  it('Given only US lists, When a verdict is made, Then US is checked and UK and EU are said not to be', () => {
    const coverage = sanctionsCoverage(
      [
        list('ofac_wallet_lists', '2026-08-22', 'US'),
        list('ofac_sdn', '2025-11-19', 'US'),
        { ...list('graphsense', '2026-05-12'), sourceClass: 'curator' },
      ],
      AT,
    );
    expect(coverage.checked).toEqual(['US']);
    expect(coverage.notChecked).toEqual(['UK', 'EU']);
    expect(coverage.lists.map((l) => l.source)).toEqual(['ofac_sdn', 'ofac_wallet_lists']);
    expect(sanctionsCoverageBody(coverage)).toEqual({
      as_of: '2026-11-25T12:00:00.000Z',
      checked: ['US'],
      not_checked: ['UK', 'EU'],
      lists: [
        expect.objectContaining({ jurisdiction: 'US', source: 'ofac_sdn', name: 'ofac_sdn list', list_date: '2025-11-19', age_days: 371 }),
        expect.objectContaining({ source: 'ofac_wallet_lists', list_date: '2026-08-22', age_days: 95 }),
      ],
    });
  });

  it('Given a list that states no date, Then its age counts from its import and list_date is null', () => {
    const coverage = sanctionsCoverage([list('ofsi_uk', '74a24ed', 'UK')], AT);
    expect(sanctionsCoverageBody(coverage).lists[0]).toMatchObject({ list_date: null, age_days: 5, version: '74a24ed' });
    expect(coverage.checked).toEqual(['UK']);
  });

  it('Given a list whose jurisdiction is unknown, Then it is listed but checks no jurisdiction', () => {
    const coverage = sanctionsCoverage([list('old_list', '2026-01-01')], AT);
    expect(coverage.lists[0]?.jurisdiction).toBeNull();
    expect(coverage.checked).toEqual([]);
    expect(coverage.notChecked).toEqual(['US', 'UK', 'EU']);
  });
});
