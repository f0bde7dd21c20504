import { present } from '../shared/present.js';
import { sourceVersion } from '../coverage/data-versions.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import { computeConsensus, type CategoryConsensus, type Consensus } from './consensus.js';
import type { AddressIntel, SourceDescriptor } from './intel.types.js';
import { publicSlug, publicSourceName } from './intel.types.js';
import { SCREEN_VERDICT_VERSION, type ScreenFindings, type ScreenVerdict } from './screen-verdict.schema.js';
import { TAXONOMY, type Taxonomy } from './taxonomy.js';

export { screenVerdictSchema, type ScreenVerdict } from './screen-verdict.schema.js';

/**
 * The light screen's verdict (a domain fact, screen-verdict.schema.ts) from what the index knows about
 * one address on one network. Tiers 0 (sanctions) and 1 (consensus) run; there is no graph on this
 * endpoint. read-api/presenters/screen-verdict.body.ts shapes the body's `coverage` and `verdict`.
 *
 * With no data at all, addressLevel is 'none' (no risk signal was found) while riskScore and
 * confidence are null and dataAvailable is false: unknown, not clean. With data but no risk
 * category (only a token listing, say), riskScore is 0 and confidence null.
 */

const TIERS = ['sanctions', 'consensus'];
const WELL_KNOWN_MIN_LISTS = 2;
const SEVERE_LEVELS = new Set(['high', 'critical', 'sanctioned']);

type Sources = Readonly<Record<string, SourceDescriptor>>;

function sourceSlug(sources: Sources, slug: string): string {
  return Object.hasOwn(sources, slug) ? publicSlug(present(sources[slug], 'Object.hasOwn checked the slug just before')) : slug;
}

function sourceName(sources: Sources, slug: string): string {
  return Object.hasOwn(sources, slug) ? publicSourceName(present(sources[slug], 'Object.hasOwn checked the slug just before')) : slug;
}

function labelRows(consensus: Consensus, sources: Sources): ScreenFindings['labels'] {
  return consensus.categories.flatMap((category) =>
    category.claims.map(({ claim }) => ({
      source: sourceSlug(sources, claim.source),
      sourceName: sourceName(sources, claim.source),
      label: claim.label,
      category: claim.category,
      confidence: claim.confidence,
      sourceUrl: claim.sourceUrl,
      firstSeenAt: claim.firstSeenAt,
      lastSeenAt: claim.lastSeenAt,
      datedBy: claim.datedBy ?? null,
    })),
  );
}

const isRiskCategory = (category: CategoryConsensus): boolean => category.riskLevel !== null && category.riskLevel !== 'none';

function categoryDetail(category: CategoryConsensus): ScreenFindings['categoryDetail'][number] {
  return {
    slug: category.slug,
    addressLevel: category.riskLevel,
    severity: category.severity,
    confidence: Math.round(category.probability * 10_000) / 100,
    sourceCount: category.sourceCount,
    maxTrustWeight: category.maxTrustWeight,
    sources: [...category.sources],
  };
}

function sanctionsMatch(consensus: Consensus, sources: Sources): ScreenFindings['sanctionsMatch'] {
  if (!consensus.sanction) return null;
  const { sanction, source } = consensus.sanction;
  return {
    list: sanction.list,
    entity: sanction.entity,
    program: sanction.program,
    listEntryId: sanction.listEntryId,
    listDate: sanction.listDate,
    asset: sanction.asset,
    source: sourceSlug(sources, source),
  };
}

/** Distinct identity names, best first. */
function entities(consensus: Consensus, sources: Sources): ScreenFindings['smartContract']['complementaryEntities'] {
  const seen = new Set<string>();
  return consensus.names
    .filter(({ name }) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
    .map(({ name, category, source }) => ({ name, category, source: sourceSlug(sources, source) }));
}

function smartContract(intel: AddressIntel, consensus: Consensus): ScreenFindings['smartContract'] {
  const { token } = intel;
  const has = (slug: string): boolean => intel.claims.some((claim) => claim.category === slug);
  const tokenContract = token !== null || has('token');
  // The chain's own answer when it was asked (eth_getCode), else what the lists say.
  const isContract = intel.onChain?.isContract ?? (tokenContract || has('contract'));
  const named = isContract ? entities(consensus, intel.sources) : [];
  const wellKnown =
    token !== null &&
    token.listedBy.length >= WELL_KNOWN_MIN_LISTS &&
    !token.tags.includes('spam') &&
    !SEVERE_LEVELS.has(consensus.riskLevel);
  return {
    isContract,
    tokenContract: tokenContract && isContract,
    symbol: token?.symbol ?? null,
    decimals: token?.decimals ?? null,
    isWellKnown: wellKnown,
    logoUrl: token?.logoUrl ?? null,
    tags: [...(token?.tags ?? [])],
    primaryEntity: named[0] ?? null,
    complementaryEntities: named.slice(1),
  };
}

/** What a verdict is built from: the index's answer, and the sanctions lists it was checked against then. */
export type CheckedIntel = AddressIntel & { readonly sanctions: SanctionsCoverage };

export function buildScreenVerdict(intel: CheckedIntel, taxonomy: Taxonomy = TAXONOMY): ScreenVerdict {
  const consensus = computeConsensus(intel.claims, intel.sources, taxonomy);
  const dataAvailable = intel.claims.length > 0 || intel.token !== null;
  const consensusFound = consensus.categories.length > 0;
  return {
    version: SCREEN_VERDICT_VERSION,
    coverage: {
      dataAvailable,
      tiers: [...TIERS],
      dataVersions: {
        taxonomy: taxonomy.version,
        snapshot: intel.snapshot ?? null,
        sources: (intel.datasets ?? []).map((d) => ({ ...sourceVersion(d), source: sourceSlug(intel.sources, d.source) })),
      },
      sanctions: intel.sanctions,
    },
    verdict: {
      addressLevel: consensus.riskLevel,
      riskScore: dataAvailable ? consensus.riskScore : null,
      riskCategories: consensus.categories.filter(isRiskCategory).map((category) => category.slug),
      consensusFound,
      sourceCount: consensus.sourceCount,
      confidence: consensus.confidence,
      primarySourceSlug: consensus.primarySourceSlug,
      label: consensus.label,
      sanctionsMatch: sanctionsMatch(consensus, intel.sources),
      labels: labelRows(consensus, intel.sources),
      smartContract: smartContract(intel, consensus),
      categoryDetail: consensus.categories.map(categoryDetail),
    },
  };
}
