import type { AddressIntel, Claim, SourceDescriptor } from '../../domain/intel/intel.types.js';
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
      },
    ],
  } as IntelIndex;
}
