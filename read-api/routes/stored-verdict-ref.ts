import type { StoredVerdictRef } from '../../commands/replay/replay-verdict.js';
import type { CheckHistoryDoc } from '../../projections/check-history.projection.js';

/** What the History knows of a verdict, as the replay takes it: a screen's kept summary and receipt, a check's id. */
export function storedVerdictRef(userId: string, row: CheckHistoryDoc): StoredVerdictRef {
  if (row.kind !== 'screen') return { kind: row.kind ?? 'unknown', id: row.id };
  const screen = { verdictId: row.id, userId, network: row.network, subject: row.subject, chargedAt: row.created_at };
  return { kind: 'screen', screen: { ...screen, summary: row.screen, receipt: row.receipt } };
}
