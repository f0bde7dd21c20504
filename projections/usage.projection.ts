import type { ReadStore } from '../domain/ports/read-store.port.js';
import { ledgerUserOf } from '../domain/ledger/ledger.events.js';
import { microsToUsd } from '../domain/shared/money.js';
import { defineProjection } from '../domain/ports/projection.port.js';
import { newestFirstPage } from './newest-first-page.js';

/** One row per recorded (charged) call, with its refund if any: GET /v2/me/usage. */
export interface UsageRowDoc extends Record<string, unknown> {
  call_id: string;
  user_id: string;
  key_id: string | null;
  product: string;
  endpoint: string;
  network: string | null;
  subject: string | null;
  units: number;
  charged_usd: number;
  refunded_units: number;
  refunded_usd: number;
  refund_reason: string | null;
  period_start: string;
  created_at: string;
}

export const usageProjection = defineProjection({
  name: 'usage',
  collection: 'usage_rows',
  indexes: [['user_id', 'created_at']],
  handles: ['Charged', 'Refunded'],
  idOf: (event) => event.data.chargeId,
  evolve: (doc: UsageRowDoc | null, event) => {
    if (event.type === 'Charged') {
      const d = event.data;
      return {
        call_id: d.chargeId,
        user_id: ledgerUserOf(event.streamId),
        key_id: d.details.keyId,
        product: d.product,
        endpoint: d.details.endpoint,
        network: d.details.network,
        subject: d.details.subject,
        units: d.units,
        charged_usd: microsToUsd(d.amountMicros),
        refunded_units: 0,
        refunded_usd: 0,
        refund_reason: null,
        period_start: d.periodStart,
        created_at: d.at,
      };
    }
    if (doc) {
      return {
        ...doc,
        refunded_units: doc.refunded_units + event.data.units,
        refunded_usd: microsToUsd(Math.round(doc.refunded_usd * 1e6) + event.data.amountMicros),
        refund_reason: event.data.reason,
      };
    }
    return doc;
  },
});

export interface UsageRepository {
  /** Newest first; `since` included, `until` excluded (ISO times). */
  page(
    userId: string,
    options: { page: number; pageSize: number; since?: string; until?: string },
  ): Promise<{ rows: readonly UsageRowDoc[]; total: number }>;
}

export function usageRepository(store: ReadStore): UsageRepository {
  const rows = store.collection<UsageRowDoc>(usageProjection.collection, usageProjection.indexes);
  return {
    async page(userId, { page, pageSize, since, until }) {
      return newestFirstPage(
        rows,
        { where: { user_id: userId }, field: 'created_at', ...(since ? { since } : {}), ...(until ? { until } : {}) },
        { page, pageSize },
      );
    },
  };
}
