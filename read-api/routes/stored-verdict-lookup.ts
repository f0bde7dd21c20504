import { findMonitorChange, type MonitorChange } from '../../commands/replay/monitor-change.js';
import type { StoredVerdictRef } from '../../commands/replay/replay-verdict.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import type { CheckHistoryDoc, CheckHistoryRepository } from '../../projections/check-history.projection.js';
import { storedVerdictRef } from './stored-verdict-ref.js';

/** A History id (a call or check id) is a UUID-sized string; longer ones are nobody's. */
const MAX_ID_LENGTH = 64;
/** `{monitor_id}:{change key}`: a change key names a source and its content hash (`dataset:{source}:{hash}`). */
const MAX_MONITOR_CHANGE_ID_LENGTH = 256;

export type FoundVerdict =
  | { readonly kind: 'history'; readonly row: CheckHistoryDoc; readonly ref: StoredVerdictRef }
  | { readonly kind: 'monitor_change'; readonly change: MonitorChange; readonly ref: StoredVerdictRef };

/**
 * One of the account's verdicts by its id: a charged one from the History, else a monitor's change from
 * its monitor's stream (monitor changes are not charged, so the History does not list them). Null for
 * anyone else's verdict and for an unknown id alike.
 */
export async function findStoredVerdict(
  sources: { readonly history: CheckHistoryRepository; readonly log: Pick<EventStore, 'read'> },
  userId: string,
  id: string,
): Promise<FoundVerdict | null> {
  if (id.length === 0) return null;
  const row = id.length <= MAX_ID_LENGTH ? await sources.history.get(userId, id) : null;
  if (row) return { kind: 'history', row, ref: await storedVerdictRef(sources.log, userId, row) };
  if (id.length > MAX_MONITOR_CHANGE_ID_LENGTH) return null;
  const change = await findMonitorChange(sources.log, userId, id);
  return change ? { kind: 'monitor_change', change, ref: { kind: 'monitor_change', change } } : null;
}
