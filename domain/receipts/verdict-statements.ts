import type { FullCheckVerdict } from '../address-check/full-check-verdict.js';
import type { FinalAudit } from '../inspect/final-audit.js';
import type { TransferVerdict } from '../kyt/transfer-verdict.js';
import type { ScreenVerdict } from '../intel/screen-verdict.schema.js';
import type { MonitorDataVersions, MonitorVerdict } from '../monitors/monitor-verdict.js';
import { inputHashOf } from './canonical-json.js';
import { VERDICT_STATEMENT_VERSION, type VerdictKind, type VerdictStatement } from './verdict-statement.js';

/**
 * The typed domain verdict of each kind, built from the facts the verdict was recorded with. Pure: the
 * same stored verdict always gives the same statement, so its receipt (Ed25519 is deterministic) is the
 * same bytes on every read under the same key.
 */

/** Who asked, what they asked and when the verdict was made: the part every kind shares. */
export interface VerdictContext {
  readonly verdictId: string;
  readonly caller: VerdictStatement['caller'];
  readonly input: Readonly<Record<string, unknown>>;
  readonly issuedAt: string;
}

const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** UTF-16 code-unit order (RFC 8785's for names): the same in every runtime and locale, unlike localeCompare. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The sources in the order a statement signs them: by source, then version, in code-unit order, so that
 * anyone (a verifier in another language, a replay on another machine) rebuilds the same bytes. Receipts
 * signed before this order (localeCompare's) differ only where the two orders do; a replay compares
 * the sources in this order on both sides (commands/replay/replay-screen.ts).
 */
export const signedSources = (
  sources: readonly { source: string; version: string; contentHash: string }[],
): VerdictStatement['data']['sources'] =>
  sources
    .map(({ source, version, contentHash }) => ({ source, version, contentHash }))
    .sort((a, b) => byCodeUnits(a.source, b.source) || byCodeUnits(a.version, b.version));

function statement(
  kind: VerdictKind,
  context: VerdictContext,
  parts: Pick<VerdictStatement, 'subject' | 'outcome' | 'data'>,
): VerdictStatement {
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: context.verdictId,
    kind,
    subject: parts.subject,
    caller: context.caller,
    inputHash: inputHashOf(context.input),
    issuedAt: context.issuedAt,
    outcome: parts.outcome,
    data: parts.data,
  };
}

const addressSubject = (network: string, address: string) => ({ network, address, txHash: null });

export function screenStatement(context: VerdictContext, subject: { address: string; network: string }, screen: ScreenVerdict) {
  const { verdict, coverage } = screen;
  const { taxonomy, snapshot, sources } = coverage.dataVersions;
  return statement('screen', context, {
    subject: addressSubject(subject.network, subject.address),
    outcome: {
      riskLevel: verdict.addressLevel,
      riskScore: verdict.riskScore,
      decision: null,
      categories: sorted(verdict.riskCategories),
      sanctioned: verdict.sanctionsMatch !== null,
    },
    data: { taxonomy, snapshot, sources: signedSources(sources) },
  });
}

/** The full check's domain verdict (CheckCompleted): the statement is the one its stored body gave before verdicts were domain facts. */
export function fullCheckStatement(context: VerdictContext, verdict: FullCheckVerdict) {
  const { risk, dataVersions } = verdict;
  return statement('full_check', context, {
    subject: addressSubject(verdict.subject.network, verdict.subject.address),
    outcome: {
      riskLevel: risk.level,
      riskScore: risk.score,
      decision: verdict.decision,
      categories: sorted(risk.categories),
      sanctioned: verdict.intel.sdnMatch !== null,
    },
    data: {
      taxonomy: dataVersions.taxonomy,
      snapshot: dataVersions.snapshot,
      sources: signedSources(dataVersions.sources),
    },
  });
}

/**
 * The transfer check's domain verdict (TransferCheckCompleted): the statement is the one its stored body gave
 * before verdicts were domain facts. Sanctioned means a category of the composite is `sanctions`; a check
 * completed before it recorded what it read states the policy's taxonomy and no sources.
 */
export function transferCheckStatement(context: VerdictContext, verdict: TransferVerdict) {
  const { composite, policy, coverage } = verdict;
  return statement('transfer_check', context, {
    subject: { network: verdict.chain, address: null, txHash: verdict.txHash },
    outcome: {
      riskLevel: composite.riskLevel,
      riskScore: composite.riskScore,
      decision: policy.recommendedAction,
      categories: sorted(composite.categories.map((c) => c.slug)),
      sanctioned: composite.categories.some((c) => c.slug === 'sanctions'),
    },
    data: coverage
      ? { taxonomy: coverage.taxonomy, snapshot: coverage.snapshot, sources: signedSources(coverage.sources) }
      : { taxonomy: policy.taxonomyVersion, snapshot: null, sources: [] },
  });
}

export function inspectStatement(context: VerdictContext, subject: { address: string; network: string }, audit: FinalAudit) {
  return statement('inspect', context, {
    subject: addressSubject(subject.network, subject.address),
    outcome: {
      riskLevel: audit.worst_risk_level,
      riskScore: null,
      decision: audit.decision,
      categories: sorted(audit.risk_categories),
      sanctioned: audit.sanctioned,
    },
    data: { taxonomy: null, snapshot: null, sources: [] },
  });
}

export function monitorChangeStatement(
  context: VerdictContext,
  subject: { address: string; network: string },
  change: { current: MonitorVerdict; dataVersions: MonitorDataVersions },
) {
  const { current, dataVersions } = change;
  return statement('monitor_change', context, {
    subject: addressSubject(subject.network, subject.address),
    outcome: {
      riskLevel: current.riskLevel,
      riskScore: current.riskScore,
      decision: null,
      categories: sorted(current.riskCategories),
      sanctioned: current.sanctionsMatch !== null,
    },
    data: { taxonomy: dataVersions.taxonomy, snapshot: dataVersions.snapshot, sources: signedSources(dataVersions.sources) },
  });
}
