import { present } from '../../domain/shared/present.js';
import { changeReasonWords } from '../../domain/webhooks/change-reason-words.js';
import type { MonitorState } from '../../domain/monitors/monitor.decider.js';
import { sanctionsCoverageBody } from '../../domain/webhooks/sanctions-coverage.words.js';
import type { MonitorChangeRow, MonitorDoc } from '../../projections/monitors.projection.js';
import { monitorDataVersionsBody, monitorVerdictBody } from '../presenters/monitor-verdict.presenter.js';

/** One monitor as the API shows it, whether read from its stream (after a write) or its document. */
export function monitorFromState(state: MonitorState) {
  return {
    monitor_id: present(state.monitorId, 'a created monitor has its id'),
    address: present(state.address, 'a created monitor has its address'),
    network: present(state.network, 'a created monitor has its network'),
    reference: state.reference,
    status: state.status,
    paused_reason: state.pausedReason,
    paid_period_start: state.paidPeriod,
    created_at: state.createdAt,
    last_changed_at: state.lastChangedAt,
    verdict: monitorVerdictBody(present(state.verdict, 'a created monitor has a verdict')),
    data_versions: monitorDataVersionsBody(present(state.dataVersions, 'a created monitor has its data versions')),
    sanctions: state.sanctions ? sanctionsCoverageBody(state.sanctions) : null,
  };
}

export function monitorFromDoc(doc: MonitorDoc) {
  return {
    monitor_id: doc.monitor_id,
    address: doc.address,
    network: doc.network,
    reference: doc.reference,
    status: doc.status,
    paused_reason: doc.paused_reason,
    paid_period_start: doc.paid_period,
    created_at: doc.created_at,
    last_changed_at: doc.last_changed_at,
    verdict: monitorVerdictBody(doc.verdict),
    data_versions: monitorDataVersionsBody(doc.data_versions),
    sanctions: doc.sanctions ? sanctionsCoverageBody(doc.sanctions) : null,
  };
}

/** A change of the history as the API shows it. */
export const monitorChangeOf = (row: MonitorChangeRow) => ({
  at: row.at,
  previous: monitorVerdictBody(row.previous),
  current: monitorVerdictBody(row.current),
  reasons: row.reasons.map(changeReasonWords),
  sanctions: row.sanctions ? sanctionsCoverageBody(row.sanctions) : null,
});
