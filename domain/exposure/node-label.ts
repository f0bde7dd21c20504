import { computeConsensus } from '../intel/consensus.js';
import { publicSlug, type AddressIntel } from '../intel/intel.types.js';
import { categoryOf, LEVEL_TO_RISK, TAXONOMY, type RiskLevel, type Taxonomy } from '../intel/taxonomy.js';

/**
 * What the exposure search needs to know about an address it reaches: whether anyone attributed it, and
 * to what. An attributed address ends the trace there (funds are "with" that entity; services such as
 * exchanges pool funds, so following them further says nothing about the anchor); an unattributed one
 * is followed further.
 */
export interface NodeLabel {
  /** The category that counts: sanctions when listed, else the most severe category of the consensus. */
  readonly category: string;
  readonly severity: number;
  readonly riskLevel: RiskLevel;
  /** The best name of the entity: an identity name, else what the best claim of the category calls it. */
  readonly label: string | null;
  /** Public slug of the best source behind the category. */
  readonly source: string;
  /** Public slugs of every source behind the category, best first: all of them contributed to the finding. */
  readonly sources: readonly string[];
  /** Noisy-OR confidence (0..100) that the category applies to this address; null for a token listing. */
  readonly confidence: number | null;
}

export type Classify = (address: string) => NodeLabel | null;

/** Categories at or above this severity are risk; below it (exchanges, DeFi, tokens) are services. */
export const RISK_SEVERITY_FLOOR = 4;

export function labelFromIntel(intel: AddressIntel, taxonomy: Taxonomy = TAXONOMY): NodeLabel | null {
  if (intel.claims.length === 0) {
    return intel.token === null
      ? null
      : {
          category: 'token',
          severity: 0,
          riskLevel: 'none',
          label: intel.token.name ?? intel.token.symbol,
          source: intel.token.listedBy[0] ?? 'token_list',
          sources: intel.token.listedBy.length > 0 ? [...intel.token.listedBy] : ['token_list'],
          confidence: null,
        };
  }
  const consensus = computeConsensus(intel.claims, intel.sources, taxonomy);
  if (consensus.sanction) {
    const source = intel.sources[consensus.sanction.source];
    const best = source ? publicSlug(source) : consensus.sanction.source;
    const listed = consensus.categories.find((c) => c.slug === 'sanctions');
    return {
      category: 'sanctions',
      severity: categoryOf(taxonomy, 'sanctions')?.severity ?? 10,
      riskLevel: 'sanctioned',
      label: consensus.label,
      source: best,
      sources: [best, ...(listed?.sources ?? []).filter((s) => s !== best)],
      confidence: listed ? Math.round(listed.probability * 100) : 100,
    };
  }
  const top = consensus.primary ?? consensus.categories[0];
  if (!top) return null;
  const definition = categoryOf(taxonomy, top.slug);
  return {
    category: top.slug,
    severity: definition?.severity ?? 0,
    riskLevel: definition ? LEVEL_TO_RISK[definition.level] : 'none',
    label: consensus.label ?? top.claims.find((c) => c.claim.label !== null)?.claim.label ?? null,
    source: top.sources[0] ?? 'unknown',
    sources: [...top.sources],
    confidence: Math.round(top.probability * 100),
  };
}

/**
 * A classifier that labels each attributed address once (its consensus is the costly part), for the searches
 * of one check or job, which meet the same services in both directions. Unattributed addresses, nearly all of
 * the ten thousand a search reaches, are not kept: a search classifies each address it reaches once, and a Map
 * of them all cost a sixth of a warm search's CPU (bench:graph, docs/benchmarks.md) for the few a second
 * search meets again, where a miss of the intel index costs about as much as the Map's lookup.
 */
export function memoized(classify: Classify): Classify {
  const labelled = new Map<string, NodeLabel>();
  return (address) => {
    const known = labelled.get(address);
    if (known !== undefined) return known;
    const label = classify(address);
    if (label !== null) labelled.set(address, label);
    return label;
  };
}
