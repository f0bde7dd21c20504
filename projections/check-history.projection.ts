import type { ReadStore } from '../domain/ports/read-store.port.js';
import { checkStreams } from '../domain/address-check/address-check.events.js';
import { ledgerUserOf } from '../domain/ledger/ledger.events.js';
import { defineProjection } from '../domain/ports/projection.port.js';

/**
 * The account's checks for the workbench's History: one document per charged call (its charge id is the
 * check id of a full or transfer check), with the verdict's risk level merged in from the check's own
 * completion, whichever comes first (a full check completes before its first delivery charges it).
 * Light screens keep no verdict in the log, so their risk level is unknown here.
 */
export interface CheckHistoryDoc extends Record<string, unknown> {
  id: string;
  /** null until the charge is seen (a check completed but not yet delivered). */
  user_id: string | null;
  kind: string | null;
  network: string | null;
  subject: string | null;
  /** Full check: the verdict's risk_level; transfer check: the worst alert level or `none`. */
  risk_level: string | null;
  created_at: string | null;
}

const empty = (id: string): CheckHistoryDoc => ({ id, user_id: null, kind: null, network: null, subject: null, risk_level: null, created_at: null });

export const checkHistoryProjection = defineProjection({
  name: 'check-history',
  collection: 'check_history',
  indexes: ['user_id', 'created_at'],
  handles: ['Charged', 'CheckCompleted', 'TransferCheckCompleted'],
  idOf: (event) => {
    switch (event.type) {
      case 'Charged':
        return event.data.chargeId;
      case 'CheckCompleted':
        return checkStreams.idOf(event.streamId);
      case 'TransferCheckCompleted':
        return event.data.checkId;
    }
  },
  evolve: (doc: CheckHistoryDoc | null, event) => {
    switch (event.type) {
      case 'Charged': {
        const d = event.data;
        const base = doc ?? empty(d.chargeId);
        // A period stream (`ledger-{user}@YYYY-MM`) is the user's too: the user id, not the stream's suffix.
        return { ...base, user_id: ledgerUserOf(event.streamId), kind: d.product, network: d.details.network, subject: d.details.subject, created_at: d.at };
      }
      case 'CheckCompleted': {
        const checkId = checkStreams.idOf(event.streamId);
        return checkId === null ? doc : { ...(doc ?? empty(checkId)), risk_level: event.data.result.verdict?.risk_level ?? null };
      }
      case 'TransferCheckCompleted':
        return { ...(doc ?? empty(event.data.checkId)), risk_level: event.data.worstLevel ?? 'none' };
    }
  },
});

export interface CheckHistoryFilter {
  readonly kind?: string;
  readonly network?: string;
  readonly riskLevel?: string;
  readonly since?: string;
}

export interface CheckHistoryRepository {
  page(userId: string, filter: CheckHistoryFilter, paging: { page: number; pageSize: number }): Promise<{ rows: readonly CheckHistoryDoc[]; total: number }>;
}

export function checkHistoryRepository(store: ReadStore): CheckHistoryRepository {
  const docs = store.collection<CheckHistoryDoc>(checkHistoryProjection.collection, checkHistoryProjection.indexes);
  return {
    async page(userId, filter, { page, pageSize }) {
      const query = {
        where: {
          user_id: userId,
          ...(filter.kind ? { kind: filter.kind } : {}),
          ...(filter.network ? { network: filter.network } : {}),
          ...(filter.riskLevel ? { risk_level: filter.riskLevel } : {}),
        },
        ...(filter.since ? { since: { field: 'created_at', value: filter.since } } : {}),
      };
      const [rows, total] = await Promise.all([
        docs.find({ ...query, orderBy: { field: 'created_at', direction: 'desc' }, skip: (page - 1) * pageSize, limit: pageSize }),
        docs.count(query),
      ]);
      return { rows, total };
    },
  };
}
