import { ledgerUserOf } from '../domain/ledger/ledger.events.js';
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

const dayOf = (at: string): string => at.slice(0, 10);

export const usageDaysProjection = defineProjection({
  name: 'usage-days',
  collection: 'usage_days',
  indexes: [['userId', 'day']],
  handles: ['Charged', 'Refunded'],
  idOf: (event) => `${ledgerUserOf(event.streamId)}:${dayOf(event.data.at)}`,
  evolve: (doc: UsageDayDoc | null, event) => {
    const day = doc ?? {
      userId: ledgerUserOf(event.streamId),
      day: dayOf(event.data.at),
      calls: 0,
      units: 0,
      chargedMicros: 0,
      refundedMicros: 0,
    };
    if (event.type === 'Charged') {
      return {
        ...day,
        calls: day.calls + 1,
        units: day.units + event.data.units,
        chargedMicros: day.chargedMicros + event.data.amountMicros,
      };
    }
    return { ...day, units: day.units - event.data.units, refundedMicros: day.refundedMicros + event.data.amountMicros };
  },
});

export interface UsageDayRepository {
  /** The user's active days on or after `fromDay` (YYYY-MM-DD), oldest first. */
  since(userId: string, fromDay: string): Promise<readonly UsageDayDoc[]>;
}

export function usageDayRepository(store: ReadStore): UsageDayRepository {
  const days = store.collection<UsageDayDoc>(usageDaysProjection.collection, usageDaysProjection.indexes);
  return {
    since: (userId, fromDay) =>
      days.find({ where: { userId }, since: { field: 'day', value: fromDay }, orderBy: { field: 'day', direction: 'asc' } }),
  };
}
