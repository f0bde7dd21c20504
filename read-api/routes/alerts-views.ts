import type { AlertCaseDoc, CaseHistoryEntry } from '../../projections/alert-cases.projection.js';
import type { CaseActor } from '../../domain/alerts/alert-case.events.js';
import { changeReasonsAsStored } from '../../domain/intel/change-reason.upcast.js';
import { changeReasonWords } from '../../domain/webhooks/change-reason-words.js';

/** The JSON shapes of alert cases on /v2/alerts (snake_case like the rest of V2). */

const actor = (a: CaseActor | null) => (a ? { user_id: a.userId, email: a.email } : null);

export function alertSummary(doc: AlertCaseDoc) {
  return {
    id: doc.alertId,
    check_id: doc.checkId,
    alert_index: doc.alertIndex,
    subgroup_id: doc.subgroupId,
    chain: doc.chain,
    tx_hash: doc.txHash,
    status: doc.status,
    reason: doc.closeReason,
    note: doc.closeNote,
    assignee: actor(doc.assignee),
    risk_level: doc.riskLevel,
    alert: doc.alert,
    comment_count: doc.comments.length,
    checked_at: doc.checkedAt,
    retroactive: doc.retroactive
      ? { change_key: doc.retroactive.changeKey, reasons: changeReasonsAsStored(doc.retroactive.reasons).map(changeReasonWords) }
      : null,
    created_at: doc.createdAt,
    updated_at: doc.updatedAt,
  };
}

function historyEntry(entry: CaseHistoryEntry) {
  return {
    at: entry.at,
    by: actor(entry.by),
    action: entry.action,
    ...(entry.from !== undefined ? { from: entry.from } : {}),
    ...(entry.to !== undefined ? { to: entry.to } : {}),
    ...(entry.reason !== undefined ? { reason: entry.reason } : {}),
    ...(entry.note !== undefined ? { note: entry.note } : {}),
    ...(entry.text !== undefined ? { text: entry.text } : {}),
  };
}

/** One case with its comments and its audit trail (every event of its stream, oldest first). */
export function alertDetail(doc: AlertCaseDoc) {
  return {
    ...alertSummary(doc),
    comments: doc.comments.map((c) => ({ id: c.commentId, text: c.text, by: actor(c.by), at: c.at })),
    history: doc.history.map(historyEntry),
  };
}
