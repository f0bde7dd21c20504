import { eventRegistry } from '../../domain/events/registry.js';
import type { ChargeDetails } from '../../domain/ledger/ledger.events.js';
import type { EventStore } from '../../domain/ports/event-store.port.js';
import { chargeStreamOf, type CheckHistoryDoc } from '../../projections/check-history.projection.js';
import { compactReceiptOf } from '../../domain/receipts/detached-receipt.js';
import { detachedScreenReceiptOf } from '../../domain/receipts/charged-screen-receipt.js';

/**
 * A light screen's charge as its ledger recorded it (summary and receipt), read from the one event the
 * History row points at: a stream read of one revision, which every event store adapter answers from its
 * stream index. Null when the row has no pointer (folded before it was kept) or the event there is not
 * this charge.
 */
export async function screenChargeOf(log: Pick<EventStore, 'read'>, row: CheckHistoryDoc): Promise<ChargeDetails | null> {
  const at = row.charge_event;
  if (!at || row.user_id === null) return null;
  for await (const recorded of log.read(chargeStreamOf(row.user_id, at), { fromRevision: BigInt(at.revision), maxCount: 1 })) {
    const event = eventRegistry.parse(recorded);
    if (event?.type === 'Charged' && event.data.chargeId === row.id) return event.data.details;
  }
  return null;
}

/** The receipt a light screen answered with (the compact JWS, rebuilt from what its charge keeps): from its charge, else (a row folded before pointers) from the row. */
export async function screenReceiptOf(log: Pick<EventStore, 'read'>, row: CheckHistoryDoc): Promise<string | undefined> {
  const charge = await screenChargeOf(log, row);
  if (!charge) return row.receipt;
  // screenChargeOf found the charge of this row's id: the statement's verdict id.
  const detached = charge.receipt && detachedScreenReceiptOf({ chargeId: row.id, details: charge }, charge.receipt);
  return detached ? compactReceiptOf(detached) : undefined;
}
