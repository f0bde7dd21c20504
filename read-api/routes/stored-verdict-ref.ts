import type { StoredVerdictRef } from '../../commands/replay/replay-verdict.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { CheckHistoryDoc } from '../../projections/check-history.projection.js';
import { screenReceiptOf } from './stored-screen-charge.js';
import { storedScreenSummary } from '../presenters/screen.presenter.js';

/** What the History knows of a verdict, as the replay takes it: a screen's kept summary and its charge's receipt, a check's id. */
export async function storedVerdictRef(log: Pick<EventStore, 'read'>, userId: string, row: CheckHistoryDoc): Promise<StoredVerdictRef> {
  if (row.kind !== 'screen') return { kind: row.kind ?? 'unknown', id: row.id };
  const screen = { verdictId: row.id, userId, network: row.network, subject: row.subject, chargedAt: row.created_at };
  return { kind: 'screen', screen: { ...screen, summary: storedScreenSummary(row), receipt: await screenReceiptOf(log, row) } };
}
