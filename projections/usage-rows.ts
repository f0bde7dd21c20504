import type { Collection, ReadStore } from '../domain/ports/read-store.port.js';
import { microsToUsd } from '../domain/shared/money.js';
import { checkHistoryProjection, type CheckHistoryDoc } from './check-history.projection.js';
import { newestFirstPage } from './newest-first-page.js';

/**
 * One row per recorded (charged) call, with its refund if any: GET /v2/me/usage. Derived from the charge's
 * History row (check-history.projection.ts), the one read-model document a charge has, and paged by the same
 * index (user, time): the usage view adds no document and no index key per call.
 */
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

/**
 * Where the usage projection kept its rows before they were derived from the History row. A data directory
 * written then still holds them, for the charges whose History row has no usage fields; nothing writes them now.
 */
export const LEGACY_USAGE_COLLECTION = 'usage_rows';

/** A charged row's usage row; null for a row whose usage fields were not kept (folded before they were). */
export function usageRowOf(row: CheckHistoryDoc): UsageRowDoc | null {
  if (row.units === undefined || row.user_id === null || row.kind === null || row.created_at === null) return null;
  return {
    call_id: row.id,
    user_id: row.user_id,
    key_id: row.key_id ?? null,
    product: row.kind,
    endpoint: row.endpoint ?? '',
    network: row.network,
    subject: row.subject,
    units: row.units,
    charged_usd: row.charged_usd ?? 0,
    refunded_units: row.refunded_units ?? 0,
    refunded_usd: row.refunded_usd ?? 0,
    refund_reason: row.refund_reason ?? null,
    period_start: row.period_start ?? '',
    created_at: row.created_at,
  };
}

/**
 * The usage row of a History row folded before it kept its usage fields: the usage projection's row of that
 * time, with the refunds folded into the History row since (the two never count the same refund: one
 * checkpoint covers both read models).
 */
function legacyUsageRowOf(row: CheckHistoryDoc, legacy: UsageRowDoc | null): UsageRowDoc | null {
  if (legacy === null || row.refunded_units === undefined) return legacy;
  return {
    ...legacy,
    refunded_units: legacy.refunded_units + row.refunded_units,
    refunded_usd: microsToUsd(Math.round(legacy.refunded_usd * 1e6) + Math.round((row.refunded_usd ?? 0) * 1e6)),
    refund_reason: row.refund_reason ?? legacy.refund_reason,
  };
}

export interface UsageRepository {
  /** Newest first; `since` included, `until` excluded (ISO times). */
  page(
    userId: string,
    options: { page: number; pageSize: number; since?: string; until?: string },
  ): Promise<{ rows: readonly UsageRowDoc[]; total: number }>;
  /** Every usage row of the user's (`ledger audit`). */
  all(userId: string): Promise<readonly UsageRowDoc[]>;
}

export function usageRepository(store: ReadStore): UsageRepository {
  const rows = store.collection<CheckHistoryDoc>(checkHistoryProjection.collection, checkHistoryProjection.indexes);
  const legacy: Collection<UsageRowDoc> = store.collection<UsageRowDoc>(LEGACY_USAGE_COLLECTION);
  const usageRowsOf = async (found: readonly CheckHistoryDoc[]): Promise<UsageRowDoc[]> => {
    const derived = await Promise.all(
      found.map(async (row) => usageRowOf(row) ?? legacyUsageRowOf(row, (await legacy.get(row.id))?.doc ?? null)),
    );
    return derived.filter((row): row is UsageRowDoc => row !== null);
  };
  return {
    async page(userId, { page, pageSize, since, until }) {
      const found = await newestFirstPage(
        rows,
        { where: { user_id: userId }, field: 'created_at', ...(since ? { since } : {}), ...(until ? { until } : {}) },
        { page, pageSize },
      );
      return { rows: await usageRowsOf(found.rows), total: found.total };
    },
    async all(userId) {
      return usageRowsOf(await rows.find({ where: { user_id: userId } }));
    },
  };
}
