import { sourceVersionOfRow } from '../coverage/data-versions.body.js';
import type { TransferDataVersion } from '../coverage/data-versions.js';
import { sanctionsCoverageFactOf, type SanctionsCoverageBody } from '../coverage/sanctions-coverage.body.js';
import type { ExposurePath, SearchStops } from '../exposure/exposure.schema.js';
import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import { usdToMicros } from '../shared/money.js';
import { FULL_CHECK_VERDICT_VERSION, type ExposureOutcome, type FullCheckVerdict, type VerdictEvidence } from './full-check-verdict.js';
import type { ActivitySummary, NotAppliedReason } from './tier-outcome.schema.js';

/**
 * CheckCompleted version 1 → 2. Version 1 (written until verdicts were domain facts) stored the response
 * body itself, `{ result, at }`: snake case, USD and percent. Version 2 stores the domain verdict,
 * `{ verdict, at }` (full-check-verdict.ts). The body is read back into the verdict exactly: USD to
 * micro-USD (bodies carry at most 6 decimals) and percent to fractions (two decimals, which presenting
 * rounds back to the very same figure), so an old check is served the body it was served before
 * (test/e2e/stored-full-checks.e2e.test.ts holds it to that, on events today's code wrote before this).
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 * Fields that older bodies lack (`stops`, `coverage.sanctions`, data versions' `transfer_data` and
 * `imported_at`) stay absent, or null where the body served them as null.
 */

type Pct = number;
interface PathV1 {
  hops: number;
  addresses: string[];
  usd: number;
  share_pct: Pct;
  label: string | null;
  source: string;
  usd_estimated: boolean;
}
interface StopsV1 {
  services: { address: string; slug: string; label: string | null; hops: number; usd: number; share_pct: Pct }[];
  services_total: number;
  remainders: {
    address: string;
    hops: number;
    counterparties: number;
    usd: number;
    share_pct: Pct;
    remainder_usd: number;
    super_node: boolean;
  }[];
  remainders_total: number;
}
interface ExposureV1 {
  applied: boolean;
  reason: NotAppliedReason | null;
  complete: boolean | null;
  stopped_by: string | null;
  weighting: 'usd' | 'transfer_count' | null;
  total_usd: number | null;
  total_transfers: number | null;
  unattributed_pct: Pct | null;
  usd_estimated: boolean;
  search: { nodes: number; edges: number; hops: number; elapsed_ms: number } | null;
  categories: {
    slug: string;
    severity: number;
    risk_level: FullCheckVerdict['tiers'][number]['addressLevel'];
    usd: number;
    share_pct: Pct;
    weighted_share_pct: Pct;
    min_hops: number;
    entities: number;
    paths: PathV1[];
  }[];
  stops?: StopsV1 | null;
}
interface EvidenceV1 extends Omit<VerdictEvidence, 'addressLevel' | 'usdMicros' | 'share' | 'weightedShare' | 'paths'> {
  risk_level: VerdictEvidence['addressLevel'];
  usd: number | null;
  share_pct: Pct | null;
  weighted_share_pct: Pct | null;
  paths: PathV1[];
}
type SourceRowV1 = { source: string; version: string; content_hash: string; imported_at?: string };
type TransferDataRowV1 = {
  name: string;
  kind: TransferDataVersion['kind'];
  transfers: number;
  version: string | null;
  as_of: string | null;
  up_to_block: number | null;
  cap: string | null;
};

/** The full check's 200 body as version 1 of CheckCompleted stored it (without billing and receipt). */
export interface FullCheckResultV1 {
  check_id: string;
  address: string;
  network: string;
  provider: string;
  decision: FullCheckVerdict['decision'];
  decision_reason: string;
  verdict: ScreenVerdict['verdict'] & {
    tier_hit: number | null;
    ownership_risk_level: FullCheckVerdict['risk']['ownershipLevel'];
    exposure_risk_level: FullCheckVerdict['risk']['exposureLevel'];
  };
  coverage: Omit<ScreenVerdict['coverage'], 'sanctions' | 'data_versions'> & {
    sanctions?: SanctionsCoverageBody;
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

const share = (pct: Pct): number => pct / 100;
const micros = (usd: number): number => usdToMicros(usd);

const pathOf = (p: PathV1): ExposurePath => ({
  hops: p.hops,
  addresses: p.addresses,
  usdMicros: micros(p.usd),
  share: share(p.share_pct),
  label: p.label,
  source: p.source,
  usdEstimated: p.usd_estimated,
});

const stopsOf = (stops: StopsV1): SearchStops => ({
  services: stops.services.map((s) => ({
    address: s.address,
    category: s.slug,
    label: s.label,
    hops: s.hops,
    share: share(s.share_pct),
    usdMicros: micros(s.usd),
  })),
  servicesTotal: stops.services_total,
  remainders: stops.remainders.map((r) => ({
    address: r.address,
    hops: r.hops,
    counterparties: r.counterparties,
    share: share(r.share_pct),
    usdMicros: micros(r.usd),
    remainderUsdMicros: micros(r.remainder_usd),
    superNode: r.super_node,
  })),
  remaindersTotal: stops.remainders_total,
});

function exposureOf(body: ExposureV1): ExposureOutcome {
  const { search, weighting, complete } = body;
  // A body has its search's figures exactly when the search ran.
  if (search === null || weighting === null || complete === null) return { applied: body.applied, reason: body.reason, found: null };
  return {
    applied: body.applied,
    reason: body.reason,
    found: {
      complete,
      stoppedBy: body.stopped_by,
      weighting,
      totalUsdMicros: micros(body.total_usd ?? 0),
      totalTransfers: body.total_transfers ?? 0,
      unattributedShare: share(body.unattributed_pct ?? 0),
      usdEstimated: body.usd_estimated,
      nodesVisited: search.nodes,
      edgesScanned: search.edges,
      hopsReached: search.hops,
      elapsedMs: search.elapsed_ms,
      categories: body.categories.map((c) => ({
        slug: c.slug,
        severity: c.severity,
        addressLevel: c.risk_level,
        usdMicros: micros(c.usd),
        share: share(c.share_pct),
        weightedShare: share(c.weighted_share_pct),
        minHops: c.min_hops,
        entities: c.entities,
        paths: c.paths.map(pathOf),
      })),
      stops: body.stops ? stopsOf(body.stops) : null,
    },
  };
}

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
  paths: e.paths.map(pathOf),
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

const transferDataOf = (row: TransferDataRowV1): TransferDataVersion => ({
  name: row.name,
  kind: row.kind,
  transfers: row.transfers,
  version: row.version,
  asOf: row.as_of,
  upToBlock: row.up_to_block,
  cap: row.cap,
});

function dataVersionsOf(body: FullCheckResultV1['coverage']['data_versions']): FullCheckVerdict['dataVersions'] {
  return {
    taxonomy: body.taxonomy,
    snapshot: body.snapshot,
    sources: body.sources.map(sourceVersionOfRow),
    ...(body.transfer_data ? { transferData: body.transfer_data.map(transferDataOf) } : {}),
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

/** The stored body of version 1 as the domain verdict it states. */
export function fullCheckVerdictOfV1(body: FullCheckResultV1): FullCheckVerdict {
  const { verdict, exposure } = body;
  return {
    version: FULL_CHECK_VERDICT_VERSION,
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
