import { sanctionsCoverage, type SanctionsCoverage } from '../../domain/coverage/sanctions-coverage.js';
import type { AddressIntel, Claim, DatasetVersion, SourceDescriptor } from '../../domain/intel/intel.types.js';
import type { CheckedIntel } from '../../domain/intel/screen-verdict.js';
import type { IntelIndex } from '../../domain/ports/intel-index.port.js';
import type { Network } from '../../domain/shared/network.js';

/** An intelligence index over a few hand-written claims, for unit tests of what reads the IntelIndex port. */

const SOURCES: Readonly<Record<string, SourceDescriptor>> = {
  ofac_sdn: {
    slug: 'ofac_sdn',
    class: 'sanctions_registry',
    trustWeight: 100,
    publicName: 'OFAC SDN List',
    url: 'https://example.org/ofac',
  },
  graphsense: {
    slug: 'graphsense',
    class: 'curator',
    trustWeight: 80,
    publicName: 'GraphSense TagPacks',
    url: 'https://example.org/graphsense',
  },
};

export type FixtureClaim =
  | { address: string; kind: 'sanction'; entity?: string }
  | { address: string; kind: 'risk' | 'identity'; category: string; label?: string; confidence?: number };

const SEEN = '2025-01-01T00:00:00.000Z';

function claimOf(fixture: FixtureClaim): Claim {
  const base = {
    address: fixture.address,
    scope: fixture.address.startsWith('T') ? ('TRON' as const) : ('evm' as const),
    sourceUrl: 'https://example.org/claim',
    firstSeenAt: SEEN,
    lastSeenAt: SEEN,
  };
  if (fixture.kind === 'sanction') {
    const sanction = {
      list: 'US' as const,
      entity: fixture.entity ?? 'Example Sanctioned Entity',
      program: 'CYBER2',
      listEntryId: '1',
      listDate: '2025-01-01',
      asset: 'ETH',
    };
    return { ...base, kind: 'sanction', category: 'sanctions', label: sanction.entity, confidence: 100, source: 'ofac_sdn', sanction };
  }
  if (fixture.kind === 'identity') {
    return {
      ...base,
      kind: 'identity',
      category: fixture.category,
      label: fixture.label ?? 'Example Entity',
      confidence: fixture.confidence ?? 90,
      source: 'graphsense',
    };
  }
  return {
    ...base,
    kind: 'risk',
    category: fixture.category,
    label: fixture.label ?? null,
    confidence: fixture.confidence ?? 90,
    source: 'graphsense',
  };
}

export function fixtureIntel(claims: readonly FixtureClaim[]): IntelIndex {
  const byAddress = new Map<string, Claim[]>();
  for (const fixture of claims) byAddress.set(fixture.address, [...(byAddress.get(fixture.address) ?? []), claimOf(fixture)]);
  // Cast: the port grows (snapshot ids…) faster than this fixture needs.
  return {
    snapshot: () => 'fixture',
    lookup(address: string, _network: Network): AddressIntel {
      const found = byAddress.get(address) ?? [];
      return { claims: found, sources: Object.fromEntries(found.map((c) => [c.source, SOURCES[c.source]!])), token: null };
    },
    datasets: () => [
      {
        source: 'ofac_sdn',
        version: '2025-01-01',
        contentHash: 'fixture',
        claimCount: claims.length,
        importedAt: SEEN,
        sourceClass: 'sanctions_registry',
        name: 'OFAC SDN List',
        jurisdiction: 'US',
      },
    ],
  } as IntelIndex;
}

/** The US list of the fixtures, as the index would hold it. */
export const FIXTURE_US_LIST: DatasetVersion = {
  source: 'ofac_sdn',
  version: '2025-01-01',
  contentHash: 'sha256:fixture',
  claimCount: 1,
  importedAt: '2025-01-02T00:00:00.000Z',
  sourceClass: 'sanctions_registry',
  name: 'OFAC SDN List',
  jurisdiction: 'US',
};

/** Sanctions coverage for verdicts built straight from an AddressIntel in tests: the US list only, read at 2025-01-10. */
export const FIXTURE_COVERAGE: SanctionsCoverage = sanctionsCoverage([FIXTURE_US_LIST], new Date('2025-01-10T00:00:00.000Z'));

export const checkedIntelOf = (intel: AddressIntel, sanctions: SanctionsCoverage = FIXTURE_COVERAGE): CheckedIntel => ({
  ...intel,
  sanctions,
});
