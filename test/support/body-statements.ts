import { z } from 'zod';
import { inputHashOf } from '../../domain/receipts/canonical-json.js';
import { VERDICT_STATEMENT_VERSION, type VerdictStatement } from '../../domain/receipts/verdict-statement.js';
import type { FullCheckResult } from '../../read-api/schemas/full-check-result.schema.js';
import type { InspectResultBody } from '../../read-api/schemas/inspect.js';
import type { StoredVerdictBody } from '../../read-api/presenters/stored-verdict.presenter.js';
import type { ScreenResultBody } from '../../read-api/schemas/screen.js';

/**
 * The verdict statement as someone holding only a response body reads it, field by field as docs/api.md's
 * "Verifying a verdict" table says (`outcome.riskLevel` is `verdict.risk_level`, `data.sources` are
 * `coverage.data_versions.sources`, …). Written from the table, not from domain/receipts: the property
 * tests beside the presenters hold it equal to the statement the receipt signs, so a body that drops,
 * renames or rounds a signed fact fails them. The caller is not in a body (the holder knows who asked).
 */

type Caller = VerdictStatement['caller'];
type SourceRow = { source: string; version: string; content_hash: string };

const sorted = (values: readonly string[]): string[] => [...new Set(values)].sort();
/** RFC 8785's order for names, used here for list entries too: the same in every language and locale. */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const signedSources = (rows: readonly SourceRow[]): VerdictStatement['data']['sources'] =>
  rows
    .map((row) => ({ source: row.source, version: row.version, contentHash: row.content_hash }))
    .sort((a, b) => byCodeUnits(a.source, b.source) || byCodeUnits(a.version, b.version));

const dataOf = (versions: { taxonomy: string; snapshot: string | null; sources: readonly SourceRow[] }): VerdictStatement['data'] => ({
  taxonomy: versions.taxonomy,
  snapshot: versions.snapshot,
  sources: signedSources(versions.sources),
});

const addressSubject = (body: { address: string; network: string }): VerdictStatement['subject'] => ({
  network: body.network,
  address: body.address,
  txHash: null,
});

const inputHashOfAddress = (body: { address: string; network: string }): string =>
  inputHashOf({ address: body.address, network: body.network });

export function fullCheckBodyStatement(caller: Caller, body: FullCheckResult): VerdictStatement {
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: body.check_id,
    kind: 'full_check',
    subject: addressSubject(body),
    caller,
    inputHash: inputHashOfAddress(body),
    issuedAt: body.completed_at,
    outcome: {
      riskLevel: body.verdict.risk_level,
      riskScore: body.verdict.risk_score,
      decision: body.decision,
      categories: sorted(body.verdict.risk_categories),
      sanctioned: body.verdict.sdn_match !== null,
    },
    data: dataOf(body.coverage.data_versions),
  };
}

/** A screen's time is the receipt's own (the body states none): the holder reads it from the statement. */
export function screenBodyStatement(caller: Caller, issuedAt: string, body: ScreenResultBody): VerdictStatement | null {
  if (body.verdict_id === undefined) return null;
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: body.verdict_id,
    kind: 'screen',
    subject: addressSubject(body),
    caller,
    inputHash: inputHashOfAddress(body),
    issuedAt,
    outcome: {
      riskLevel: body.verdict.risk_level,
      riskScore: body.verdict.risk_score,
      decision: null,
      categories: sorted(body.verdict.risk_categories),
      sanctioned: body.verdict.sdn_match !== null,
    },
    data: dataOf(body.coverage.data_versions),
  };
}

/** An inspect signs no data versions (its providers' answers are its data, recorded in its events). */
export function inspectBodyStatement(caller: Caller, body: InspectResultBody): VerdictStatement | null {
  const { audit } = body;
  if (audit === null || body.completed_at === null) return null;
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: body.check_id,
    kind: 'inspect',
    subject: addressSubject(body),
    caller,
    inputHash: inputHashOfAddress(body),
    issuedAt: body.completed_at,
    outcome: {
      riskLevel: audit.worst_risk_level,
      riskScore: null,
      decision: audit.decision,
      categories: sorted(audit.risk_categories),
      sanctioned: audit.sanctioned,
    },
    data: { taxonomy: null, snapshot: null, sources: [] },
  };
}

/** What a verifier reads of a monitor change's `verdict` (the stored-verdict schema leaves it open: each kind's own shape). */
const monitorChangeFields = z.object({
  current: z.object({
    risk_level: z.string().nullable(),
    risk_score: z.number().nullable(),
    risk_categories: z.array(z.string()),
    sdn_match: z.unknown().nullable(),
  }),
  data_versions: z.object({
    taxonomy: z.string(),
    snapshot: z.string().nullable(),
    sources: z.array(z.object({ source: z.string(), version: z.string(), content_hash: z.string() })),
  }),
});

/** A monitor change read back (GET /v2/verdicts/{monitor_id}:{change}); its webhook carries no data versions. */
export function monitorChangeBodyStatement(caller: Caller, body: StoredVerdictBody): VerdictStatement | null {
  const read = monitorChangeFields.safeParse(body.verdict);
  if (!read.success || body.network === null || body.subject === null || body.created_at === null) return null;
  const { current, data_versions: versions } = read.data;
  return {
    version: VERDICT_STATEMENT_VERSION,
    verdictId: body.verdict_id,
    kind: 'monitor_change',
    subject: addressSubject({ address: body.subject, network: body.network }),
    caller,
    inputHash: inputHashOfAddress({ address: body.subject, network: body.network }),
    issuedAt: body.created_at,
    outcome: {
      riskLevel: current.risk_level,
      riskScore: current.risk_score,
      decision: null,
      categories: sorted(current.risk_categories),
      sanctioned: current.sdn_match !== null,
    },
    data: dataOf(versions),
  };
}
