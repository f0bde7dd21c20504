import type { CloseReason } from '../domain/alerts/alert-case.events.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import type { RecordedChecks } from '../domain/ports/recorded-checks.port.js';

/**
 * How each alert case stands, by the check that raised it: a backtest asks, for the checks whose alerts
 * analysts closed, whether they were flagged or dismissed. Indexed by check, so one check's cases are one
 * index range.
 */
export interface CaseOutcomeDoc extends Record<string, unknown> {
  id: string;
  check_id: string;
  alert_index: number;
  /** null while the case is open or in review. */
  reason: CloseReason | null;
}

export const caseOutcomesProjection = defineProjection({
  name: 'case-outcomes',
  collection: 'case_outcomes',
  indexes: ['check_id'],
  handles: ['AlertCaseOpened', 'AlertCaseStatusChanged'],
  idOf: (event) => event.data.alertId,
  evolve: (doc: CaseOutcomeDoc | null, event): CaseOutcomeDoc | null => {
    if (event.type === 'AlertCaseOpened')
      return doc ?? { id: event.data.alertId, check_id: event.data.checkId, alert_index: event.data.alertIndex, reason: null };
    return doc ? { ...doc, reason: event.data.to === 'closed' ? event.data.reason : null } : null;
  },
});

export function caseOutcomeReader(store: ReadStore): RecordedChecks['outcomesOf'] {
  const docs = store.collection<CaseOutcomeDoc>(caseOutcomesProjection.collection, caseOutcomesProjection.indexes);
  return async (checkId) =>
    (await docs.find({ where: { check_id: checkId } })).flatMap((doc) =>
      doc.reason === null ? [] : [{ alertIndex: doc.alert_index, reason: doc.reason }],
    );
}
