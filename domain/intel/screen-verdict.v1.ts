import { sourceVersionOfRow, type SourceRowV1 } from '../coverage/data-versions.v1.js';
import { sanctionsCoverageFactOf, type SanctionsCoverageV1 } from '../coverage/sanctions-coverage.v1.js';
import type { RiskLevel } from '../shared/verdict-vocabulary.js';
import type { ClaimDating, SanctionList } from './intel.types.js';
import {
  SCREEN_VERDICT_VERSION,
  type CategoryDetail,
  type LabelClaim,
  type ScreenVerdict,
  type SmartContract,
} from './screen-verdict.schema.js';

/**
 * The light screen's verdict as it was recorded before it was a domain fact: the response body's
 * `coverage` and `verdict`, snake case (tier 1's TierCompleted version 1, a screen's outcome kept under an
 * Idempotency-Key, the inspect's own engine answer, the full check's intelligence in CheckCompleted
 * version 2). Described here, and only here: the historical record, not a shape anyone builds. It is
 * read back exactly; what older records lack (`sanctions`, `imported_at`, `dated_by`) stays absent or null.
 */

export interface SanctionsMatchV1 {
  list: SanctionList;
  entity: string | null;
  program: string | null;
  list_entry_id: string | null;
  list_date: string | null;
  asset: string | null;
  source: string;
}

export interface LabelRowV1 {
  source: string;
  source_name: string;
  label: string | null;
  category: string;
  confidence: number;
  source_url: string;
  first_seen_at: string;
  last_seen_at: string;
  dated_by?: ClaimDating | null;
}

interface EntityV1 {
  name: string;
  category: string;
  source: string;
}

export interface SmartContractV1 {
  is_contract: boolean;
  token_contract: boolean;
  symbol: string | null;
  decimals: number | null;
  is_well_known: boolean;
  logo_url: string | null;
  tags: string[];
  primary_entity: EntityV1 | null;
  complementary_entities: EntityV1[];
}

export interface CategoryDetailV1 {
  slug: string;
  risk_level: RiskLevel | null;
  severity: number | null;
  confidence: number | null;
  source_count: number | null;
  max_trust_weight: number | null;
  sources: string[];
}

export interface ScreenVerdictV1 {
  coverage: {
    data_available: boolean;
    label_count: number;
    source_count: number;
    sdn_checked: true;
    consensus_found: boolean;
    tiers: string[];
    graph_analysed: false;
    data_versions: { taxonomy: string; snapshot: string | null; sources: SourceRowV1[] };
    sanctions?: SanctionsCoverageV1;
  };
  verdict: {
    ok: true;
    risk_level: RiskLevel | null;
    risk_score: number | null;
    risk_categories: string[];
    consensus_found: boolean;
    source_count: number;
    confidence: number | null;
    primary_source_slug: string | null;
    label: string | null;
    sdn_match: SanctionsMatchV1 | null;
    labels: LabelRowV1[];
    smart_contract: SmartContractV1;
    risk_category_detail: CategoryDetailV1[];
  };
}

export const sanctionsMatchOfV1 = (match: SanctionsMatchV1): NonNullable<ScreenVerdict['verdict']['sanctionsMatch']> => ({
  list: match.list,
  entity: match.entity,
  program: match.program,
  listEntryId: match.list_entry_id,
  listDate: match.list_date,
  asset: match.asset,
  source: match.source,
});

export const labelClaimOfV1 = (row: LabelRowV1): LabelClaim => ({
  source: row.source,
  sourceName: row.source_name,
  label: row.label,
  category: row.category,
  confidence: row.confidence,
  sourceUrl: row.source_url,
  firstSeenAt: row.first_seen_at,
  lastSeenAt: row.last_seen_at,
  datedBy: row.dated_by ?? null,
});

export const smartContractOfV1 = (sc: SmartContractV1): SmartContract => ({
  isContract: sc.is_contract,
  tokenContract: sc.token_contract,
  symbol: sc.symbol,
  decimals: sc.decimals,
  isWellKnown: sc.is_well_known,
  logoUrl: sc.logo_url,
  tags: [...sc.tags],
  primaryEntity: sc.primary_entity,
  complementaryEntities: [...sc.complementary_entities],
});

export const categoryDetailOfV1 = (d: CategoryDetailV1): CategoryDetail => ({
  slug: d.slug,
  addressLevel: d.risk_level,
  severity: d.severity,
  confidence: d.confidence,
  sourceCount: d.source_count,
  maxTrustWeight: d.max_trust_weight,
  sources: [...d.sources],
});

export function screenVerdictOfV1({ coverage, verdict }: ScreenVerdictV1): ScreenVerdict {
  return {
    version: SCREEN_VERDICT_VERSION,
    coverage: {
      dataAvailable: coverage.data_available,
      tiers: [...coverage.tiers],
      dataVersions: {
        taxonomy: coverage.data_versions.taxonomy,
        snapshot: coverage.data_versions.snapshot,
        sources: coverage.data_versions.sources.map(sourceVersionOfRow),
      },
      ...(coverage.sanctions ? { sanctions: sanctionsCoverageFactOf(coverage.sanctions) } : {}),
    },
    verdict: {
      addressLevel: verdict.risk_level,
      riskScore: verdict.risk_score,
      riskCategories: [...verdict.risk_categories],
      consensusFound: verdict.consensus_found,
      sourceCount: verdict.source_count,
      confidence: verdict.confidence,
      primarySourceSlug: verdict.primary_source_slug,
      label: verdict.label,
      sanctionsMatch: verdict.sdn_match && sanctionsMatchOfV1(verdict.sdn_match),
      labels: verdict.labels.map(labelClaimOfV1),
      smartContract: smartContractOfV1(verdict.smart_contract),
      categoryDetail: verdict.risk_category_detail.map(categoryDetailOfV1),
    },
  };
}

/** A recorded screen verdict in the body's words (the domain's carries `version`). */
export const isScreenVerdictV1 = (recorded: unknown): recorded is ScreenVerdictV1 =>
  typeof recorded === 'object' && recorded !== null && !('version' in recorded) && 'verdict' in recorded;
