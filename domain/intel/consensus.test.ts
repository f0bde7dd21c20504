import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeConsensus } from './consensus.js';
import type { Claim, SourceDescriptor } from './intel.types.js';
import { buildScreenVerdict } from './screen-verdict.js';
import { TAXONOMY } from './taxonomy.js';
import { checkedIntelOf } from '../../test/support/intel-fixtures.js';

const ADDRESS = '0x00000000000000000000000000000000000a11ce';

const SOURCES: Record<string, SourceDescriptor> = {
  registry: { slug: 'registry', class: 'sanctions_registry', trustWeight: 100, publicName: 'Registry', url: 'https://registry.example' },
  curator: { slug: 'curator', class: 'curator', trustWeight: 80, publicName: 'Curator', url: 'https://curator.example' },
  explorer: { slug: 'explorer', class: 'block_explorer', trustWeight: 70, publicName: 'Explorer', url: 'https://explorer.example' },
  feed: { slug: 'feed', class: 'licensed_feed', trustWeight: 60, publicName: 'Vendor', url: 'https://vendor.example', alias: 'provider_a' },
  community: { slug: 'community', class: 'community_feed', trustWeight: 50, publicName: 'Community', url: 'https://community.example' },
};

const base = {
  address: ADDRESS,
  scope: 'evm' as const,
  sourceUrl: 'https://example.org/list',
  firstSeenAt: '2024-01-01T00:00:00Z',
  lastSeenAt: '2024-06-01T00:00:00Z',
};

const riskClaim = (source: string, category: string, confidence: number, label: string | null = null): Claim => ({
  ...base,
  kind: 'risk',
  source,
  category,
  confidence,
  label,
});
const identityClaim = (source: string, category: string, label: string, confidence = 90): Claim => ({
  ...base,
  kind: 'identity',
  source,
  category,
  confidence,
  label,
});
const sanctionClaim = (source: string, entity: string): Claim => ({
  ...base,
  kind: 'sanction',
  source,
  category: 'sanctions',
  confidence: 100,
  label: entity,
  sanction: { list: 'US', entity, program: 'CYBER2', listEntryId: '90001', listDate: '2022-04-14', asset: 'ETH' },
});

const claimArb: fc.Arbitrary<Claim> = fc.oneof(
  fc
    .record({
      source: fc.constantFrom('curator', 'explorer', 'feed', 'community'),
      category: fc.constantFrom('phishing', 'scam', 'mixer', 'stolen_funds', 'gambling', 'token'),
      confidence: fc.integer({ min: 0, max: 100 }),
      label: fc.option(fc.constantFrom('Fake_Phishing1', 'drainer', 'hack proceeds'), { nil: null }),
    })
    .map(({ source, category, confidence, label }) => riskClaim(source, category, confidence, label)),
  fc
    .record({
      source: fc.constantFrom('curator', 'explorer', 'feed', 'community'),
      category: fc.constantFrom('exchange', 'mixer', 'named_entity'),
      label: fc.constantFrom('Example Exchange', 'Sample Mixer', 'Some Project'),
      confidence: fc.integer({ min: 0, max: 100 }),
    })
    .map(({ source, category, label, confidence }) => identityClaim(source, category, label, confidence)),
  fc.constantFrom('EXAMPLE SANCTIONED GROUP', 'ANOTHER LISTED ENTITY').map((entity) => sanctionClaim('registry', entity)),
);

const consensusOf = (claims: readonly Claim[]) => computeConsensus(claims, SOURCES, TAXONOMY);
const probabilityOf = (claims: readonly Claim[], slug: string): number =>
  consensusOf(claims).categories.find((c) => c.slug === slug)?.probability ?? 0;

describe('consensus properties', () => {
  it('adding a supporting claim never lowers its category’s confidence', () => {
    fc.assert(
      fc.property(fc.array(claimArb, { maxLength: 12 }), claimArb, (claims, extra) => {
        expect(probabilityOf([...claims, extra], extra.category)).toBeGreaterThanOrEqual(probabilityOf(claims, extra.category));
      }),
    );
  });

  it('removing a claim restores the previous verdict', () => {
    fc.assert(
      fc.property(fc.array(claimArb, { maxLength: 12 }), claimArb, fc.nat(), (claims, extra, at) => {
        const withExtra = [...claims];
        withExtra.splice(at % (claims.length + 1), 0, extra);
        const without = withExtra.filter((claim) => claim !== extra);
        expect(buildScreenVerdict(checkedIntelOf({ claims: without, sources: SOURCES, token: null }))).toEqual(
          buildScreenVerdict(checkedIntelOf({ claims, sources: SOURCES, token: null })),
        );
      }),
    );
  });

  it('claim order never matters', () => {
    fc.assert(
      fc.property(
        fc
          .array(claimArb, { maxLength: 12 })
          .chain((claims) => fc.tuple(fc.constant(claims), fc.shuffledSubarray(claims, { minLength: claims.length }))),
        ([claims, shuffled]) => {
          expect(consensusOf(shuffled)).toEqual(consensusOf(claims));
          expect(buildScreenVerdict(checkedIntelOf({ claims: shuffled, sources: SOURCES, token: null }))).toEqual(
            buildScreenVerdict(checkedIntelOf({ claims, sources: SOURCES, token: null })),
          );
        },
      ),
    );
  });

  it('every probability is the noisy-OR of the counted claims in its explanation', () => {
    fc.assert(
      fc.property(fc.array(claimArb, { maxLength: 12 }), (claims) => {
        for (const category of consensusOf(claims).explanation) {
          const counted = category.claims.filter((c) => c.counted);
          expect(new Set(counted.map((c) => c.source)).size).toBe(counted.length);
          const expected = 1 - counted.reduce((rest, c) => rest * (1 - (c.trustWeight / 100) * (c.confidence / 100)), 1);
          expect(category.probability).toBeCloseTo(expected, 12);
        }
      }),
    );
  });
});

describe('consensus examples', () => {
  it('weights each source’s best claim by trust and combines sources by noisy-OR', () => {
    const result = consensusOf([
      riskClaim('explorer', 'phishing', 90),
      riskClaim('explorer', 'phishing', 50), // the same source again: not corroboration
      riskClaim('community', 'phishing', 80),
    ]);
    const phishing = result.categories[0]!;
    expect(phishing.probability).toBeCloseTo(1 - (1 - 0.7 * 0.9) * (1 - 0.5 * 0.8), 12);
    expect(phishing).toMatchObject({ slug: 'phishing', sourceCount: 2, maxTrustWeight: 70, sources: ['explorer', 'community'] });
    expect(result.confidence).toBe(78);
    // high band 70–89 entered in proportion to p = 0.778
    expect(result.riskScore).toBe(70 + Math.round(19 * phishing.probability));
  });

  it('the most severe category is primary, even when a milder one is better supported', () => {
    const result = consensusOf([
      riskClaim('curator', 'mixer', 100),
      riskClaim('explorer', 'mixer', 100),
      riskClaim('community', 'stolen_funds', 20),
    ]);
    expect(result.primary?.slug).toBe('stolen_funds');
    expect(result.riskLevel).toBe('high');
    expect(result.confidence).toBe(10);
  });

  it('aliases licensed feeds in every source list', () => {
    const result = consensusOf([riskClaim('feed', 'scam', 100), riskClaim('community', 'scam', 100)]);
    expect(result.categories[0]!.sources).toEqual(['provider_a', 'community']);
    expect(result.primarySourceSlug).toBe('provider_a');
  });
});

describe('screen verdict examples', () => {
  it('an OFAC claim makes the address sanctioned, with the sanctions match naming the entity', () => {
    const { verdict, coverage } = buildScreenVerdict(
      checkedIntelOf({
        claims: [sanctionClaim('registry', 'EXAMPLE SANCTIONED GROUP'), riskClaim('curator', 'stolen_funds', 50)],
        sources: SOURCES,
        token: null,
      }),
    );
    expect(verdict.addressLevel).toBe('sanctioned');
    expect(verdict.riskScore).toBe(100);
    expect(verdict.sanctionsMatch).toEqual({
      list: 'US',
      entity: 'EXAMPLE SANCTIONED GROUP',
      program: 'CYBER2',
      listEntryId: '90001',
      listDate: '2022-04-14',
      asset: 'ETH',
      source: 'registry',
    });
    expect(verdict.riskCategories).toEqual(['sanctions', 'stolen_funds']);
    expect(verdict.label).toBe('EXAMPLE SANCTIONED GROUP');
    expect(coverage.dataAvailable).toBe(true);
    expect(verdict).toMatchObject({ sourceCount: 2, consensusFound: true });
    expect(verdict.labels).toHaveLength(2);
  });

  it('an exchange identity gives the exchange’s name as label and a low risk level', () => {
    const { verdict } = buildScreenVerdict(
      checkedIntelOf({
        claims: [identityClaim('curator', 'exchange', 'Example Exchange hot wallet')],
        sources: SOURCES,
        token: null,
      }),
    );
    expect(verdict.label).toBe('Example Exchange hot wallet');
    expect(['low', 'none']).toContain(verdict.addressLevel);
    expect(verdict.sanctionsMatch).toBeNull();
  });

  it('a phishing claim alone has no label: a risk annotation is never a name', () => {
    const { verdict } = buildScreenVerdict(
      checkedIntelOf({
        claims: [riskClaim('explorer', 'phishing', 90, 'Fake_Phishing1772')],
        sources: SOURCES,
        token: null,
      }),
    );
    expect(verdict.label).toBeNull();
    expect(verdict.addressLevel).toBe('high');
    expect(verdict.labels[0]?.label).toBe('Fake_Phishing1772');
  });

  it('an unknown address is no risk signal, not clean: no data, no score', () => {
    const { verdict, coverage } = buildScreenVerdict(checkedIntelOf({ claims: [], sources: {}, token: null }));
    expect(coverage.dataAvailable).toBe(false);
    expect(verdict).toMatchObject({ addressLevel: 'none', riskScore: null, confidence: null, label: null, labels: [] });
  });
});
