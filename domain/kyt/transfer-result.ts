import type { ExposurePath } from '../exposure/exposure.schema.js';
import { sourceVersionRow, transferDataRow } from '../coverage/data-versions.body.js';
import type { SourceVersion, TransferDataVersion } from '../coverage/data-versions.js';
import { sanctionsCoverageBody } from '../coverage/sanctions-coverage.body.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import { microsToUsd } from '../shared/money.js';
import type { AlertLevel } from './alert-level.js';
import type { Composite, ValuedLeg } from './composite.js';
import type { DecodedTransaction } from './decoded-transaction.js';
import type { PolicyOutcome } from './policy-engine.js';
import type { Policy } from './policy.types.js';
import type { PatternFinding } from './transfer-patterns.js';
import { actionOf, compositeLevelOf, type Action, type CompositeLevel } from '../shared/verdict-vocabulary.js';

/** Bumped when a field of the transfer check's body changes meaning. */
export const TRANSFER_RESULT_SCHEMA_VERSION = 1;

/**
 * What the check read: the sanctions lists the senders were checked against, the intelligence sources
 * behind any sender's direct or indirect exposure, and the transfer data the senders were traced in.
 */
export interface TransferCoverage {
  readonly sanctions: SanctionsCoverage;
  readonly snapshot: string;
  readonly sources: readonly SourceVersion[];
  readonly transferData: readonly TransferDataVersion[];
}

/** Where the USD values came from: each price source used and the date of the row it answered from. */
export interface PricingUsed {
  readonly source: string;
  readonly asOf: string;
}

const pct = (share: number): number => Math.round(share * 10_000) / 100;

/** One route of exposure in the body's words (read-api/presenters/exposure.presenter.ts's; this file moves there with issue 29). */
const pathBody = (path: ExposurePath) => ({
  hops: path.hops,
  addresses: [...path.addresses],
  usd: microsToUsd(path.usdMicros),
  share_pct: pct(path.share),
  label: path.label,
  source: path.source,
  usd_estimated: path.usdEstimated,
});

/** A transaction can move value thousands of times (an airdrop sweep): the body lists this many legs and senders at most, and says how many there are. */
export const MAX_LISTED = 500;

/** The actions per worst alert (the verdict vocabulary): Severe blocks, High holds, Medium asks for review, Low is an alert only. */
export const recommendedAction = (worst: AlertLevel | null): Action => actionOf(worst);

/** The composite's own level, from its 0..10 score (the verdict vocabulary): ≥ 9 severe, ≥ 7 high, ≥ 4 medium, > 0 low. */
export const compositeLevel = (score: number): CompositeLevel => compositeLevelOf(score);

/**
 * The body of a completed transfer check (the 200 without `billing`): the transaction, the
 * USD-weighted `composite_result` with every leg and sender, and the `policy_result` with the alerts in
 * the spec's shape, each explained by the rule that raised it.
 */
export function transferResultBody(input: {
  checkId: string;
  tx: DecodedTransaction;
  legs: readonly ValuedLeg[];
  composite: Composite;
  patterns: readonly PatternFinding[];
  outcome: PolicyOutcome;
  policy: Policy;
  /** `standard`, or the id of the subgroup's policy the version belongs to. */
  policyId: string;
  pricing: readonly PricingUsed[];
  coverage: TransferCoverage;
  checkedAt: string;
}): Record<string, unknown> {
  const { tx, composite, outcome, policy, coverage } = input;
  return {
    schema_version: TRANSFER_RESULT_SCHEMA_VERSION,
    check_id: input.checkId,
    status: 'completed',
    chain: tx.chain,
    tx_hash: tx.txHash,
    transaction: { block_number: tx.blockNumber, block_time: tx.blockTime, success: tx.success, signer: tx.signer, to: tx.to },
    composite_result: {
      total_usd: microsToUsd(composite.totalUsdMicros),
      pricing: composite.pricing,
      weighting: composite.weighting,
      prices: input.pricing.map((p) => ({ source: p.source, as_of: p.asOf })),
      risk_score: composite.riskScore,
      risk_level: compositeLevel(composite.riskScore),
      unknown_share: pct(composite.unknownShare),
      legs_total: input.legs.length,
      legs: input.legs.slice(0, MAX_LISTED).map((leg) => ({
        kind: leg.kind,
        token: leg.token,
        symbol: leg.symbol,
        decimals: leg.decimals,
        from: leg.from,
        to: leg.to,
        amount: leg.amount,
        usd_value: leg.usdMicros === null ? null : microsToUsd(leg.usdMicros),
        log_index: leg.logIndex,
      })),
      senders_total: composite.senders.length,
      senders: composite.senders.slice(0, MAX_LISTED).map((s) => ({
        address: s.address,
        label: s.label,
        usd_value: microsToUsd(s.usdMicros),
        share: pct(s.weight),
        legs: s.legs,
        data_available: s.dataAvailable,
        risk_score: s.riskScore,
        risk_level: compositeLevel(s.riskScore),
        direct_categories: s.direct.map((c) => ({
          slug: c.slug,
          level: c.level,
          severity: c.severity,
          confidence: c.confidence,
          sources: c.sources,
        })),
        indirect_categories: s.indirect.map((c) => ({
          slug: c.slug,
          share: pct(c.share),
          hops: c.hops,
          usd_value: microsToUsd(Math.round(s.usdMicros * Math.min(1, c.share))),
          paths: c.paths.map(pathBody),
        })),
        graph: s.graph,
      })),
      categories: composite.categories.map((c) => ({
        slug: c.slug,
        display_name: c.displayName,
        level: c.level,
        severity: c.severity,
        direct_share: c.direct ? pct(c.direct.share) : 0,
        direct_usd: c.direct ? microsToUsd(c.direct.usdMicros) : 0,
        indirect_share: c.indirect ? pct(c.indirect.share) : 0,
        indirect_usd: c.indirect ? microsToUsd(c.indirect.usdMicros) : 0,
      })),
      patterns: input.patterns.map((p) => ({ slug: p.slug, address: p.anchor.address, detail: p.detail })),
    },
    policy_result: {
      policy_id: input.policyId,
      policy: policy.name,
      version: policy.version,
      taxonomy_version: policy.taxonomyVersion,
      worst_level: outcome.worstLevel,
      recommended_action: recommendedAction(outcome.worstLevel),
      alert_count: outcome.alerts.length,
      alerts: outcome.alerts,
      explanations: outcome.matches.map((m) => ({
        rule_id: m.ruleId,
        category_slug: m.categorySlug,
        exposure_usd: microsToUsd(m.exposureUsdMicros),
        note: m.note,
        senders_total: m.senders.length,
        senders: m.senders.slice(0, MAX_LISTED),
      })),
    },
    coverage: {
      sanctions: sanctionsCoverageBody(coverage.sanctions),
      data_versions: {
        taxonomy: policy.taxonomyVersion,
        snapshot: coverage.snapshot,
        sources: coverage.sources.map(sourceVersionRow),
        transfer_data: coverage.transferData.map(transferDataRow),
      },
    },
    checked_at: input.checkedAt,
  };
}
