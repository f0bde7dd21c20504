import { describe, expect, it } from 'vitest';
import { hasCode } from '../shared/errors.js';
import type { DatasetVersion, SanctionList } from './intel.types.js';
import { dataDegradations, missingJurisdictions, requireSanctionsList } from './sanctions-data.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const dataset = (
  source: string,
  sourceClass: DatasetVersion['sourceClass'],
  version: string,
  jurisdiction?: SanctionList,
  importedAt = '2026-11-25T00:00:00.000Z',
): DatasetVersion => ({
  source,
  version,
  contentHash: `sha256:${source}`,
  claimCount: 1,
  importedAt,
  ...(sourceClass ? { sourceClass } : {}),
  ...(jurisdiction ? { jurisdiction } : {}),
});
const ALL_THREE = [
  dataset('ofac_sdn', 'sanctions_registry', '2026-11-20', 'US'),
  dataset('ofsi_uk', 'sanctions_registry', '2026-11-21', 'UK'),
  dataset('eu_fsf', 'sanctions_registry', '2026-11-22', 'EU'),
];

function refusal(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    expect(hasCode(error, 'backend_unavailable')).toBe(true);
    return (error as Error).message;
  }
}

describe('sanctions data: fail closed without it, degraded when incomplete or old', () => {
  it('no dataset, or only non-sanctions ones: screening is refused with backend_unavailable', () => {
    for (const datasets of [
      [],
      [dataset('graphsense', 'curator', '2026-11-20'), dataset('mew_darklist', 'community_feed', '2026-11-20')],
    ]) {
      expect(refusal(() => requireSanctionsList({ datasets: () => datasets }))).toMatch(/no sanctions list has been imported/);
      expect(dataDegradations(datasets, NOW, 14)).toEqual([
        'no sanctions list imported: screening answers 502 backend_unavailable until one is',
      ]);
    }
  });

  it('one sanctions list is enough to screen; the jurisdictions without a list are named, not required', () => {
    const datasets = [dataset('ofac_sdn', 'sanctions_registry', '2026-11-20', 'US')];
    expect(refusal(() => requireSanctionsList({ datasets: () => datasets }))).toBeNull();
    expect(missingJurisdictions(datasets)).toEqual(['UK', 'EU']);
    expect(dataDegradations(datasets, NOW, 14)).toEqual([
      'no UK sanctions list imported: verdicts are not checked against UK sanctions and say so (coverage.sanctions.not_checked)',
      'no EU sanctions list imported: verdicts are not checked against EU sanctions and say so (coverage.sanctions.not_checked)',
    ]);
  });

  it('a required jurisdiction without a list fails closed and says which; with every list held, health is fine', () => {
    const usOnly = [dataset('ofac_sdn', 'sanctions_registry', '2026-11-20', 'US')];
    const required: SanctionList[] = ['US', 'UK', 'EU'];
    expect(refusal(() => requireSanctionsList({ datasets: () => usOnly, requiredSanctions: required }))).toMatch(
      /^no UK, EU sanctions list has been imported and this service requires one \(SVC_REQUIRED_SANCTIONS\)/,
    );
    expect(dataDegradations(usOnly, NOW, 14, required)[0]).toBe(
      'no UK sanctions list imported and UK is required (SVC_REQUIRED_SANCTIONS): screening answers 502 backend_unavailable until one is',
    );
    expect(refusal(() => requireSanctionsList({ datasets: () => ALL_THREE, requiredSanctions: required }))).toBeNull();
    expect(dataDegradations(ALL_THREE, NOW, 14, required)).toEqual([]);
  });

  it('a list older than the limit is named; its date is its own, else its import time', () => {
    const datasets = [
      dataset('ofac_sdn', 'sanctions_registry', '2026-10-01', 'US'),
      dataset('ofsi', 'sanctions_registry', 'abc123', 'UK', '2026-11-01T00:00:00.000Z'),
      dataset('eu_fsf', 'sanctions_registry', '2026-11-24', 'EU'),
    ];
    expect(dataDegradations(datasets, NOW, 14)).toEqual([
      'sanctions list ofac_sdn is 55 days old (version 2026-10-01; older than 14 days): refresh it with `data sync`',
      'sanctions list ofsi is 24 days old (version abc123; older than 14 days): refresh it with `data sync`',
    ]);
    expect(dataDegradations(datasets, NOW, 60)).toEqual([]);
  });
});
