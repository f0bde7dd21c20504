import type { TransferDelivery } from '../../commands/kyt/deliver-transfer-check.js';
import { transferResultUrl } from '../../commands/kyt/transfer-check.commands.js';
import { x402TransferResultPath, type X402TransferOutcome } from '../../commands/x402/x402-transfer-checks.js';
import { sourceVersionRow, transferDataRow } from './data-versions.presenter.js';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import { pathBody } from './exposure.presenter.js';
import type { TransferVerdict, VerdictCategory, VerdictSender } from '../../domain/kyt/transfer-verdict.js';
import { microsToUsd } from '../../domain/shared/money.js';
import type { TransferResultBody as TransferResultWire } from '../schemas/transfer.js';
import type { BillingBody } from '../schemas/billing.js';
import { presentBilling } from './billing.presenter.js';
import type { Presented } from './presented.js';

/**
 * The transfer check's domain verdict (TransferCheckCompleted) in the body's words, the one shape of the
 * V2 result, the x402 result and the MCP tool's result, and what the dashboard's transfer pages draw: USD
 * (at most 6 decimals), percent (two decimals), snake case. Pure: the same verdict is always the same body.
 */

/** The body's `schema_version`: of the response body, not of the stored verdict (that is `verdict.version`). */
export const TRANSFER_RESULT_SCHEMA_VERSION = 1;

/** The 200 body without `receipt` and `billing`, which delivery adds. */
export type TransferResultBody = Omit<TransferResultWire, 'receipt' | 'billing'>;
type Composite = TransferResultBody['composite_result'];

/** The 202 body: the check is running; fetch `retry_url`. */
export interface TransferRunningBody {
  readonly check_id: string;
  readonly status: 'running';
  readonly retry_url: string;
}

const pct = (share: number): number => Math.round(share * 10_000) / 100;

const senderBody = (s: VerdictSender): Composite['senders'][number] => ({
  address: s.address,
  label: s.label,
  usd_value: microsToUsd(s.usdMicros),
  share: pct(s.weight),
  legs: s.legs,
  data_available: s.dataAvailable,
  risk_score: s.riskScore,
  risk_level: s.riskLevel,
  direct_categories: s.direct.map((c) => ({
    slug: c.slug,
    level: c.level,
    severity: c.severity,
    confidence: c.confidence,
    sources: [...c.sources],
  })),
  indirect_categories: s.indirect.map((c) => ({
    slug: c.slug,
    share: pct(c.share),
    hops: c.hops,
    usd_value: microsToUsd(c.usdMicros),
    paths: c.paths.map(pathBody),
  })),
  graph: s.graph,
});

const categoryBody = (c: VerdictCategory): Composite['categories'][number] => ({
  slug: c.slug,
  display_name: c.displayName,
  level: c.level,
  severity: c.severity,
  direct_share: c.direct ? pct(c.direct.share) : 0,
  direct_usd: c.direct ? microsToUsd(c.direct.usdMicros) : 0,
  indirect_share: c.indirect ? pct(c.indirect.share) : 0,
  indirect_usd: c.indirect ? microsToUsd(c.indirect.usdMicros) : 0,
});

function compositeBody(c: TransferVerdict['composite']): Composite {
  return {
    total_usd: microsToUsd(c.totalUsdMicros),
    pricing: c.pricing,
    weighting: c.weighting,
    prices: c.prices.map((p) => ({ source: p.source, as_of: p.asOf })),
    risk_score: c.riskScore,
    risk_level: c.riskLevel,
    unknown_share: pct(c.unknownShare),
    legs_total: c.legsTotal,
    legs: c.legs.map((leg) => ({
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
    senders_total: c.sendersTotal,
    senders: c.senders.map(senderBody),
    categories: c.categories.map(categoryBody),
    patterns: c.patterns.map((p) => ({ slug: p.slug, address: p.address, detail: p.detail })),
  };
}

function policyBody(p: TransferVerdict['policy']): TransferResultBody['policy_result'] {
  return {
    // Absent in checks completed before policies had ids, as it was then.
    ...(p.id === undefined ? {} : { policy_id: p.id }),
    policy: p.name,
    version: p.version,
    taxonomy_version: p.taxonomyVersion,
    worst_level: p.worstLevel,
    recommended_action: p.recommendedAction,
    alert_count: p.alerts.length,
    alerts: p.alerts.map((alert) => ({ ...alert })),
    explanations: p.explanations.map((m) => ({
      rule_id: m.ruleId,
      category_slug: m.categorySlug,
      exposure_usd: microsToUsd(m.exposureUsdMicros),
      note: m.note,
      senders_total: m.sendersTotal,
      senders: [...m.senders],
    })),
  };
}

function coverageBody(c: NonNullable<TransferVerdict['coverage']>): NonNullable<TransferResultBody['coverage']> {
  return {
    sanctions: sanctionsCoverageBody(c.sanctions),
    data_versions: {
      taxonomy: c.taxonomy,
      snapshot: c.snapshot,
      // A source of a verdict recorded before `importedAt` was kept is served without it, as it was then.
      sources: c.sources.map((s) =>
        s.importedAt === undefined
          ? ({ source: s.source, version: s.version, content_hash: s.contentHash } as ReturnType<typeof sourceVersionRow>)
          : sourceVersionRow({ ...s, importedAt: s.importedAt }),
      ),
      transfer_data: c.transferData.map(transferDataRow),
    },
  };
}

/** The 200 body of a completed transfer check (without `receipt` and `billing`). */
export function presentTransferResult(v: TransferVerdict): TransferResultBody {
  return {
    schema_version: TRANSFER_RESULT_SCHEMA_VERSION,
    check_id: v.checkId,
    status: 'completed',
    chain: v.chain,
    tx_hash: v.txHash,
    transaction: {
      block_number: v.transaction.blockNumber,
      block_time: v.transaction.blockTime,
      success: v.transaction.success,
      signer: v.transaction.signer,
      to: v.transaction.to,
    },
    composite_result: compositeBody(v.composite),
    policy_result: policyBody(v.policy),
    ...(v.coverage ? { coverage: coverageBody(v.coverage) } : {}),
    checked_at: v.checkedAt,
  };
}

/** POST /v2/check-transfer and GET /v2/transfer/{check_id}/result: 202 running, 200 the result with its billing. */
export function presentTransferDelivery(
  outcome: TransferDelivery,
): Presented<TransferRunningBody | (TransferResultBody & { readonly receipt: string; readonly billing: BillingBody })> {
  switch (outcome.kind) {
    case 'running':
      return { status: 202, body: { check_id: outcome.checkId, status: 'running', retry_url: transferResultUrl(outcome.checkId) } };
    case 'completed':
      return {
        status: 200,
        body: { ...presentTransferResult(outcome.verdict), receipt: outcome.receipt, billing: presentBilling(outcome.billing) },
      };
  }
}

/** The x402 channel's transfer check: 202 running, 200 the result (paid-route adds billing). */
export function presentX402Transfer(
  outcome: X402TransferOutcome,
): Presented<TransferRunningBody | (TransferResultBody & { readonly receipt: string })> {
  switch (outcome.kind) {
    case 'running':
      return { status: 202, body: { check_id: outcome.checkId, status: 'running', retry_url: x402TransferResultPath(outcome.checkId) } };
    case 'completed':
      return { status: 200, body: { ...presentTransferResult(outcome.verdict), receipt: outcome.receipt } };
  }
}
