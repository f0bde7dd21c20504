import { sourceVersionRow } from './data-versions.presenter.js';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import type { CategoryDetail, LabelClaim, SanctionsMatch, ScreenVerdict, SmartContract } from '../../domain/intel/screen-verdict.schema.js';
import type { ScreenVerdictParts, SdnMatchBody, VerdictBody } from '../schemas/screen-verdict.body.js';

/**
 * The light screen's `coverage` and `verdict` objects (the spec's words, ../schemas/screen-verdict.body.ts)
 * from its domain verdict (domain/intel/screen-verdict.schema.ts). Also the full check's intelligence
 * rows, which are the screen's. Key order is the body's: bodies served before the verdict was a domain
 * fact are served byte for byte (test/e2e/stored-screens.e2e.test.ts, the presenters' property tests).
 */

export const sdnMatchBody = (match: SanctionsMatch): SdnMatchBody => ({
  list: match.list,
  entity: match.entity,
  program: match.program,
  list_entry_id: match.listEntryId,
  list_date: match.listDate,
  asset: match.asset,
  source: match.source,
});

export const labelRowBody = (claim: LabelClaim): VerdictBody['labels'][number] => ({
  source: claim.source,
  source_name: claim.sourceName,
  label: claim.label,
  category: claim.category,
  confidence: claim.confidence,
  source_url: claim.sourceUrl,
  first_seen_at: claim.firstSeenAt,
  last_seen_at: claim.lastSeenAt,
  dated_by: claim.datedBy,
});

export const smartContractBody = (sc: SmartContract): VerdictBody['smart_contract'] => ({
  is_contract: sc.isContract,
  token_contract: sc.tokenContract,
  symbol: sc.symbol,
  decimals: sc.decimals,
  is_well_known: sc.isWellKnown,
  logo_url: sc.logoUrl,
  tags: [...sc.tags],
  primary_entity: sc.primaryEntity,
  complementary_entities: [...sc.complementaryEntities],
});

export const categoryDetailBody = (d: CategoryDetail): VerdictBody['risk_category_detail'][number] => ({
  slug: d.slug,
  risk_level: d.addressLevel,
  severity: d.severity,
  confidence: d.confidence,
  source_count: d.sourceCount,
  max_trust_weight: d.maxTrustWeight,
  sources: [...d.sources],
});

type SourceRow = ScreenVerdictParts['coverage']['data_versions']['sources'][number];

/** A source row; `imported_at` stays absent where the recorded verdict lacked it (as its body did). */
const sourceRowBody = (source: ScreenVerdict['coverage']['dataVersions']['sources'][number]): SourceRow =>
  source.importedAt === undefined
    ? ({ source: source.source, version: source.version, content_hash: source.contentHash } as SourceRow)
    : sourceVersionRow({ ...source, importedAt: source.importedAt });

function coverageBody({ coverage, verdict }: ScreenVerdict): ScreenVerdictParts['coverage'] {
  const { dataVersions, sanctions } = coverage;
  return {
    data_available: coverage.dataAvailable,
    label_count: verdict.labels.length,
    source_count: verdict.sourceCount,
    sdn_checked: true,
    consensus_found: verdict.consensusFound,
    tiers: [...coverage.tiers],
    graph_analysed: false,
    data_versions: { taxonomy: dataVersions.taxonomy, snapshot: dataVersions.snapshot, sources: dataVersions.sources.map(sourceRowBody) },
    // Absent only from verdicts recorded before verdicts stated it, whose bodies lacked it too.
    ...(sanctions ? { sanctions: sanctionsCoverageBody(sanctions) } : {}),
  } as ScreenVerdictParts['coverage'];
}

function verdictBody({ verdict }: ScreenVerdict): VerdictBody {
  return {
    ok: true,
    risk_level: verdict.addressLevel,
    risk_score: verdict.riskScore,
    risk_categories: [...verdict.riskCategories],
    consensus_found: verdict.consensusFound,
    source_count: verdict.sourceCount,
    confidence: verdict.confidence,
    primary_source_slug: verdict.primarySourceSlug,
    label: verdict.label,
    sdn_match: verdict.sanctionsMatch && sdnMatchBody(verdict.sanctionsMatch),
    labels: verdict.labels.map(labelRowBody),
    smart_contract: smartContractBody(verdict.smartContract),
    risk_category_detail: verdict.categoryDetail.map(categoryDetailBody),
  };
}

/** The body's `coverage` and `verdict` of a light screen's domain verdict. */
export const screenVerdictParts = (screen: ScreenVerdict): ScreenVerdictParts => ({
  coverage: coverageBody(screen),
  verdict: verdictBody(screen),
});
