import { sourceVersionOfRow, transferDataOfV1, type SourceRowV1, type TransferDataRowV1 } from '../coverage/data-versions.v1.js';
import { sanctionsCoverageFactOf, type SanctionsCoverageV1 } from '../coverage/sanctions-coverage.v1.js';
import { exposureFoundOfV1, microsOfUsd, pathOfV1, shareOfPct, type ExposureV1, type PathV1 } from '../exposure/exposure-body.v1.js';
import {
  categoryDetailOfV1,
  labelClaimOfV1,
  sanctionsMatchOfV1,
  smartContractOfV1,
  type ScreenVerdictV1,
} from '../intel/screen-verdict.v1.js';
import { FULL_CHECK_VERDICT_VERSION, type ExposureOutcome, type FullCheckVerdict, type VerdictEvidence } from './full-check-verdict.js';
import type { ActivitySummary, NotAppliedReason } from './tier-outcome.schema.js';

/**
 * CheckCompleted version 1 → 2. Version 1 (written until verdicts were domain facts) stored the response
 * body itself, `{ result, at }`: snake case, USD and percent. Version 2 stores the domain verdict,
 * `{ verdict, at }` (full-check-verdict.ts). The body is read back into the verdict exactly: USD to
 * micro-USD and percent to fractions, as ../exposure/exposure-body.v1.ts reads them, so an old check is
 * served the body it was served before (test/e2e/stored-full-checks.e2e.test.ts holds it to that, on
 * events today's code wrote before this).
 *
 * The version 1 shape is described here (its exposure bodies in exposure-body.v1.ts), and only here: the
 * historical record, not a shape anyone builds.
 * Fields that older bodies lack (`stops`, `coverage.sanctions`, data versions' `transfer_data` and
 * `imported_at`) stay absent, or null where the body served them as null.
 */

type Pct = number;
interface EvidenceV1 extends Omit<VerdictEvidence, 'addressLevel' | 'usdMicros' | 'share' | 'weightedShare' | 'paths'> {
  risk_level: VerdictEvidence['addressLevel'];
  usd: number | null;
  share_pct: Pct | null;
  weighted_share_pct: Pct | null;
  paths: PathV1[];
}

/** The full check's 200 body as version 1 of CheckCompleted stored it (without billing and receipt). */
export interface FullCheckResultV1 {
  check_id: string;
  address: string;
  network: string;
  provider: string;
  decision: FullCheckVerdict['decision'];
  decision_reason: string;
  verdict: ScreenVerdictV1['verdict'] & {
    tier_hit: number | null;
    ownership_risk_level: FullCheckVerdict['risk']['ownershipLevel'];
    exposure_risk_level: FullCheckVerdict['risk']['exposureLevel'];
  };
  coverage: Omit<ScreenVerdictV1['coverage'], 'sanctions' | 'data_versions'> & {
    sanctions?: SanctionsCoverageV1;
    data_versions: { taxonomy: string; snapshot: string | null; sources: SourceRowV1[]; transfer_data?: TransferDataRowV1[] };
    transfer_data: FullCheckVerdict['coverage']['transferDatasets'];
  };
  evidence: EvidenceV1[];
  exposure: Record<'direct_incoming' | 'direct_outgoing' | 'source_of_funds' | 'destination_of_funds', ExposureV1>;
  activity: {
    incoming_transfers: number;
    outgoing_transfers: number;
    incoming_usd: number;
    outgoing_usd: number;
    unpriced_transfers: number;
    first_seen_at: string;
    last_seen_at: string;
  } | null;
  tiers: {
    tier: number;
    applied: boolean;
    reason: NotAppliedReason | null;
    risk_level: FullCheckVerdict['tiers'][number]['addressLevel'];
  }[];
  requested_at: string;
  completed_at: string;
}

const share = shareOfPct;
const micros = microsOfUsd;

const exposureOf = (body: ExposureV1): ExposureOutcome => ({ applied: body.applied, reason: body.reason, found: exposureFoundOfV1(body) });

const evidenceOf = (e: EvidenceV1): VerdictEvidence => ({
  slug: e.slug,
  severity: e.severity,
  addressLevel: e.risk_level,
  relation: e.relation,
  direction: e.direction,
  tier: e.tier,
  usdMicros: e.usd === null ? null : micros(e.usd),
  share: e.share_pct === null ? null : share(e.share_pct),
  weightedShare: e.weighted_share_pct === null ? null : share(e.weighted_share_pct),
  hops: e.hops,
  sources: e.sources,
  paths: e.paths.map(pathOfV1),
});

const activityOf = (a: NonNullable<FullCheckResultV1['activity']>): ActivitySummary => ({
  incomingTransfers: a.incoming_transfers,
  outgoingTransfers: a.outgoing_transfers,
  incomingUsdMicros: micros(a.incoming_usd),
  outgoingUsdMicros: micros(a.outgoing_usd),
  unpricedTransfers: a.unpriced_transfers,
  firstAt: a.first_seen_at,
  lastAt: a.last_seen_at,
});

function dataVersionsOf(body: FullCheckResultV1['coverage']['data_versions']): FullCheckVerdict['dataVersions'] {
  return {
    taxonomy: body.taxonomy,
    snapshot: body.snapshot,
    sources: body.sources.map(sourceVersionOfRow),
    ...(body.transfer_data ? { transferData: body.transfer_data.map(transferDataOfV1) } : {}),
  };
}

function coverageOf(body: FullCheckResultV1['coverage']): FullCheckVerdict['coverage'] {
  return {
    dataAvailable: body.data_available,
    labelCount: body.label_count,
    sourceCount: body.source_count,
    consensusFound: body.consensus_found,
    ...(body.sanctions ? { sanctions: sanctionsCoverageFactOf(body.sanctions) } : {}),
    transferDatasets: body.transfer_data,
  };
}

function riskOf(verdict: FullCheckResultV1['verdict']): FullCheckVerdict['risk'] {
  return {
    level: verdict.risk_level,
    score: verdict.risk_score,
    categories: verdict.risk_categories,
    tierHit: verdict.tier_hit,
    ownershipLevel: verdict.ownership_risk_level,
    exposureLevel: verdict.exposure_risk_level,
    sourceCount: verdict.source_count,
    confidence: verdict.confidence,
    primarySourceSlug: verdict.primary_source_slug,
  };
}

/** The full check's verdict as CheckCompleted version 2 stored it: version 1 of the verdict, its intelligence in the body's words. */
type FullCheckVerdictV1 = Omit<FullCheckVerdict, 'version' | 'intel'> & {
  version: 1;
  intel: {
    consensusFound: boolean;
    label: string | null;
    sdnMatch: ScreenVerdictV1['verdict']['sdn_match'];
    labels: ScreenVerdictV1['verdict']['labels'];
    smartContract: ScreenVerdictV1['verdict']['smart_contract'];
    categoryDetail: ScreenVerdictV1['verdict']['risk_category_detail'];
  };
};

/** The stored body of version 1 as the domain verdict it states (version 1 of the verdict). */
export function fullCheckVerdictOfV1(body: FullCheckResultV1): FullCheckVerdictV1 {
  const { verdict, exposure } = body;
  return {
    version: 1,
    checkId: body.check_id,
    subject: { address: body.address, network: body.network },
    engine: body.provider,
    decision: body.decision,
    decisionReason: body.decision_reason,
    risk: riskOf(verdict),
    intel: {
      consensusFound: verdict.consensus_found,
      label: verdict.label,
      sdnMatch: verdict.sdn_match,
      labels: verdict.labels,
      smartContract: verdict.smart_contract,
      categoryDetail: verdict.risk_category_detail,
    },
    coverage: coverageOf(body.coverage),
    dataVersions: dataVersionsOf(body.coverage.data_versions),
    evidence: body.evidence.map(evidenceOf),
    exposure: {
      directIncoming: exposureOf(exposure.direct_incoming),
      directOutgoing: exposureOf(exposure.direct_outgoing),
      sourceOfFunds: exposureOf(exposure.source_of_funds),
      destinationOfFunds: exposureOf(exposure.destination_of_funds),
    },
    activity: body.activity ? activityOf(body.activity) : null,
    tiers: body.tiers.map((t) => ({ tier: t.tier, applied: t.applied, reason: t.reason, addressLevel: t.risk_level })),
    requestedAt: body.requested_at,
    completedAt: body.completed_at,
  };
}

/** The registry's upcaster of CheckCompleted from version 1 (pure: the stored data in, version 2's data out). */
export function checkCompletedV1toV2(data: unknown): unknown {
  const { result, at } = data as { result: FullCheckResultV1; at: string };
  return { verdict: fullCheckVerdictOfV1(result), at };
}

/**
 * CheckCompleted version 2 → 3: version 1 of the full check's verdict kept the address's own intelligence
 * (sanctions match, labels, smart contract, category detail) in the light screen's body words; version 2
 * of the verdict keeps the screen's domain shapes (../intel/screen-verdict.schema.ts), read back exactly.
 */
export function checkCompletedV2toV3(data: unknown): unknown {
  const { verdict, at } = data as { verdict: FullCheckVerdictV1; at: string };
  const { intel } = verdict;
  const upcast: FullCheckVerdict = {
    ...verdict,
    version: FULL_CHECK_VERDICT_VERSION,
    intel: {
      consensusFound: intel.consensusFound,
      label: intel.label,
      sdnMatch: intel.sdnMatch && sanctionsMatchOfV1(intel.sdnMatch),
      labels: intel.labels.map(labelClaimOfV1),
      smartContract: smartContractOfV1(intel.smartContract),
      categoryDetail: intel.categoryDetail.map(categoryDetailOfV1),
    },
  };
  return { verdict: upcast, at };
}
