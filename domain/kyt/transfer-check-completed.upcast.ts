import { sourceVersionOfRow, transferDataOfV1, type SourceRowV1, type TransferDataRowV1 } from '../coverage/data-versions.v1.js';
import { sanctionsCoverageFactOf, type SanctionsCoverageV1 } from '../coverage/sanctions-coverage.v1.js';
import { microsOfUsd as micros, pathOfV1, shareOfPct as share, type PathV1 } from '../exposure/exposure-body.v1.js';
import { TRANSFER_VERDICT_VERSION, type TransferVerdict, type VerdictCategory, type VerdictSender } from './transfer-verdict.js';

/**
 * TransferCheckCompleted version 1 → 2. Version 1 (written until verdicts were domain facts) stored the
 * response body itself as `result`: snake case, USD and percent. Version 2 stores the domain verdict as
 * `verdict` (transfer-verdict.ts). The body is read back into the verdict exactly: USD to micro-USD
 * (bodies carry at most 6 decimals) and percent to fractions (two decimals, which presenting rounds back to
 * the very same figure). Every USD figure is the body's own, never recomputed from a rounded share (an
 * indirect category's USD was the sender's USD × the unrounded share). So an old check is served the body
 * it was served before, and its receipt signs the same statement (test/e2e/stored-transfer-checks.e2e.test.ts
 * holds it to that, on events the code before this wrote).
 *
 * The version 1 shape is described here, and only here: the historical record, not a shape anyone builds.
 * Fields older bodies lack (`policy_result.policy_id`, `coverage`, sources' `imported_at`) stay absent.
 */

type Pct = number;
interface SenderV1 {
  address: string;
  label: string | null;
  usd_value: number;
  share: Pct;
  legs: number;
  data_available: boolean;
  risk_score: number;
  risk_level: VerdictSender['riskLevel'];
  direct_categories: VerdictSender['direct'];
  indirect_categories: { slug: string; share: Pct; hops: number | null; usd_value: number; paths: PathV1[] }[];
  graph: VerdictSender['graph'];
}
interface CategoryV1 {
  slug: string;
  display_name: string;
  level: VerdictCategory['level'];
  severity: number;
  direct_share: Pct;
  direct_usd: number;
  indirect_share: Pct;
  indirect_usd: number;
}
type Verdict = TransferVerdict;

/** The transfer check's 200 body as version 1 of TransferCheckCompleted stored it (without billing and receipt). */
export interface TransferResultV1 {
  check_id: string;
  chain: Verdict['chain'];
  tx_hash: string;
  transaction: { block_number: number; block_time: string; success: boolean; signer: string; to: string | null };
  composite_result: {
    total_usd: number;
    pricing: Verdict['composite']['pricing'];
    weighting: Verdict['composite']['weighting'];
    prices: { source: string; as_of: string }[];
    risk_score: number;
    risk_level: Verdict['composite']['riskLevel'];
    unknown_share: Pct;
    legs_total: number;
    legs: {
      kind: 'native' | 'token';
      token: string | null;
      symbol: string | null;
      decimals: number | null;
      from: string;
      to: string;
      amount: string;
      usd_value: number | null;
      log_index: number | null;
    }[];
    senders_total: number;
    senders: SenderV1[];
    categories: CategoryV1[];
    patterns: { slug: string; address: string; detail: string }[];
  };
  policy_result: {
    policy_id?: string;
    policy: string;
    version: string;
    taxonomy_version: string;
    worst_level: Verdict['policy']['worstLevel'];
    recommended_action: Verdict['policy']['recommendedAction'];
    alerts: Verdict['policy']['alerts'];
    explanations: {
      rule_id: string;
      category_slug: string;
      exposure_usd: number;
      note: string;
      senders_total: number;
      senders: string[];
    }[];
  };
  coverage?: {
    sanctions: SanctionsCoverageV1;
    data_versions: { taxonomy: string; snapshot: string | null; sources: SourceRowV1[]; transfer_data: TransferDataRowV1[] };
  };
  checked_at: string;
}

const senderOf = (s: SenderV1): VerdictSender => ({
  address: s.address,
  label: s.label,
  usdMicros: micros(s.usd_value),
  weight: share(s.share),
  legs: s.legs,
  dataAvailable: s.data_available,
  riskScore: s.risk_score,
  riskLevel: s.risk_level,
  direct: s.direct_categories,
  indirect: s.indirect_categories.map((c) => ({
    slug: c.slug,
    share: share(c.share),
    hops: c.hops,
    usdMicros: micros(c.usd_value),
    paths: c.paths.map(pathOfV1),
  })),
  graph: s.graph,
});

/** A body said 0 and 0 for a kind of exposure no sender carried. */
const categoryShareOf = (pct: Pct, usd: number) => (pct > 0 || usd > 0 ? { share: share(pct), usdMicros: micros(usd) } : null);

const categoryOf = (c: CategoryV1): VerdictCategory => ({
  slug: c.slug,
  displayName: c.display_name,
  level: c.level,
  severity: c.severity,
  direct: categoryShareOf(c.direct_share, c.direct_usd),
  indirect: categoryShareOf(c.indirect_share, c.indirect_usd),
});

function compositeOf(c: TransferResultV1['composite_result']): Verdict['composite'] {
  return {
    totalUsdMicros: micros(c.total_usd),
    pricing: c.pricing,
    weighting: c.weighting,
    prices: c.prices.map((p) => ({ source: p.source, asOf: p.as_of })),
    riskScore: c.risk_score,
    riskLevel: c.risk_level,
    unknownShare: share(c.unknown_share),
    legsTotal: c.legs_total,
    legs: c.legs.map((leg) => ({
      kind: leg.kind,
      token: leg.token,
      symbol: leg.symbol,
      decimals: leg.decimals,
      from: leg.from,
      to: leg.to,
      amount: leg.amount,
      usdMicros: leg.usd_value === null ? null : micros(leg.usd_value),
      logIndex: leg.log_index,
    })),
    sendersTotal: c.senders_total,
    senders: c.senders.map(senderOf),
    categories: c.categories.map(categoryOf),
    patterns: c.patterns,
  };
}

function policyOf(p: TransferResultV1['policy_result']): Verdict['policy'] {
  return {
    ...(p.policy_id === undefined ? {} : { id: p.policy_id }),
    name: p.policy,
    version: p.version,
    taxonomyVersion: p.taxonomy_version,
    worstLevel: p.worst_level,
    recommendedAction: p.recommended_action,
    alerts: p.alerts,
    explanations: p.explanations.map((m) => ({
      ruleId: m.rule_id,
      categorySlug: m.category_slug,
      exposureUsdMicros: micros(m.exposure_usd),
      note: m.note,
      sendersTotal: m.senders_total,
      senders: m.senders,
    })),
  };
}

function coverageOf(c: NonNullable<TransferResultV1['coverage']>): NonNullable<Verdict['coverage']> {
  const versions = c.data_versions;
  return {
    sanctions: sanctionsCoverageFactOf(c.sanctions),
    taxonomy: versions.taxonomy,
    snapshot: versions.snapshot,
    sources: versions.sources.map(sourceVersionOfRow),
    transferData: versions.transfer_data.map(transferDataOfV1),
  };
}

/** The stored body of version 1 as the domain verdict it states. */
export function transferVerdictOfV1(body: TransferResultV1): TransferVerdict {
  const t = body.transaction;
  return {
    version: TRANSFER_VERDICT_VERSION,
    checkId: body.check_id,
    chain: body.chain,
    txHash: body.tx_hash,
    transaction: { blockNumber: t.block_number, blockTime: t.block_time, success: t.success, signer: t.signer, to: t.to },
    composite: compositeOf(body.composite_result),
    policy: policyOf(body.policy_result),
    ...(body.coverage ? { coverage: coverageOf(body.coverage) } : {}),
    checkedAt: body.checked_at,
  };
}

/** The registry's upcaster of TransferCheckCompleted from version 1 (pure: the stored data in, version 2's data out). */
export function transferCheckCompletedV1toV2(data: unknown): unknown {
  const { result, ...rest } = data as { result: TransferResultV1 } & Record<string, unknown>;
  return { ...rest, verdict: transferVerdictOfV1(result) };
}
