import { describe, expect, it } from 'vitest';
import { hasCode } from '../shared/errors.js';
import type { DatasetVersion } from './intel.types.js';
import { dataDegradations, requireSanctionsList } from './sanctions-data.js';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const dataset = (
  source: string,
  sourceClass: DatasetVersion['sourceClass'],
  version: string,
  importedAt = '2026-11-25T00:00:00.000Z',
): DatasetVersion => ({
  source,
  version,
  contentHash: `sha256:${source}`,
  claimCount: 1,
  importedAt,
  ...(sourceClass ? { sourceClass } : {}),
});

describe('sanctions data: fail closed without it, degraded when old', () => {
  it('no dataset, or only non-sanctions ones: screening is refused with backend_unavailable', () => {
    for (const datasets of [
      [],
      [dataset('graphsense', 'curator', '2026-11-20'), dataset('mew_darklist', 'community_feed', '2026-11-20')],
    ]) {
      let thrown: unknown;
      try {
        requireSanctionsList({ datasets: () => datasets });
      } catch (error) {
        thrown = error;
      }
      expect(hasCode(thrown, 'backend_unavailable')).toBe(true);
      expect(dataDegradations(datasets, NOW, 14)).toEqual([
        'no sanctions list imported: screening answers 502 backend_unavailable until one is',
      ]);
    }
  });

  it('one sanctions list is enough to screen; fresh lists leave health as it is', () => {
    const datasets = [dataset('ofac_sdn', 'sanctions_registry', '2026-11-20')];
    expect(() => requireSanctionsList({ datasets: () => datasets })).not.toThrow();
    expect(dataDegradations(datasets, NOW, 14)).toEqual([]);
  });

  it('a list older than the limit is named; its date is its own, else its import time', () => {
    const datasets = [
      dataset('ofac_sdn', 'sanctions_registry', '2026-10-01'),
      dataset('ofsi', 'sanctions_registry', 'abc123', '2026-11-01T00:00:00.000Z'),
      dataset('eu_fsf', 'sanctions_registry', '2026-11-24'),
    ];
    expect(dataDegradations(datasets, NOW, 14)).toEqual([
      'sanctions list ofac_sdn is 55 days old (version 2026-10-01; older than 14 days): refresh it with `data sync`',
      'sanctions list ofsi is 24 days old (version abc123; older than 14 days): refresh it with `data sync`',
    ]);
    expect(dataDegradations(datasets, NOW, 60)).toEqual([]);
  });
});
