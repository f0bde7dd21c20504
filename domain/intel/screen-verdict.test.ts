import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Claim, SourceDescriptor, TokenProfile } from './intel.types.js';
import { buildScreenVerdict, screenVerdictSchema } from './screen-verdict.js';
import { checkedIntelOf } from '../../test/support/intel-fixtures.js';

const SOURCES: Record<string, SourceDescriptor> = {
  registry: { slug: 'registry', class: 'sanctions_registry', trustWeight: 100, publicName: 'Registry', url: 'https://registry.example' },
  lists: { slug: 'lists', class: 'community_feed', trustWeight: 60, publicName: 'Token lists', url: 'https://lists.example' },
  vendor: {
    slug: 'vendor',
    class: 'licensed_feed',
    trustWeight: 75,
    publicName: 'Vendor Inc',
    url: 'https://vendor.example',
    alias: 'provider_b',
  },
};

const claimArb: fc.Arbitrary<Claim> = fc
  .record({
    kind: fc.constantFrom('risk' as const, 'identity' as const, 'sanction' as const),
    source: fc.constantFrom('registry', 'lists', 'vendor', 'unknown_source'),
    category: fc.constantFrom('phishing', 'token', 'contract', 'exchange', 'not_in_taxonomy'),
    confidence: fc.integer({ min: 0, max: 100 }),
    label: fc.constantFrom('Example Name', 'Another Name'),
  })
  .map(({ kind, source, category, confidence, label }): Claim => {
    const base = {
      address: '0x00000000000000000000000000000000000b0b00',
      scope: 'evm' as const,
      confidence,
      source,
      label,
      sourceUrl: 'https://example.org/x',
      firstSeenAt: '2024-01-01T00:00:00Z',
      lastSeenAt: '2024-02-01T00:00:00Z',
    };
    if (kind === 'sanction') {
      return {
        ...base,
        kind,
        category: 'sanctions',
        sanction: { list: 'US', entity: label, program: null, listEntryId: null, listDate: null, asset: null },
      };
    }
    return kind === 'identity' ? { ...base, kind, category } : { ...base, kind, category };
  });

const token: TokenProfile = {
  chain: 'ETH',
  symbol: 'EXT',
  name: 'Example Token',
  decimals: 18,
  logoUrl: 'https://example.org/ext.png',
  tags: ['erc20'],
  listedBy: ['lists', 'vendor'],
};

describe('screen verdict', () => {
  it('always has exactly the domain verdict’s shape', () => {
    fc.assert(
      fc.property(fc.array(claimArb, { maxLength: 10 }), fc.boolean(), (claims, withToken) => {
        const verdict = buildScreenVerdict(checkedIntelOf({ claims, sources: SOURCES, token: withToken ? token : null }));
        expect(screenVerdictSchema.safeParse(verdict).error).toBeUndefined();
        expect(verdict.verdict.consensusFound).toBe(verdict.verdict.categoryDetail.length > 0);
      }),
    );
  });

  it('describes a well-known token contract', () => {
    const listed: Claim = {
      address: '0x00000000000000000000000000000000000b0b00',
      scope: 'ETH',
      kind: 'identity',
      category: 'token',
      label: 'Example Token',
      confidence: 100,
      source: 'lists',
      sourceUrl: 'https://example.org/x',
      firstSeenAt: '2024-01-01T00:00:00Z',
      lastSeenAt: '2024-01-01T00:00:00Z',
    };
    const { verdict } = buildScreenVerdict(checkedIntelOf({ claims: [listed], sources: SOURCES, token }));
    expect(verdict.smartContract).toEqual({
      isContract: true,
      tokenContract: true,
      symbol: 'EXT',
      decimals: 18,
      isWellKnown: true,
      logoUrl: 'https://example.org/ext.png',
      tags: ['erc20'],
      primaryEntity: { name: 'Example Token', category: 'token', source: 'lists' },
      complementaryEntities: [],
    });
    expect(verdict).toMatchObject({ addressLevel: 'none', riskScore: 0, confidence: null, label: 'Example Token', riskCategories: [] });
    expect(verdict.categoryDetail).toEqual([
      { slug: 'token', addressLevel: 'none', severity: 0, confidence: 60, sourceCount: 1, maxTrustWeight: 60, sources: ['lists'] },
    ]);
  });

  it('shows a licensed feed only under its alias', () => {
    const claim: Claim = {
      address: '0x00000000000000000000000000000000000b0b00',
      scope: 'evm',
      kind: 'risk',
      category: 'phishing',
      label: null,
      confidence: 80,
      source: 'vendor',
      sourceUrl: 'https://example.org/x',
      firstSeenAt: '2024-01-01T00:00:00Z',
      lastSeenAt: '2024-01-01T00:00:00Z',
    };
    const { verdict } = buildScreenVerdict(checkedIntelOf({ claims: [claim], sources: SOURCES, token: null }));
    expect(JSON.stringify(verdict)).not.toContain('Vendor Inc');
    expect(verdict.labels[0]).toMatchObject({ source: 'provider_b', sourceName: 'provider_b' });
    expect(verdict.primarySourceSlug).toBe('provider_b');
  });
});
