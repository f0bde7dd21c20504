import type { FullCheckVerdict } from '../address-check/full-check-verdict.js';
import type { FinalAudit } from '../inspect/final-audit.js';
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

interface DataRows {
  readonly taxonomy?: string | null;
  readonly snapshot?: string | null;
  readonly sources: readonly { source: string; version: string; content_hash: string }[];
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

const dataOf = (rows: DataRows): VerdictStatement['data'] => ({
  taxonomy: rows.taxonomy ?? null,
  snapshot: rows.snapshot ?? null,
  sources: signedSources(rows.sources.map((row) => ({ source: row.source, version: row.version, contentHash: row.content_hash }))),
});

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
  return statement('screen', context, {
    subject: addressSubject(subject.network, subject.address),
    outcome: {
      riskLevel: verdict.risk_level,
      riskScore: verdict.risk_score,
      decision: null,
      categories: sorted(verdict.risk_categories),
      sanctioned: verdict.sdn_match !== null,
    },
    data: dataOf(coverage.data_versions),
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

/** The transfer check's stored body (its fields are read by name: the body is not typed in the event yet). */
export interface TransferResultFacts {
  readonly chain: string;
  readonly tx_hash: string;
  readonly composite_result: { readonly risk_score: number; readonly risk_level: string; readonly categories: readonly { slug: string }[] };
  readonly policy_result: { readonly recommended_action: string; readonly taxonomy_version: string };
  readonly coverage?: { readonly data_versions?: DataRows };
}

export function transferCheckStatement(context: VerdictContext, result: TransferResultFacts) {
  const composite = result.composite_result;
  return statement('transfer_check', context, {
    subject: { network: result.chain, address: null, txHash: result.tx_hash },
    outcome: {
      riskLevel: composite.risk_level,
      riskScore: composite.risk_score,
      decision: result.policy_result.recommended_action,
      categories: sorted(composite.categories.map((c) => c.slug)),
      sanctioned: composite.categories.some((c) => c.slug === 'sanctions'),
    },
    data: dataOf(result.coverage?.data_versions ?? { taxonomy: result.policy_result.taxonomy_version, snapshot: null, sources: [] }),
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
  const { current } = change;
  return statement('monitor_change', context, {
    subject: addressSubject(subject.network, subject.address),
    outcome: {
      riskLevel: current.risk_level,
      riskScore: current.risk_score,
      decision: null,
      categories: sorted(current.risk_categories),
      sanctioned: current.sdn_match !== null,
    },
    data: dataOf(change.dataVersions),
  });
}
