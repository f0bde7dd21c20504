import { present } from '../shared/present.js';
import { sourceVersionRow } from '../coverage/data-versions.body.js';
import { sourceVersion } from '../coverage/data-versions.js';
import { sanctionsCoverageBody } from '../coverage/sanctions-coverage.body.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import { computeConsensus, type CategoryConsensus, type Consensus } from './consensus.js';
import type { AddressIntel, SourceDescriptor } from './intel.types.js';
import { publicSlug, publicSourceName } from './intel.types.js';
import type { ScreenVerdict, VerdictBody } from './screen-verdict.schema.js';
import { TAXONOMY, type Taxonomy } from './taxonomy.js';

export { screenVerdictSchema, type ScreenVerdict } from './screen-verdict.schema.js';

/**
 * The light screen's `coverage` and `verdict` from what the index knows about one address on one
 * network. Tiers 0 (sanctions) and 1 (consensus) run; there is no graph on this endpoint.
 *
 * With no data at all, risk_level is 'none' (no risk signal was found) while risk_score and
 * confidence are null and data_available is false: unknown, not clean. With data but no risk
 * category (only a token listing, say), risk_score is 0 and confidence null.
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

function labelRows(consensus: Consensus, sources: Sources): VerdictBody['labels'] {
  return consensus.categories.flatMap((category) =>
    category.claims.map(({ claim }) => ({
      source: sourceSlug(sources, claim.source),
      source_name: sourceName(sources, claim.source),
      label: claim.label,
      category: claim.category,
      confidence: claim.confidence,
      source_url: claim.sourceUrl,
      first_seen_at: claim.firstSeenAt,
      last_seen_at: claim.lastSeenAt,
      dated_by: claim.datedBy ?? null,
    })),
  );
}

const isRiskCategory = (category: CategoryConsensus): boolean => category.riskLevel !== null && category.riskLevel !== 'none';

function categoryDetail(category: CategoryConsensus): VerdictBody['risk_category_detail'][number] {
  return {
    slug: category.slug,
    risk_level: category.riskLevel,
    severity: category.severity,
    confidence: Math.round(category.probability * 10_000) / 100,
    source_count: category.sourceCount,
    max_trust_weight: category.maxTrustWeight,
    sources: [...category.sources],
  };
}

function sdnMatch(consensus: Consensus, sources: Sources): VerdictBody['sdn_match'] {
  if (!consensus.sanction) return null;
  const { sanction, source } = consensus.sanction;
  return {
    list: sanction.list,
    entity: sanction.entity,
    program: sanction.program,
    list_entry_id: sanction.listEntryId,
    list_date: sanction.listDate,
    asset: sanction.asset,
    source: sourceSlug(sources, source),
  };
}

/** Distinct identity names, best first. */
function entities(consensus: Consensus, sources: Sources): VerdictBody['smart_contract']['complementary_entities'] {
  const seen = new Set<string>();
  return consensus.names
    .filter(({ name }) => !seen.has(name.toLowerCase()) && seen.add(name.toLowerCase()))
    .map(({ name, category, source }) => ({ name, category, source: sourceSlug(sources, source) }));
}

function smartContract(intel: AddressIntel, consensus: Consensus): VerdictBody['smart_contract'] {
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
    is_contract: isContract,
    token_contract: tokenContract && isContract,
    symbol: token?.symbol ?? null,
    decimals: token?.decimals ?? null,
    is_well_known: wellKnown,
    logo_url: token?.logoUrl ?? null,
    tags: [...(token?.tags ?? [])],
    primary_entity: named[0] ?? null,
    complementary_entities: named.slice(1),
  };
}

/** What a verdict is built from: the index's answer, and the sanctions lists it was checked against then. */
export type CheckedIntel = AddressIntel & { readonly sanctions: SanctionsCoverage };

export function buildScreenVerdict(intel: CheckedIntel, taxonomy: Taxonomy = TAXONOMY): ScreenVerdict {
  const consensus = computeConsensus(intel.claims, intel.sources, taxonomy);
  const dataAvailable = intel.claims.length > 0 || intel.token !== null;
  const consensusFound = consensus.categories.length > 0;
  const labels = labelRows(consensus, intel.sources);
  return {
    coverage: {
      data_available: dataAvailable,
      label_count: labels.length,
      source_count: consensus.sourceCount,
      sdn_checked: true,
      consensus_found: consensusFound,
      tiers: [...TIERS],
      graph_analysed: false,
      data_versions: {
        taxonomy: taxonomy.version,
        snapshot: intel.snapshot ?? null,
        sources: (intel.datasets ?? []).map((d) => sourceVersionRow({ ...sourceVersion(d), source: sourceSlug(intel.sources, d.source) })),
      },
      sanctions: sanctionsCoverageBody(intel.sanctions),
    },
    verdict: {
      ok: true,
      risk_level: consensus.riskLevel,
      risk_score: dataAvailable ? consensus.riskScore : null,
      risk_categories: consensus.categories.filter(isRiskCategory).map((category) => category.slug),
      consensus_found: consensusFound,
      source_count: consensus.sourceCount,
      confidence: consensus.confidence,
      primary_source_slug: consensus.primarySourceSlug,
      label: consensus.label,
      sdn_match: sdnMatch(consensus, intel.sources),
      labels,
      smart_contract: smartContract(intel, consensus),
      risk_category_detail: consensus.categories.map(categoryDetail),
    },
  };
}
