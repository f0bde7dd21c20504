import { present } from '../shared/present.js';
import type { Claim, SanctionClaim, SourceDescriptor } from './intel.types.js';
import { publicSlug } from './intel.types.js';
import { categoryOf, LEVEL_TO_RISK, type RiskLevel, type Taxonomy } from './taxonomy.js';

/**
 * Consensus over one address's claims. Pure and order-independent: every sort below ends on a unique
 * key, so the same claims in any order give the same result.
 *
 * Per category, each source contributes its best claim (a source repeating itself is not
 * corroboration), weighted w = trust/100 · confidence/100, and the sources combine by noisy-OR:
 * p = 1 − Π(1 − w). The primary category is the most severe risk category (ties: higher p, then slug);
 * info-level categories (token, contract, named_entity) are evidence, never a risk signal.
 *
 * risk_level: `sanctioned` when a sanctions registry lists the address, else the primary category's
 * level (severe→critical … low→low), `none` without a risk category.
 * risk_score: 100 when sanctioned; else the level's band (low 10–39, medium 40–69, high 70–89,
 * critical 90–99; the bands of docs/ARCHITECTURE.md#consensus-and-score-bands) entered in proportion to the primary
 * category's p: score = band.min + round((band.max − band.min) · p). 0 without a risk category.
 */

export interface WeightedClaim {
  readonly source: string;
  readonly trustWeight: number;
  readonly confidence: number;
  /** trust/100 · confidence/100 */
  readonly weight: number;
  /** Whether this is the source's best claim for the category, the one the noisy-OR counts. */
  readonly counted: boolean;
  readonly claim: Claim;
}

export interface CategoryConsensus {
  readonly slug: string;
  /** The category's own level; null when the slug is not in the taxonomy. */
  readonly riskLevel: RiskLevel | null;
  readonly severity: number | null;
  /** Noisy-OR probability, 0..1. */
  readonly probability: number;
  readonly sourceCount: number;
  readonly maxTrustWeight: number;
  /** Source slugs as published (licensed feeds aliased), highest trust first. */
  readonly sources: readonly string[];
  readonly claims: readonly WeightedClaim[];
}

export interface Consensus {
  /** Most severe first, then higher probability, then slug. */
  readonly categories: readonly CategoryConsensus[];
  readonly primary: CategoryConsensus | null;
  readonly riskLevel: RiskLevel;
  readonly riskScore: number;
  /** The primary category's probability as an int 0..100; null without a risk category. */
  readonly confidence: number | null;
  readonly sanction: SanctionClaim | null;
  /** Names the claims give the address, best first: higher trust, then higher confidence. */
  readonly names: readonly NamedBy[];
  /**
   * Best counterparty name: the highest-trust identity claim, or the entity a sanctions registry
   * names. Risk annotations never give a label.
   */
  readonly label: string | null;
  readonly primarySourceSlug: string | null;
  readonly sourceCount: number;
  /** Why each category's probability is what it is: every claim with its weight, most weighty first. */
  readonly explanation: readonly CategoryExplanation[];
}

export interface NamedBy {
  readonly name: string;
  readonly category: string;
  readonly source: string;
}

export interface CategoryExplanation {
  readonly slug: string;
  /** 1 − Π(1 − weight) over the counted claims. */
  readonly probability: number;
  readonly claims: readonly WeightedClaim[];
}

const SCORE_BANDS: Readonly<Record<Exclude<RiskLevel, 'none' | 'sanctioned'>, readonly [number, number]>> = {
  low: [10, 39],
  medium: [40, 69],
  high: [70, 89],
  critical: [90, 99],
};

const UNKNOWN_SOURCE_TRUST = 0;

function trustOf(sources: Readonly<Record<string, SourceDescriptor>>, slug: string): number {
  return Object.hasOwn(sources, slug)
    ? present(sources[slug], 'Object.hasOwn checked the slug just before').trustWeight
    : UNKNOWN_SOURCE_TRUST;
}

function shownSlug(sources: Readonly<Record<string, SourceDescriptor>>, slug: string): string {
  return Object.hasOwn(sources, slug) ? publicSlug(present(sources[slug], 'Object.hasOwn checked the slug just before')) : slug;
}

/** A total order on claims, so ties never depend on input order. */
function claimKey(claim: Claim): string {
  return JSON.stringify([
    claim.source,
    claim.category,
    claim.kind,
    claim.label,
    claim.confidence,
    claim.sourceUrl,
    claim.firstSeenAt,
    claim.lastSeenAt,
    claim.scope,
    claim.kind === 'sanction' ? claim.sanction : null,
  ]);
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function byWeightThenKey(a: WeightedClaim, b: WeightedClaim): number {
  return b.weight - a.weight || b.trustWeight - a.trustWeight || compareText(claimKey(a.claim), claimKey(b.claim));
}

function categoryConsensus(
  slug: string,
  claims: readonly Claim[],
  sources: Readonly<Record<string, SourceDescriptor>>,
  taxonomy: Taxonomy,
): CategoryConsensus {
  const weighted = claims
    .map((claim) => {
      const trustWeight = trustOf(sources, claim.source);
      const weight = (trustWeight / 100) * (claim.confidence / 100);
      return { source: claim.source, trustWeight, confidence: claim.confidence, weight, counted: false, claim };
    })
    .sort(byWeightThenKey);
  const seen = new Set<string>();
  const marked = weighted.map((entry) => {
    const counted = !seen.has(entry.source);
    seen.add(entry.source);
    return { ...entry, counted };
  });
  const probability = 1 - marked.filter((e) => e.counted).reduce((rest, e) => rest * (1 - e.weight), 1);
  const bySource = [...seen].sort((a, b) => trustOf(sources, b) - trustOf(sources, a) || compareText(a, b));
  const definition = categoryOf(taxonomy, slug);
  return {
    slug,
    riskLevel: definition ? LEVEL_TO_RISK[definition.level] : null,
    severity: definition ? definition.severity : null,
    probability,
    sourceCount: seen.size,
    maxTrustWeight: Math.max(...bySource.map((s) => trustOf(sources, s))),
    sources: bySource.map((s) => shownSlug(sources, s)),
    claims: marked,
  };
}

function mostSevereFirst(a: CategoryConsensus, b: CategoryConsensus): number {
  return (b.severity ?? -1) - (a.severity ?? -1) || b.probability - a.probability || compareText(a.slug, b.slug);
}

const isRiskCategory = (category: CategoryConsensus): boolean => category.riskLevel !== null && category.riskLevel !== 'none';

function scoreFor(level: RiskLevel, probability: number): number {
  if (level === 'sanctioned') return 100;
  if (level === 'none') return 0;
  const [min, max] = SCORE_BANDS[level];
  return min + Math.round((max - min) * probability);
}

function bestBy<T>(items: readonly T[], compare: (a: T, b: T) => number): T | null {
  return items.length === 0 ? null : present([...items].sort(compare)[0], 'the list is non-empty (checked just before)');
}

export function computeConsensus(
  claims: readonly Claim[],
  sources: Readonly<Record<string, SourceDescriptor>>,
  taxonomy: Taxonomy,
): Consensus {
  const bySlug = new Map<string, Claim[]>();
  for (const claim of claims) {
    const group = bySlug.get(claim.category);
    if (group) group.push(claim);
    else bySlug.set(claim.category, [claim]);
  }
  const categories = [...bySlug].map(([slug, group]) => categoryConsensus(slug, group, sources, taxonomy));
  categories.sort(mostSevereFirst);

  const primary = categories.find(isRiskCategory) ?? null;
  const weighClaim = (a: Claim, b: Claim): number =>
    trustOf(sources, b.source) - trustOf(sources, a.source) || b.confidence - a.confidence || compareText(claimKey(a), claimKey(b));
  // Of equally trusted designations, the one that names the entity.
  const named = (c: SanctionClaim): number => (c.sanction.entity === null ? 0 : 1);
  const sanction = bestBy(
    claims.filter((c): c is SanctionClaim => c.kind === 'sanction'),
    (a, b) => trustOf(sources, b.source) - trustOf(sources, a.source) || named(b) - named(a) || weighClaim(a, b),
  );
  const names = claims
    .filter((c) => c.kind === 'identity' || (c.kind === 'sanction' && c.sanction.entity !== null))
    .sort(weighClaim)
    .map((c) => ({
      name:
        c.kind === 'sanction'
          ? present(c.sanction.entity, 'the filter above keeps sanction claims with an entity')
          : present(c.label, 'identity claims carry their label'),
      category: c.category,
      source: c.source,
    }));
  const riskLevel: RiskLevel = sanction ? 'sanctioned' : (primary?.riskLevel ?? 'none');
  const contributing = primary?.claims.map((c) => c.source) ?? claims.map((c) => c.source);
  const primarySource = bestBy([...new Set(contributing)], (a, b) => trustOf(sources, b) - trustOf(sources, a) || compareText(a, b));

  return {
    categories,
    primary,
    riskLevel,
    riskScore: scoreFor(riskLevel, primary?.probability ?? 0),
    confidence: primary ? Math.round(primary.probability * 100) : null,
    sanction,
    names,
    label: names[0]?.name ?? null,
    primarySourceSlug: primarySource === null ? null : shownSlug(sources, primarySource),
    sourceCount: new Set(claims.map((c) => c.source)).size,
    explanation: categories.map(({ slug, probability, claims: weighted }) => ({ slug, probability, claims: weighted })),
  };
}
