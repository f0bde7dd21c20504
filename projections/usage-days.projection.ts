import { ledgerUserOf, type LedgerEvent } from '../domain/ledger/ledger.events.js';
import type { ReadStore } from '../domain/ports/read-store.port.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/**
 * Calls and spend per user and UTC day, for the dashboard's chart: one small document per active day,
 * so a month of history is 30 documents whatever the call volume. A refund counts on the day it happened.
 */
export interface UsageDayDoc extends Record<string, unknown> {
  userId: string;
  day: string;
  calls: number;
  units: number;
  chargedMicros: number;
  refundedMicros: number;
}

const userOf = ledgerUserOf;

export const usageDaysProjection = defineProjection<UsageDayDoc>({
  name: 'usage-days',
  collection: 'usage_days',
  indexes: ['userId'],
  handles: ['Charged', 'Refunded'],
  idOf: (event) => `${userOf(event.streamId)}:${(event.data as { at: string }).at.slice(0, 10)}`,
  evolve: (doc, recorded) => {
    const event = { type: recorded.type, data: recorded.data } as LedgerEvent;
    const day = doc ?? { userId: userOf(recorded.streamId), day: (event.data as { at: string }).at.slice(0, 10), calls: 0, units: 0, chargedMicros: 0, refundedMicros: 0 };
    if (event.type === 'Charged') {
      return { ...day, calls: day.calls + 1, units: day.units + event.data.units, chargedMicros: day.chargedMicros + event.data.amountMicros };
    }
    if (event.type === 'Refunded') return { ...day, units: day.units - event.data.units, refundedMicros: day.refundedMicros + event.data.amountMicros };
    return doc;
  },
});

export interface UsageDayRepository {
  /** The user's active days on or after `fromDay` (YYYY-MM-DD), oldest first. */
  since(userId: string, fromDay: string): Promise<readonly UsageDayDoc[]>;
}

export function usageDayRepository(store: ReadStore): UsageDayRepository {
  const days = store.collection<UsageDayDoc>(usageDaysProjection.collection, usageDaysProjection.indexes);
  return {
    since: (userId, fromDay) => days.find({ where: { userId }, since: { field: 'day', value: fromDay }, orderBy: { field: 'day', direction: 'asc' } }),
  };
}
