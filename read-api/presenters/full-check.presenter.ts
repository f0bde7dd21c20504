import type { FullCheckVerdict, VerdictEvidence } from '../../domain/address-check/full-check-verdict.js';
import { TIER_NAMES, TIERS, type Tier } from '../../domain/address-check/tier-outcome.schema.js';
import { sourceVersionRow, transferDataRow } from './data-versions.presenter.js';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import { exposureBody, pathBody, pct } from './exposure.presenter.js';
import { microsToUsd } from '../../domain/shared/money.js';
import type { Evidence, FullCheckResult } from '../schemas/full-check-result.schema.js';
import { categoryDetailBody, labelRowBody, sdnMatchBody, smartContractBody } from './screen-verdict.body.js';

/**
 * The full check's domain verdict (CheckCompleted) in the body's words, the one shape of the V2 result,
 * the x402 result and the MCP tool's result, and what the dashboard's verdict page draws: USD (at most 6
 * decimals), percent (two decimals), snake case. Pure: the same verdict is always the same body.
 */

/** The body's `schema_version`: of the response body, not of the stored verdict (that is `verdict.version`). */
export const FULL_CHECK_SCHEMA_VERSION = 1;

const evidenceBody = (e: VerdictEvidence): Evidence => ({
  slug: e.slug,
  severity: e.severity,
  risk_level: e.addressLevel,
  relation: e.relation,
  direction: e.direction,
  tier: e.tier,
  usd: e.usdMicros === null ? null : microsToUsd(e.usdMicros),
  share_pct: e.share === null ? null : pct(e.share),
  weighted_share_pct: e.weightedShare === null ? null : pct(e.weightedShare),
  hops: e.hops,
  sources: [...e.sources],
  paths: e.paths.map(pathBody),
});

const tierOf = (v: FullCheckVerdict, tier: Tier) => v.tiers.find((t) => t.tier === tier);

/** The `verdict` object: the screen's fields (in its order) with the full check's level, score and tiers. */
function verdictBody(v: FullCheckVerdict): FullCheckResult['verdict'] {
  const { risk, intel } = v;
  return {
    ok: true,
    risk_level: risk.level,
    risk_score: risk.score,
    risk_categories: [...risk.categories],
    consensus_found: intel.consensusFound,
    source_count: risk.sourceCount,
    confidence: risk.confidence,
    primary_source_slug: risk.primarySourceSlug,
    label: intel.label,
    sdn_match: intel.sdnMatch && sdnMatchBody(intel.sdnMatch),
    labels: intel.labels.map(labelRowBody),
    smart_contract: smartContractBody(intel.smartContract),
    risk_category_detail: intel.categoryDetail.map(categoryDetailBody),
    tier3_applied: tierOf(v, 3)?.applied ?? false,
    tier3_reason: tierOf(v, 3)?.reason ?? null,
    tier4_applied: tierOf(v, 4)?.applied ?? false,
    tier4_reason: tierOf(v, 4)?.reason ?? null,
    tier_hit: risk.tierHit,
    ownership_risk_level: risk.ownershipLevel,
    exposure_risk_level: risk.exposureLevel,
  };
}

function dataVersionsBody(data: FullCheckVerdict['dataVersions']): FullCheckResult['coverage']['data_versions'] {
  return {
    taxonomy: data.taxonomy,
    snapshot: data.snapshot,
    // A source of a verdict recorded before `importedAt` was kept is served without it, as it was then.
    sources: data.sources.map((s) =>
      s.importedAt === undefined
        ? { source: s.source, version: s.version, content_hash: s.contentHash }
        : sourceVersionRow({ ...s, importedAt: s.importedAt }),
    ),
    ...(data.transferData ? { transfer_data: data.transferData.map(transferDataRow) } : {}),
  };
}

function coverageBody(v: FullCheckVerdict): FullCheckResult['coverage'] {
  const { coverage } = v;
  const applied = (t: Tier): boolean => tierOf(v, t)?.applied ?? false;
  return {
    data_available: coverage.dataAvailable,
    label_count: coverage.labelCount,
    source_count: coverage.sourceCount,
    sdn_checked: true,
    consensus_found: coverage.consensusFound,
    tiers: TIERS.filter((t) => t < 2 || applied(t)).map((t) => TIER_NAMES[t]),
    graph_analysed: applied(3) || applied(4),
    data_versions: dataVersionsBody(v.dataVersions),
    ...(coverage.sanctions ? { sanctions: sanctionsCoverageBody(coverage.sanctions) } : {}),
    transfer_history: v.activity !== null,
    transfer_data: coverage.transferDatasets.map((d) => ({ ...d })),
  };
}

function activityBody(a: NonNullable<FullCheckVerdict['activity']>): NonNullable<FullCheckResult['activity']> {
  return {
    incoming_transfers: a.incomingTransfers,
    outgoing_transfers: a.outgoingTransfers,
    incoming_usd: microsToUsd(a.incomingUsdMicros),
    outgoing_usd: microsToUsd(a.outgoingUsdMicros),
    unpriced_transfers: a.unpricedTransfers,
    first_seen_at: a.firstAt,
    last_seen_at: a.lastAt,
  };
}

/** The 200 body of a completed full check (without `receipt` and `billing`, which delivery adds). */
export function presentFullCheck(v: FullCheckVerdict): FullCheckResult {
  return {
    check_id: v.checkId,
    schema_version: FULL_CHECK_SCHEMA_VERSION,
    status: 'completed',
    address: v.subject.address,
    network: v.subject.network,
    provider: v.engine,
    decision: v.decision,
    decision_reason: v.decisionReason,
    verdict: verdictBody(v),
    coverage: coverageBody(v),
    evidence: v.evidence.map(evidenceBody),
    exposure: {
      direct_incoming: exposureBody(v.exposure.directIncoming),
      direct_outgoing: exposureBody(v.exposure.directOutgoing),
      source_of_funds: exposureBody(v.exposure.sourceOfFunds),
      destination_of_funds: exposureBody(v.exposure.destinationOfFunds),
    },
    activity: v.activity ? activityBody(v.activity) : null,
    tiers: v.tiers.map((t) => ({
      tier: t.tier,
      name: TIER_NAMES[t.tier as Tier],
      applied: t.applied,
      reason: t.reason,
      risk_level: t.addressLevel,
    })),
    requested_at: v.requestedAt,
    completed_at: v.completedAt,
  };
}
