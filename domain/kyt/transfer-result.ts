import type { SourceVersion, TransferDataVersion } from '../coverage/data-versions.js';
import type { SanctionsCoverage } from '../coverage/sanctions-coverage.js';
import type { AlertLevel } from './alert-level.js';
import type { Composite, CompositeSender, ValuedLeg } from './composite.js';
import type { DecodedTransaction } from './decoded-transaction.js';
import type { PolicyOutcome } from './policy-engine.js';
import type { Policy } from './policy.types.js';
import type { PatternFinding } from './transfer-patterns.js';
import { actionOf, compositeLevelOf, type Action, type CompositeLevel } from '../shared/verdict-vocabulary.js';
import { TRANSFER_VERDICT_VERSION, type TransferVerdict, type VerdictCategory, type VerdictSender } from './transfer-verdict.js';

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

/** A transaction can move value thousands of times (an airdrop sweep): the verdict lists this many legs and senders at most, and says how many there are. */
export const MAX_LISTED = 500;

/** The actions per worst alert (the verdict vocabulary): Severe blocks, High holds, Medium asks for review, Low is an alert only. */
export const recommendedAction = (worst: AlertLevel | null): Action => actionOf(worst);

/** The composite's own level, from its 0..10 score (the verdict vocabulary): ≥ 9 severe, ≥ 7 high, ≥ 4 medium, > 0 low. */
export const compositeLevel = (score: number): CompositeLevel => compositeLevelOf(score);

/** The verdict of a completed transfer check from what it computed (transfer-verdict.ts; presented by read-api/presenters/transfer.presenter.ts). */
export function buildTransferVerdict(input: {
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
}): TransferVerdict {
  const { tx, composite, outcome, policy, coverage } = input;
  return {
    version: TRANSFER_VERDICT_VERSION,
    checkId: input.checkId,
    chain: tx.chain,
    txHash: tx.txHash,
    transaction: { blockNumber: tx.blockNumber, blockTime: tx.blockTime, success: tx.success, signer: tx.signer, to: tx.to },
    composite: {
      totalUsdMicros: composite.totalUsdMicros,
      pricing: composite.pricing,
      weighting: composite.weighting,
      prices: input.pricing.map((p) => ({ source: p.source, asOf: p.asOf })),
      riskScore: composite.riskScore,
      riskLevel: compositeLevel(composite.riskScore),
      unknownShare: composite.unknownShare,
      legsTotal: input.legs.length,
      legs: input.legs.slice(0, MAX_LISTED).map(legOf),
      sendersTotal: composite.senders.length,
      senders: composite.senders.slice(0, MAX_LISTED).map(senderOf),
      categories: composite.categories.map(categoryOf),
      patterns: input.patterns.map((p) => ({ slug: p.slug, address: p.anchor.address, detail: p.detail })),
    },
    policy: {
      id: input.policyId,
      name: policy.name,
      version: policy.version,
      taxonomyVersion: policy.taxonomyVersion,
      worstLevel: outcome.worstLevel,
      recommendedAction: recommendedAction(outcome.worstLevel),
      alerts: outcome.alerts.map((alert) => ({ ...alert })),
      explanations: outcome.matches.map((m) => ({
        ruleId: m.ruleId,
        categorySlug: m.categorySlug,
        exposureUsdMicros: m.exposureUsdMicros,
        note: m.note,
        sendersTotal: m.senders.length,
        senders: m.senders.slice(0, MAX_LISTED),
      })),
    },
    coverage: {
      sanctions: coverage.sanctions,
      taxonomy: policy.taxonomyVersion,
      snapshot: coverage.snapshot,
      sources: [...coverage.sources],
      transferData: [...coverage.transferData],
    },
    checkedAt: input.checkedAt,
  };
}

const legOf = (leg: ValuedLeg): TransferVerdict['composite']['legs'][number] => ({
  kind: leg.kind,
  token: leg.token,
  symbol: leg.symbol,
  decimals: leg.decimals,
  from: leg.from,
  to: leg.to,
  amount: leg.amount,
  usdMicros: leg.usdMicros,
  logIndex: leg.logIndex,
});

const senderOf = (s: CompositeSender): VerdictSender => ({
  address: s.address,
  label: s.label,
  usdMicros: s.usdMicros,
  weight: s.weight,
  legs: s.legs,
  dataAvailable: s.dataAvailable,
  riskScore: s.riskScore,
  riskLevel: compositeLevel(s.riskScore),
  direct: s.direct.map((c) => ({ slug: c.slug, level: c.level, severity: c.severity, confidence: c.confidence, sources: [...c.sources] })),
  indirect: s.indirect.map((c) => ({
    slug: c.slug,
    share: c.share,
    hops: c.hops,
    // Computed once, here: a share read back rounded would give another figure.
    usdMicros: Math.round(s.usdMicros * Math.min(1, c.share)),
    paths: c.paths.map((path) => ({ ...path, addresses: [...path.addresses] })),
  })),
  graph: s.graph,
});

const categoryOf = (c: Composite['categories'][number]): VerdictCategory => ({
  slug: c.slug,
  displayName: c.displayName,
  level: c.level,
  severity: c.severity,
  direct: c.direct ? { share: c.direct.share, usdMicros: c.direct.usdMicros } : null,
  indirect: c.indirect ? { share: c.indirect.share, usdMicros: c.indirect.usdMicros } : null,
});
